"""Whether a toolchain in use changed on disk since the last question: another
`node_modules/typescript` (npm install typescript@5.x.y, a link moved), packages installed
or removed in a project's environment (mypy or basedpyright upgraded in its .venv).

The watcher does not follow node_modules or virtual environments (`retool`), so nothing
counted such a change: the whole check and every answer kept with it were reused while no
source file changed (after `pip install mypy==2.4.1` in the project's .venv, `lspd check`
said 1.13's answer). Each question looks (`Workspace.refresh_open_documents`): per
toolchain found, a `stat` or two; a change counts as a change of the files (the daemon's
count moves, so nothing made before is reused), and the servers running the old toolchain
are restarted by `retool` when next asked for, also where the label stays (`took`: an
environment's `.pth` edited in place, `mypy_installed.site_mtime`; a typed dependency's
file edited in place, `mypy_installed.typed_stamp`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from lspd.workspace.files import stamp
from lspd.workspace.mypy_installed import environment_of
from lspd.workspace.toolchain import Toolchain, find_typescript

Stamp = tuple[object, ...]


class ToolStamps:
    """The last stamp of each toolchain seen in use."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._seen: dict[object, Stamp] = {}
        self._renewed: set[object] = set()  # (project, kind) whose stamp moved, not yet taken

    def moved(
        self,
        found: Iterable[tuple[Path, Toolchain | None]],
        interpreters: Iterable[Path],
    ) -> list[str]:
        """The toolchains (`found`: each project's, `interpreters`: mypy's) whose stamp
        differs from the last one seen; one seen for the first time is only noted."""
        now: dict[object, Stamp] = {}
        for project, toolchain in found:
            if toolchain is not None and toolchain.origin != "lspd":
                now[(project, toolchain.kind)] = self._stamp(project, toolchain)
        for interpreter in interpreters:
            now[interpreter] = ("python", str(interpreter), environment_of(interpreter))
        moved = [key for key, was in now.items() if self._seen.get(key, was) != was]
        self._seen.update(now)
        self._renewed.update(moved)
        return [str(key) for key in moved]

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
        `interpreters`: mypy's), for a kept result's key: made under other packages, `.pth`
        files or a typed dependency's files, it is not the one to compare with."""
        pythons = {t.path for _, t in found if t is not None and t.kind == "python"}
        pythons.update(interpreters)
        return tuple(f"{python}\0{environment_of(python)}" for python in sorted(pythons))

    def _stamp(self, project: Path, toolchain: Toolchain) -> Stamp:
        if toolchain.kind == "typescript":  # the package found now, and its version's file
            found = toolchain.origin == "project"
            package = find_typescript(project, self.root) if found else toolchain.path
            return ("typescript", str(package), package and stamp(package / "package.json"))
        return ("python", str(toolchain.path), environment_of(toolchain.path))
