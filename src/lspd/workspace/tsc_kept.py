"""The copy tsc checks a held state on (`workspace/tsc_copy.py`), kept between questions.

Made afresh for each question, the copy cost what the root holds, not what tsc reads: 3000
build-output .js files in a gitignored dist/ (15 MB) made a TypeScript 7 preview of a file
two programs hold take 7-11 s where tsc takes 0.3 s. So the copy stays in lspd's state
directory, one per root, configuration and top folder (`folder`), and the next question
brings it to its state: the root walked and each file's size, mtime, inode and ctime
compared with those it had when copied (`Manifest`), copied again where they moved; files
gone removed; the files a previous question held (its texts written, or left out) copied
again from the disk, or removed where the disk has none; the links made again. The texts
held are then written over it as on a fresh copy (never a hard link: a held text never
reaches the repository). A question holds the copy's lock (`flock`, between processes and
threads alike); one finding it taken is given a fresh copy instead (`tsc_copy`), so two
questions never see each other's texts. The manifest is removed while a question changes
the copy and written once it is whole: a copy left half-made (a crash) is made again.

What git ignores (`ignored`: build output, generated code) is a link to the repository's,
one a folder or file, however many files it holds: read through it, by a relative import or
tsc's `include`, it is the disk's text at the copy's path (its own imports resolve in the
copy). But where tsc reads a file at its real path (a package's built `dist/index.d.ts`
reached through node_modules: TypeScript resolves a package to its realpath), that file is
copied (`opened`, kept in the manifest) and tsc asked again (`read_through`); and a held
text under an ignored folder has its folders made in the copy, never written through a
link. Copies are bounded (`swept`, where a question makes a new one): see its text.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Collection, Container, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from lspd.workspace import tsc_incremental

Stamp = list[int]  # a source file's size, mtime (ns), inode and ctime (ns)
KEEP_DAYS = 14  # a kept copy no question used this long is removed (`swept`)
KEPT_MOST = 16  # the kept copies of a state directory past its most recently used this many
GIT_TIMEOUT_S = 60.0


@dataclass
class Manifest:
    """What a kept copy holds: each file copied from the root (relative to it) with its
    source's stamp when copied (None: a held text, or a file the copy lacks: copied again
    or removed by the next question), the links made (relative to the root; `hidden`: those
    of what git ignores), the files written outside the root (relative to the copy: the
    configurations extended above it), the ignored files copied (`opened`: tsc read them at
    their real path) and the root it copies (`swept` removes it once that is gone)."""

    files: dict[str, Stamp | None] = field(default_factory=dict)
    links: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    opened: list[str] = field(default_factory=list)
    root: str = ""


def folder(base: Path, root: Path, config: Path, top: Path) -> Path:
    """Where the kept copy for `config`'s checks in `root` (laid out from `top`) lives."""
    key = hashlib.blake2b(f"{root}\0{config}\0{top}".encode(), digest_size=12).hexdigest()
    return base / "tsc-kept" / key


def build_info(copy: Path) -> Path:
    """Where tsc keeps its build state of the kept `copy` between questions (beside it, so
    `in_state` never sees it): the next run on the copy checks again only what the files
    moved since affect. tsc compares each file's text hash, never its stamp, so a copy
    brought to another state is read right."""
    return copy.with_suffix(".tsbuildinfo")


@contextmanager
def taken(copy: Path, root: Path) -> Iterator[Manifest | None]:
    """The kept copy of `root` at `copy` held for one question: its manifest (empty where
    none was whole: made again), or None where another question holds it (or `swept` took
    it meanwhile). The manifest given is written back when the question is done with it
    (`copy` whole in its state)."""
    copy.parent.mkdir(parents=True, exist_ok=True)
    with open(copy.with_suffix(".lock"), "a+b") as lock:
        if not _locked(lock, copy.with_suffix(".lock")):
            yield None
            return
        kept = copy.with_suffix(".json")
        manifest = _read(kept)
        kept.unlink(missing_ok=True)
        if not manifest.files and not manifest.links:
            shutil.rmtree(copy, ignore_errors=True)
            tsc_incremental.dropped(build_info(copy))
            manifest = Manifest()
        manifest.root = str(root)
        copy.mkdir(parents=True, exist_ok=True)
        yield manifest
        kept.write_text(json.dumps(manifest.__dict__), encoding="utf-8")


def _locked(lock: BinaryIO, path: Path) -> bool:
    """`lock` (the open `path`) flocked, and still the file at `path`: not one `swept`
    removed while this question opened it."""
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return os.fstat(lock.fileno()).st_ino == path.stat().st_ino
    except (BlockingIOError, FileNotFoundError):
        return False


