"""Whether a toolchain in use changed on disk since the last question: another
`node_modules/typescript` (npm install typescript@5.x.y, a link moved), packages installed
or removed in a project's environment (mypy or basedpyright upgraded in its .venv) or in the
node_modules its TypeScript resolves imports from (`installed`).

The watcher does not follow node_modules or virtual environments (`retool`), so nothing
counted such a change: the whole check and every answer kept with it were reused while no
source file changed (after `pip install mypy==2.4.1` in the project's .venv, `lspd check`
said 1.13's answer). Each question looks (`Workspace.refresh_open_documents`): per
toolchain found, a `stat` or two; a change counts as a change of the files (the daemon's
count moves, so nothing made before is reused), and the servers running the old toolchain
are restarted by `retool` when next asked for, also where the label stays (`took`: an
environment's `.pth` edited in place, `mypy_installed.site_mtime`; a typed dependency's
file edited in place, `mypy_installed.typed_stamp`).

A folder a `.pth` names outside the workspace (a sibling checkout installed editable:
../lib/src) is read by the checkers as the project's own files are, and no watcher sees it:
its `.py` / `.pyi` files (`outside`, at most `OUTSIDE_FILES`) are followed for mypy by the
workspace (an edit there, or a file added, is told as a file change: dmypy reads it),
stamped into the environments' stamps (a result kept under their old texts is not the one
to compare with) and into a project's Python toolchain's stamp (its server restarted:
basedpyright reads no library file again when told it changed). Beyond the bound, no
result kept with such an environment is reused (its stamp is new at each look), and
nothing is followed or restarted: an edit there is not seen by a warm server's or dmypy's
answer.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable
from pathlib import Path

from lspd.workspace.files import stamp
from lspd.workspace.mypy_installed import environment_of, pth_folders, python_files
from lspd.workspace.toolchain import Toolchain
from lspd.workspace.typescript_package import find_typescript

Stamp = tuple[object, ...]
# The most `.py` / `.pyi` files followed below the `.pth` folders outside the workspace of
# one environment: each is stat'ed at every question, and again for a kept result's key
# (2,000 files of a typed package: their listing 18-23 ms, their stats 23-35 ms, at load 12).
OUTSIDE_FILES = 2000


class ToolStamps:
    """The last stamp of each toolchain seen in use."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._seen: dict[object, Stamp] = {}
        self._renewed: set[object] = set()  # (project, kind) whose stamp moved, not yet taken
        # `outside` files' stamps when their environment was first seen (before mypy's run)
        self._first: dict[str, tuple[int, int] | None] = {}

    def moved(
        self,
        found: Iterable[tuple[Path, Toolchain | None]],
        interpreters: Iterable[Path],
    ) -> list[str]:
        """The toolchains (`found`: each project's, `interpreters`: mypy's) whose stamp
        differs from the last one seen; one seen for the first time is only noted."""
        now: dict[object, Stamp] = {}
        for project, toolchain in found:
            # (lspd's own TypeScript resolves the project's packages all the same)
            if toolchain is not None and (toolchain.origin != "lspd" or toolchain.kind != "python"):
                now[(project, toolchain.kind)] = self._stamp(project, toolchain)
        for interpreter in interpreters:
            now[interpreter] = ("python", str(interpreter), environment_of(interpreter))
            if interpreter not in self._seen:
                self._noted(interpreter)
        moved = [key for key, was in now.items() if self._seen.get(key, was) != was]
        self._seen.update(now)
        self._renewed.update(moved)
        return [str(key) for key in moved]

    def _noted(self, interpreter: Path) -> None:
        """The stamps of the environment's `outside` files, as first seen."""
        listed = self._outside(interpreter)
        for path in listed[1] if listed is not None else ():
            self._first.setdefault(path, stamp(Path(path)))

    def took(self, project: Path, toolchain: Toolchain | None) -> bool:
        """Whether `project`'s toolchain moved on disk since its server last took it (`retool`:
        the server restarts). A label tells another version; an environment whose packages
        or `.pth` files changed keeps its label, and its server its resolved imports."""
        if toolchain is None or (project, toolchain.kind) not in self._renewed:
            return False
        self._renewed.discard((project, toolchain.kind))
        return True

    def environments(
        self, found: Iterable[tuple[Path, Toolchain | None]], interpreters: Iterable[Path]
    ) -> tuple[str, ...]:
        """The stamps of the Python environments in use (`found`: each project's toolchain,
        `interpreters`: mypy's) and of the node_modules TypeScript projects resolve from, for
        a kept result's key: made under other packages, `.pth` files or a typed dependency's
        files, it is not the one to compare with."""
        found = list(found)
        pythons = {t.path for _, t in found if t is not None and t.kind == "python"}
        pythons.update(interpreters)
        stamps = tuple(
            f"{python}\0{environment_of(python)}\0{self._outside_stamp(python)}"
            for python in sorted(pythons)
        )
        # TypeScript's: the node_modules its projects resolve from (each folder once, so a
        # project found later that resolves from the same folders keeps the key)
        scripts = [p for p, t in found if t is not None and t.kind == "typescript"]
        folders = sorted({f for p in scripts for f in modules_folders(p, self.root)})
        if not folders:
            return stamps
        digest = hashlib.blake2b(digest_size=16)
        for folder in folders:
            digest.update(f"{folder}\0{packages_stamp(folder)}\0".encode())
        return (*stamps, f"node_modules\0{digest.hexdigest()}")

    def outside(self, interpreters: Iterable[Path]) -> list[tuple[Path, tuple[int, int] | None]]:
        """The `.py` / `.pyi` files below the folders the `.pth` files of the environments of
        `interpreters` name outside the workspace (none of an environment holding more than
        `OUTSIDE_FILES`), each with its stamp when `moved` first saw its environment (mypy's
        daemon made: `mypy_check.daemon_of`); one added since, None (not there then: told
        as a change, a module mypy found missing), else now (`files.stamp`)."""
        found: list[tuple[Path, tuple[int, int] | None]] = []
        for interpreter in interpreters:
            listed = self._outside(interpreter)
            seen = interpreter in self._seen
            for path in listed[1] if listed is not None else ():
                if seen:
                    self._first.setdefault(path, None)
                was = self._first[path] if path in self._first else stamp(Path(path))
                found.append((Path(path), was))
        return found

    def _outside_stamp(self, interpreter: Path, beyond: str | None = None) -> str:
        """A digest of the stamps of the `_outside` folders and files; beyond the bound,
        `beyond`, else one new at each call (nothing made then is kept)."""
        listed = self._outside(interpreter)
        if listed is None:
            return beyond or f"more than {OUTSIDE_FILES} files: {time.time_ns()}"
        digest = hashlib.blake2b(digest_size=16)
        for path in (*listed[0], *listed[1]):
            try:
                found = os.stat(path)
            except OSError:
                continue
            digest.update(f"{path}\0{found.st_mtime_ns}\0{found.st_size}\0".encode())
        return digest.hexdigest()

    def _outside(self, interpreter: Path) -> tuple[list[str], list[str]] | None:
        """The directories and `.py` / `.pyi` files below the environment's `.pth` folders
        outside the workspace (`mypy_installed.python_files`); None beyond `OUTSIDE_FILES`."""
        root = os.path.realpath(self.root)
        directories: list[str] = []
        files: list[str] = []
        for folder in pth_folders(interpreter):  # resolved, as `site` reads them
            if folder == Path(root) or Path(root) in folder.parents:
                continue  # the watcher's
            listed = python_files(str(folder), OUTSIDE_FILES - len(files))
            if listed is None:
                return None
            directories += listed[0]
            files += listed[1]
        return directories, files

    def _stamp(self, project: Path, toolchain: Toolchain) -> Stamp:
        if toolchain.kind == "typescript":  # the package found now, and its version's file
            found = toolchain.origin == "project"
            package = find_typescript(project, self.root) if found else toolchain.path
            version = package and stamp(package / "package.json")
            return ("typescript", str(package), version, installed(project, self.root))
        # basedpyright reads no library file again when told it changed: restarted (`took`)
        outside = self._outside_stamp(toolchain.path, "beyond the bound")
        return ("python", str(toolchain.path), environment_of(toolchain.path), outside)


# What a package manager rewrites in node_modules at each install or removal: npm's hidden
# lockfile, pnpm's and yarn's state files.
INSTALL_MARKS = (".package-lock.json", ".modules.yaml", ".yarn-state.yml", ".yarn-integrity")


def installed(project: Path, root: Path) -> tuple[object, ...]:
    """The stamps of the node_modules folders a TypeScript project's imports resolve from
    (`modules_folders`): a package installed or removed moves one (a few stats a project)."""
    return tuple(packages_stamp(folder) for folder in modules_folders(project, root))


def modules_folders(project: Path, root: Path) -> list[Path]:
    """The node_modules folders, there or not, from the project's own up to the root's."""
    found: list[Path] = []
    for directory in (project, *project.parents):
        found.append(directory / "node_modules")
        if directory == root or root not in directory.parents:
            break
    return found


def packages_stamp(modules: Path) -> tuple[object, ...]:
    """A node_modules folder's stamp, its `@types`' and its package managers' marks'."""
    marks = (stamp(modules / mark) for mark in INSTALL_MARKS)
    return (stamp(modules), stamp(modules / "@types"), *marks)
