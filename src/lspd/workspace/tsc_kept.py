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
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Container, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

Stamp = list[int]  # a source file's size, mtime (ns), inode and ctime (ns)


@dataclass
class Manifest:
    """What a kept copy holds: each file copied from the root (relative to it) with its
    source's stamp when copied (None: a held text, or a file the copy lacks: copied again
    or removed by the next question), the links made (relative to the root) and the files
    written outside the root (relative to the copy: the configurations extended above it)."""

    files: dict[str, Stamp | None] = field(default_factory=dict)
    links: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)


def folder(base: Path, root: Path, config: Path, top: Path) -> Path:
    """Where the kept copy for `config`'s checks in `root` (laid out from `top`) lives."""
    key = hashlib.blake2b(f"{root}\0{config}\0{top}".encode(), digest_size=12).hexdigest()
    return base / "tsc-kept" / key


@contextmanager
def taken(copy: Path) -> Iterator[Manifest | None]:
    """The kept copy at `copy` held for one question: its manifest (empty where none was
    whole: made again), or None where another question holds it. The manifest given is
    written back when the question is done with it (`copy` whole in its state)."""
    copy.parent.mkdir(parents=True, exist_ok=True)
    with open(copy.with_suffix(".lock"), "a+b") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield None
            return
        kept = copy.with_suffix(".json")
        manifest = _read(kept)
        kept.unlink(missing_ok=True)
        if not manifest.files and not manifest.links:
            shutil.rmtree(copy, ignore_errors=True)
        copy.mkdir(parents=True, exist_ok=True)
        yield manifest
        kept.write_text(json.dumps(manifest.__dict__), encoding="utf-8")


def _read(kept: Path) -> Manifest:
    try:
        data = json.loads(kept.read_text(encoding="utf-8"))
        return Manifest(dict(data["files"]), list(data["links"]), list(data["outside"]))
    except (OSError, ValueError, KeyError, TypeError):
        return Manifest()


def listed(
    root: Path,
    skipped: Container[str],
    linked: Callable[[Path], bool],
    wanted: Callable[[str], bool],
) -> tuple[dict[str, Stamp], dict[str, str]]:
    """`root`'s files `wanted` (by name) with their stamps, and its folders linked (a linked
    folder, those `linked` says) with where they lead, relative to `root`; folders named in
    `skipped` left out."""
    files: dict[str, Stamp] = {}
    links: dict[str, str] = {}
    for top, dirs, names in os.walk(root):
        here = Path(top)
        kept = []
        for name in dirs:
            if name in skipped:
                continue
            if (here / name).is_symlink() or linked(here / name):
                links[str((here / name).relative_to(root))] = os.path.realpath(here / name)
                continue
            kept.append(name)
        dirs[:] = kept
        for name in names:
            if wanted(name):
                with suppress(OSError):
                    found = (here / name).stat()
                    stamp = [found.st_size, found.st_mtime_ns, found.st_ino, found.st_ctime_ns]
                    files[str((here / name).relative_to(root))] = stamp
    return files, links


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