def _read(kept: Path) -> Manifest:
    try:
        data = json.loads(kept.read_text(encoding="utf-8"))
        files, links, outside = dict(data["files"]), list(data["links"]), list(data["outside"])
        hidden, opened = list(data.get("hidden", [])), list(data.get("opened", []))
        return Manifest(files, links, outside, hidden, opened, str(data.get("root", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return Manifest()


def ignored(root: Path) -> set[str]:
    """What git ignores under `root` and does not track (relative to it; a folder all of
    whose files are ignored as one entry); none where `root` is in no repository."""
    command = ["git", "-C", str(root), "ls-files", "-z", "-o", "-i", "--exclude-standard"]
    try:
        done = subprocess.run(
            [*command, "--directory"], capture_output=True, timeout=GIT_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return set()
    if done.returncode != 0:
        return set()
    return {os.fsdecode(entry).rstrip("/") for entry in done.stdout.split(b"\0") if entry}


def listed(
    root: Path,
    skipped: Container[str],
    linked: Callable[[Path], bool],
    wanted: Callable[[str], bool],
    opened: Collection[str],
) -> tuple[dict[str, Stamp], dict[str, str], set[str]]:
    """`root`'s files `wanted` (by name) with their stamps; its folders linked (a linked
    folder, those `linked` says) and what git ignores (`ignored`: folders, and files
    `wanted`) but the `opened` files and the folders on their way, with where they lead,
    relative to `root`; and which of those links are ignored ones. Folders named in
    `skipped` left out."""
    aside = ignored(root)
    ways = {str(p) for rel in opened for p in Path(rel).parents}
    files: dict[str, Stamp] = {}
    links: dict[str, str] = {}
    hidden: set[str] = set()
    for top, dirs, names in os.walk(root):
        here = Path(top)
        at = here.relative_to(root)
        kept = []
        for name in dirs:
            rel = str(at / name)
            if name in skipped:
                continue
            if (here / name).is_symlink() or linked(here / name):
                links[rel] = os.path.realpath(here / name)
                continue
            if (str(at) in aside or rel in aside) and rel not in ways:
                links[rel] = os.path.realpath(here / name)
                hidden.add(rel)
                continue
            if str(at) in aside:
                aside.add(rel)  # walked on the way to an opened file: ignored still
            kept.append(name)
        dirs[:] = kept
        for name in (n for n in names if wanted(n)):
            rel = str(at / name)
            if (str(at) in aside or rel in aside) and rel not in opened:
                links[rel] = os.path.realpath(here / name)
                hidden.add(rel)
                continue
            with suppress(OSError):
                found = (here / name).stat()
                files[rel] = [found.st_size, found.st_mtime_ns, found.st_ino, found.st_ctime_ns]
    return files, links, hidden


def read_through(root: Path, copy: Path, hidden: Iterable[str], read: Iterable[Path]) -> list[str]:
    """The files tsc `read` (its `--listFiles`) at their real path in `root` through a link
    of `copy` to what git ignores (`hidden`), relative to `root`: to be copied, and tsc
    asked again."""
    real, ways = Path(os.path.realpath(root)), set(hidden)
    found = []
    for path in (p for p in read if not p.is_relative_to(copy)):
        for base in (root, real):
            if path.is_relative_to(base):
                rel = path.relative_to(base)
                if any(str(p) in ways for p in (rel, *rel.parents)):
                    found.append(str(rel))
                break
    return found


def brought(
    manifest: Manifest, root: Path, here: Path, files: dict[str, Stamp], links: dict[str, str]
) -> None:
    """The kept copy (`here`: where `root` is in it) brought to the disk's state: files gone
    or no longer wanted removed, links made again, files whose stamp moved (or held before)
    copied. `manifest` then says what it holds."""
    for rel in manifest.links:
        _removed(here / rel)
    for rel in [rel for rel in manifest.files if rel not in files]:
        (here / rel).unlink(missing_ok=True)
        del manifest.files[rel]
    manifest.links = []
    for rel, target in links.items():
        (here / rel).parent.mkdir(parents=True, exist_ok=True)
        _removed(here / rel)
        os.symlink(target, here / rel)
        manifest.links.append(rel)
    for rel, stamp in files.items():
        if manifest.files.get(rel) == stamp:
            continue
        manifest.files[rel] = None  # until copied whole
        (here / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / rel, here / rel)
        manifest.files[rel] = stamp


def held(manifest: Manifest, rels: Iterator[str]) -> None:
    """The files a question's texts write or leave out (relative to the root): copied again
    (or removed) by the next question."""
    for rel in rels:
        manifest.files[rel] = None


def _removed(path: Path) -> None:
    """A link made before (or the folder of links `tsc_copy` makes for a node_modules
    linking a workspace package) taken away."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def swept(states: Path, now: float | None = None) -> list[Path]:
    """The kept copies under `states` (the folder of every root's state directory) removed
    where their root is gone (never asked again), no question used them for `KEEP_DAYS`
    (made again by the next, at the cost of what tsc reads), or past the `KEPT_MOST` most
    recently used of their state directory (a monorepo's many configurations); one a
    question holds never is. Those removed."""
    now = time.time() if now is None else now
    removed: list[Path] = []
    for kept in states.glob("*/tsc-kept"):
        used: list[tuple[float, Path]] = []
        for lock in kept.glob("*.lock"):
            with suppress(OSError):
                manifest = lock.with_suffix(".json")
                stamp = manifest if manifest.exists() else lock
                used.append((stamp.stat().st_mtime, lock.with_suffix("")))
        used.sort(reverse=True)
        for rank, (when, copy) in enumerate(used):
            root = _read(copy.with_suffix(".json")).root
            if rank < KEPT_MOST and now - when < KEEP_DAYS * 86400 and Path(root or "/").is_dir():
                continue
            if _dropped(copy):
                removed.append(copy)
    return removed


def _dropped(copy: Path) -> bool:
    """The kept `copy` removed (its manifest, folder and lock) unless a question holds it."""
    lock_path = copy.with_suffix(".lock")
    with suppress(OSError), open(lock_path, "rb") as lock:
        if _locked(lock, lock_path):
            copy.with_suffix(".json").unlink(missing_ok=True)
            shutil.rmtree(copy, ignore_errors=True)
            tsc_incremental.dropped(build_info(copy))
            lock_path.unlink(missing_ok=True)
            return True
    return False
