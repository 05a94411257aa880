"""What a project's environment holds, read from its site-packages without running it: the
mypy it would import (its version, from its `.dist-info`), and what changes when packages
come and go (the directory's mtime, each distribution's `.dist-info`) or when a file the
checkers read is edited in place (`typed_stamp`).

Asking `mypy --version` cost a cold check 0.3-0.9 s (a Python start and mypy's import, on
a loaded machine) before dmypy even started; the metadata is one small read.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from collections.abc import Callable
from pathlib import Path

_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")
_METADATA_VERSION = re.compile(r"^Version:\s*(\S+)", re.M)


def site_packages(interpreter: Path) -> list[Path]:
    """The site-packages directories of the environment `interpreter` runs in."""
    return sorted(interpreter.parent.parent.glob("lib/python*/site-packages"))


def installed_version(interpreter: Path) -> tuple[int, ...] | None:
    """The version of the mypy installed in the environment's own site-packages (what its
    interpreter imports first), or None when it has none there (asked by running it)."""
    version = distribution_version(interpreter, "mypy")
    found = None if version is None else _VERSION.match(version)
    return None if found is None else tuple(int(part or 0) for part in found.groups())


def distribution_version(interpreter: Path, name: str) -> str | None:
    """The version of the distribution `name` (e.g. basedpyright) installed in the
    environment's own site-packages, from its `.dist-info`'s METADATA; None without one."""
    for site in site_packages(interpreter):
        for info in sorted(site.glob(f"{name}-*.dist-info")):
            try:
                found = _METADATA_VERSION.search((info / "METADATA").read_text("utf-8", "replace"))
            except OSError:
                continue
            if found is not None:
                return found.group(1)
    return None


def installed_digest(interpreter: Path) -> str:
    """A digest of the environment's installed distributions: each `.dist-info`'s name
    and mtime (an upgrade writes a new one)."""
    digest = hashlib.blake2b(digest_size=16)
    for site in site_packages(interpreter):
        with contextlib.suppress(OSError), os.scandir(site) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.endswith(".dist-info"):
                    digest.update(f"{entry.name}\0{entry.stat().st_mtime_ns}\0".encode())
    return digest.hexdigest()


def site_mtime(interpreter: Path) -> float | None:
    """The mtime of the environment's site-packages, or of a `.pth` file in it when newer:
    changes as packages come and go, and as a `.pth` is edited in place (an editable install
    repointed: the directory's mtime stays, and the imports resolve elsewhere). The `.pth`
    files are listed again only when the directory's mtime moved (one comes or goes): a stat
    each otherwise."""
    for site in site_packages(interpreter):
        try:
            mtime = site.stat().st_mtime
        except OSError:
            return None
        known = _PTH.get(site)
        if known is None or known[0] != mtime:
            known = _PTH[site] = (mtime, tuple(sorted(str(p) for p in site.glob("*.pth"))))
        for pth in known[1]:
            with contextlib.suppress(OSError):
                mtime = max(mtime, os.stat(pth).st_mtime)
        return mtime
    return None


def environment_of(interpreter: Path) -> tuple[float | None, str]:
    """What the checkers read in the environment, stamped: `site_mtime` and `typed_stamp`."""
    return site_mtime(interpreter), typed_stamp(interpreter)


def typed_stamp(interpreter: Path) -> str:
    """A digest of the stamps (mtime, size, inode) of every `.py` and `.pyi` file mypy may
    read from the environment's site-packages: its bare modules, and every file of a typed
    package (`py.typed` at its top, or a `-stubs` one) but the toolchain's own (`_TOOLS`:
    mypy's typeshed changes with its `.dist-info`). An installed dependency edited in place
    (no reinstall: the directories' mtimes stay) moves it, and so does its restoring. The
    directories are listed again only where their mtime moved: a stat per file and
    directory otherwise."""
    digest = hashlib.blake2b(digest_size=16)
    for site in site_packages(interpreter):
        _walked(digest, str(site), _typed)
    return digest.hexdigest()


def _walked(
    digest: hashlib.blake2b, folder: str, descends: Callable[[str, str], bool] | None = None
) -> None:
    """Every `.py` and `.pyi` file of `folder` stamped into `digest`, and every one below
    the subdirectories `descends` admits (all where None)."""
    listed = _listed(folder)
    if listed is None:
        return
    folders, files = listed
    for name in files:
        if name.endswith((".py", ".pyi")):
            _stamped(digest, os.path.join(folder, name))
    for name in folders:
        if descends is None or descends(folder, name):
            _walked(digest, os.path.join(folder, name))


def _typed(site: str, name: str) -> bool:
    """Whether the directory `name` of `site` is a typed package mypy may read, not the
    toolchain's own (`_TOOLS`)."""
    if name in _TOOLS:
        return False
    return (
        name.endswith("-stubs") or "py.typed" in (_listed(os.path.join(site, name)) or ((), ()))[1]
    )


def _stamped(digest: hashlib.blake2b, path: str) -> None:
    try:
        found = os.stat(path)
    except OSError:
        return
    digest.update(f"{path}\0{found.st_mtime_ns}\0{found.st_size}\0{found.st_ino}\0".encode())


def _listed(folder: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """`folder`'s subdirectories (byte code's aside) and files, listed again only when its
    mtime moved; None when it is not there."""
    try:
        mtime = os.stat(folder).st_mtime_ns
    except OSError:
        return None
    known = _LISTED.get(folder)
    if known is not None and known[0] == mtime:
        return known[1]
    folders, files = [], []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            with contextlib.suppress(OSError):
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        folders.append(entry.name)
                else:
                    files.append(entry.name)
    listed = (tuple(sorted(folders)), tuple(sorted(files)))
    _LISTED[folder] = (mtime, listed)
    return listed


# Typed packages of the toolchain, not of the project's dependencies: mypy and mypyc (1,100
# files, its typeshed among them), pip (500); stamping them cost `typed_stamp` 90% of its time.
_TOOLS = frozenset({"mypy", "mypyc", "pip"})
# Each site-packages' `.pth` files, listed at its mtime (`site_mtime`).
_PTH: dict[Path, tuple[float, tuple[str, ...]]] = {}
# The directories `typed_stamp` lists, at their mtime: subdirectories and files.
_LISTED: dict[str, tuple[int, tuple[tuple[str, ...], tuple[str, ...]]]] = {}


def pth_folders(interpreter: Path) -> list[Path]:
    """The folders the environment's `.pth` files put on its `sys.path` (an editable
    install's `src/`: hatchling's `_editable_impl_<name>.pth`, setuptools' and uv's
    `__editable__.<name>.pth` naming a path), as `site` reads them: each line that is no
    comment, no `import` line and names a folder, relative to its site-packages."""
    found: list[Path] = []
    for site in site_packages(interpreter):
        for pth in sorted(site.glob("*.pth")):
            try:
                lines = pth.read_text("utf-8", "replace").splitlines()
            except OSError:
                continue
            for line in lines:
                line = line.rstrip()
                if not line or line.startswith(("#", "import ", "import\t")):
                    continue
                folder = Path(os.path.realpath(site / line))
                if folder.is_dir() and folder not in found:
                    found.append(folder)
    return found


def pth_stamps(interpreter: Path | None) -> tuple[tuple[str, int, int], ...]:
    """The environment's `.pth` files (what `pth_folders` reads) by path, mtime and size:
    an editable install added, removed or pointed elsewhere changes them."""
    found: list[tuple[str, int, int]] = []
    for site in site_packages(interpreter) if interpreter is not None else []:
        for pth in sorted(site.glob("*.pth")):
            try:
                stat = pth.stat()
            except OSError:
                continue
            found.append((str(pth), stat.st_mtime_ns, stat.st_size))
    return tuple(found)


def python_files(folder: str, most: int) -> tuple[list[str], list[str]] | None:
    """What mypy may read below a folder on its package path (a `.pth` folder): the
    directories (`folder` first; byte code's aside) and `.py` / `.pyi` files that
    `typed_stamp` stamps in a site-packages (its bare modules, every file of a typed
    package but the toolchain's), each directory listed again only where its mtime moved;
    None when there are more than `most` files."""
    directories: list[str] = []
    found: list[str] = []
    folders = [folder]
    while folders:
        at = folders.pop()
        listed = _listed(at)
        if listed is None:
            continue
        directories.append(at)
        found += [os.path.join(at, n) for n in listed[1] if n.endswith((".py", ".pyi"))]
        if len(found) > most:
            return None
        below = [n for n in listed[0] if at != folder or _typed(folder, n)]
        folders += [os.path.join(at, name) for name in reversed(below)]
    return directories, found
