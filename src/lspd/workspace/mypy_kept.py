"""mypy's answers run once (`mypy_once`), kept across lspd's processes: the same question
about the same texts, asked again by the next one-shot CLI call, is answered as mypy
answered it, without running it again.

A one-shot `lspd preview` runs mypy for the disk's state and for the proposal's; on httpx
0.28.1 (mypy 1.13, strict, an unused ignore in a core module: mypy 1.x keeps no cache below
an error, so each run re-checks nearly every file) each run costs 9-18 s, and every
preview ran the disk's again though nothing on disk had changed since the last call. A
run-once answer is mypy's by construction: a function of what that run read. So it is
kept under a key of all of it:

- the question (`state`: the targets, every file's text in the copy, its configuration
  among them, the installed distributions' `.dist-info`, the watcher's outside batch);
- where and how it ran (the copy, the project's place in it, mypy's flags), the
  interpreter and its `pyvenv.cfg`, each site-packages entry's mtime (a package added,
  removed or changed at its top, `.dist-info` or not) and every `.pth` file's text;
- the user's mypy configuration files (read where the copy has none) and lspd's
  format.

Where mypy may read files the key cannot see, nothing is kept or reused (`kept_key` is
None): an interpreter outside a virtual environment, or one including the system's
site-packages; a `MYPYPATH`; a configuration naming a path (`mypy_path`, `files`, a
plugin file) outside the copy (absolute, `..`, `~`, a variable) or another interpreter or
typeshed; a symlinked folder leading out of the copy; a `.pth` path outside site-packages
and the project's directory; a `.pth` into the project's directory while a file of it
is held as gone (mypy would find the disk's file there). The configuration judged is the
one mypy reads (`config_read`, its `_find_config_file`): the first of mypy.ini, .mypy.ini,
pyproject.toml, setup.cfg holding its section where it runs, and with mypy 1.15 and later
in each directory up to the copy's root (its `.git` mark), else the user's
(`$XDG_CONFIG_HOME/mypy/config`, `~/.config/mypy/config`, `~/.mypy.ini`); one of the
user's naming any path or plugin is outside the copy by its nature (a `mypy_path` the user
set: `~/stubs`), so nothing is kept.
A typed dependency's file edited in place (its distribution not reinstalled) is in the key
through `state`: dmypy's question holds the environment's `mypy_installed.typed_stamp`.
"""

from __future__ import annotations

import configparser
import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

from lspd.workspace.mypy_config_read import config_read, user_files, walks
from lspd.workspace.mypy_installed import installed_version, site_packages
from lspd.workspace.mypy_mirror import LINK, Place

log = logging.getLogger(__name__)

FORMAT = 1  # the kept file's format and key; another one is never read
KEPT = 8  # answers kept per project and interpreter (the newest)
# A configuration's options naming what mypy reads beyond the copy's files.
_PATHS = ("mypy_path", "files", "plugins")
_ELSEWHERE = ("custom_typeshed_dir", "python_executable")
_SPLIT = re.compile(r"[,:]")
Ran = tuple[int, str, str]  # mypy's exit status, stdout, stderr


def state_of(parts: list[str], texts: dict[str, bytes]) -> bytes:
    """A digest of what one check is asked about: `parts` (its targets, what it reads
    beyond the texts) and every file's text."""
    digest = hashlib.blake2b(digest_size=20)
    for part in [*parts, "\0"]:
        digest.update(part.encode() + b"\0")
    for relative in sorted(texts):
        digest.update(relative.encode() + b"\0")
        digest.update(hashlib.blake2b(texts[relative], digest_size=16).digest())
    return digest.digest()


def kept_key(
    state: bytes,
    flags: list[str],
    texts: dict[str, bytes],
    place: Place,
    interpreter: Path,
    seen: Callable[[], list[Path]],
) -> str | None:
    """The key of a run-once answer of `state` (`state_of`) asked with `flags`, the copy at
    `place` holding `texts` (`seen`: the Python files of the project's directory on disk,
    walked), or None when mypy may read what the key cannot see (the module's docstring)."""
    if os.environ.get("MYPYPATH"):
        return None
    if not _confined(texts, place.inside, installed_version(interpreter)):
        return None
    if any(n.endswith(LINK) and os.path.isabs(t.decode()) for n, t in texts.items()):
        return None  # a symlinked folder leading out of the copy: files the key cannot see
    venv = _venv(interpreter)
    if venv is None:
        return None
    sites = site_packages(interpreter)
    pth = _pth(sites, place.base)
    if pth is None:
        return None
    digest, into_project = pth
    if into_project and any(p.relative_to(place.base).as_posix() not in texts for p in seen()):
        return None
    # the copy's path too: mypy names a file outside its working directory by it
    parts = [str(FORMAT), str(place.copy), str(place.base), place.inside, digest]
    parts += [os.path.realpath(interpreter), venv, *flags]
    parts += [_entries(sites), _user_configs(), state.hex()]
    return state_of(parts, {}).hex()


def _venv(interpreter: Path) -> str | None:
    """The environment's `pyvenv.cfg`, or None where mypy also reads packages beyond its
    site-packages: no virtual environment (the system's, the user's site-packages), or one
    including the system's."""
    try:
        text = (interpreter.parent.parent / "pyvenv.cfg").read_text("utf-8", "replace")
    except OSError:
        return None
    if re.search(r"^\s*include-system-site-packages\s*=\s*true", text, re.I | re.M):
        return None
    return text


def _confined(texts: dict[str, bytes], inside: str, version: tuple[int, ...] | None) -> bool:
    """Whether the configuration mypy `version` reads (`config_read`; either search where the
    version is not known) names no path outside the copy: its paths relative and below
    it, no other interpreter or typeshed; the user's none at all. One that does not parse:
    not (mypy says what is wrong, or reads the next one)."""
    for walk in walks(version):
        try:
            found = config_read(texts, inside, walk)
        except (tomllib.TOMLDecodeError, configparser.Error, OSError, UnicodeError):
            return False
        if found is None:
            continue
        sections, users = found
        for section in sections:
            if any(name in section for name in _ELSEWHERE):
                return False
            for name in _PATHS:
                value = section.get(name)
                entries = value if isinstance(value, list) else _SPLIT.split(str(value or ""))
                if users and any(str(entry).strip() for entry in entries):
                    return False
                if not all(_below(str(entry).strip()) for entry in entries):
                    return False
    return True


def _below(entry: str) -> bool:
    """A path as written that stays in the copy (relative, no `..`, no `~` or variable)."""
    if entry.startswith(("/", "~", "\\")) or "$" in entry:
        return False
    return ".." not in re.split(r"[/\\]", entry)


def _pth(sites: list[Path], base: Path) -> tuple[str, bool] | None:
    """A digest of the environment's `.pth` files and whether one puts the project's
    directory (or a directory in it) on mypy's path; None when one puts another directory
    there (outside site-packages)."""
    digest = hashlib.blake2b(digest_size=16)
    into_project = False
    for site in sites:
        for pth in sorted(site.glob("*.pth")):
            try:
                text = pth.read_bytes()
            except OSError:
                return None
            digest.update(pth.name.encode() + b"\0" + text + b"\0")
            for line in text.decode("utf-8", "replace").splitlines():
                line = line.strip()
                if not line or line.startswith(("#", "import ", "import\t")):
                    continue
                target = Path(os.path.normpath(site / line))
                if target.is_relative_to(base):
                    into_project = True
                elif not target.is_relative_to(site):
                    return None
    return digest.hexdigest(), into_project


def _entries(sites: list[Path]) -> str:
    """A digest of site-packages' entries, each one's name and mtime (a package added, removed
    or changed at its top, `.dist-info` or not: an egg, a bare module, one written there by
    hand), and of each directory's own."""
    digest = hashlib.blake2b(digest_size=16)
    for site in sites:
        with contextlib.suppress(OSError), os.scandir(site) as entries:
            digest.update(f"{site}\0{site.stat().st_mtime_ns}\0".encode())
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name == "__pycache__":  # byte code written by any import: not read
                    continue
                with contextlib.suppress(OSError):
                    digest.update(f"{entry.name}\0{entry.stat().st_mtime_ns}\0".encode())
    return digest.hexdigest()


def _user_configs() -> str:
    """The user's mypy configuration files (mypy reads one where the copy has none)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in user_files():
        with contextlib.suppress(OSError):
            digest.update(f"{path}\0".encode() + path.read_bytes() + b"\0")
    return digest.hexdigest()


class Kept:
    """The run-once answers of one project and interpreter, a file each in a directory of
    its state, named by its key (shared by every lspd process on it; each written whole: a
    rename), the newest `KEPT` kept: a question reads its own answer alone."""

    def __init__(self, directory: Path, interpreter: Path) -> None:
        self.directory = directory
        self.interpreter = interpreter

    def key(
        self,
        state: bytes,
        flags: list[str],
        texts: dict[str, bytes],
        place: Place,
        seen: Callable[[], list[Path]],
    ) -> str | None:
        """`kept_key` with this environment's interpreter."""
        return kept_key(state, flags, texts, place, self.interpreter, seen)

    def get(self, key: str | None) -> Ran | None:
        """mypy's answer kept for `key`, or None."""
        if key is None:
            return None
        path = self.directory / f"{key}.json"
        try:
            kept = json.loads(path.read_text("utf-8"))
            if kept["format"] != FORMAT or kept["key"] != key:
                raise ValueError("another format or key")
            return int(kept["status"]), str(kept["out"]), str(kept["err"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError) as exc:
            log.warning("kept mypy answer %s not trusted (%s): mypy runs", path, exc)
            return None

    def put(self, key: str | None, ran: Ran) -> None:
        """Keep mypy's answer for `key` (the newest `KEPT`)."""
        if key is None:
            return
        status, out, err = ran
        path = self.directory / f"{key}.json"
        partial = path.with_suffix(f".{os.getpid()}.part")
        answer = {"format": FORMAT, "key": key, "status": status, "out": out, "err": err}
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            partial.write_text(json.dumps(answer), "utf-8")
            partial.replace(path)
            kept = sorted(self.directory.glob("*.json"), key=_mtime, reverse=True)
            for old in kept[KEPT:]:
                old.unlink(missing_ok=True)
        except OSError as exc:  # a full disk: the next call runs mypy again
            log.warning("mypy's answer not kept in %s: %s", self.directory, exc)
        finally:
            partial.unlink(missing_ok=True)

    def clear(self) -> None:
        """Every answer dropped (what a re-check costs is measured: bench/mypy.py)."""
        shutil.rmtree(self.directory, ignore_errors=True)


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0
