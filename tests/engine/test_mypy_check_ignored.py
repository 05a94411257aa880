"""A module git ignores that mypy follows into (setuptools-scm's generated `_version.py`,
imported by the package's `__init__.py`) is checked by mypy as any other: its errors are
the gate's, on every path (the reviewer's find on the followed gate: mypy said
app/_version.py [assignment], exit 1; lspd check "0 errors", exit 0). An ignored file mypy
does not follow into (a `build/` copy, a module nothing imports) stays out. At HEAD an
ignored file is not in git: its disk text is HEAD's state too, so its own edit is none
since HEAD; a tracked edit that breaks it is. Real mypy, real git."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from lspd.engine.mypy_check import held_python, project_files, python_files
from lspd.engine.mypy_project import project_of
from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import preview
from tests.cli.test_hook import edit, hook, said, stop
from tests.cli.test_hook_mypy import blocked_on, mypy_served
from tests.conftest import answer, warm_root
from tests.daemon.support import ThreadDaemon
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

if TYPE_CHECKING:
    from lspd.workspace import Workspace

BAD = 'bad: int = "x"\n'
FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app/main.py"]\nstrict = true\n',
    ".gitignore": ".venv/\napp/_version.py\napp/_scratch.py\nbuild/\n",
    "app/__init__.py": "from app._version import v as v\n",
    "app/consts.py": 'N = "1.0"\n',
    "app/main.py": "import app\n\nX: str = app.v\n",
    "app/_version.py": "from app.consts import N\n\nv: str = N\n" + BAD,
    "app/_scratch.py": BAD,  # ignored, imported by nothing: mypy does not check it
    "build/lib/app/__init__.py": BAD,  # ignored copies mypy never reads
    "build/lib/app/_version.py": BAD,
}
VERSION = ("app/_version.py", 4, "assignment")
MORE = FILES["app/_version.py"] + "more: str = 1\n"  # its own edit: no change since HEAD
MORE_ERROR = ("app/_version.py", 5, "assignment")
BROKEN = "N = 1\n"  # app/consts.py's edit: breaks app/_version.py:3
BROKEN_ERROR = ("app/_version.py", 3, "assignment")
GATE = ["app/__init__.py", "app/_version.py", "app/consts.py", "app/main.py"]


def _mypy(root: Path) -> set[tuple[str, int, str | None]]:
    return {(file, line, code) for file, line, _, code, _ in cli_errors(root)}


def _said(checked: Any) -> set[tuple[str, int, str | None]]:
    return {(r.path, d.line, d.code) for r in checked.results for d in r.diagnostics}


def _since(changes: Any) -> tuple[list[tuple[str, int, str | None]], list[object], int]:
    assert changes is not None
    return [(d.path, d.line, d.code) for d in changes.introduced], changes.fixed, changes.unchanged


def test_one_shot(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    assert _mypy(root) == {VERSION}
    checked = answer(root, check_all)
    assert _said(checked) == {VERSION}
    assert sorted(r.path for r in checked.results) == GATE
    file = answer(root, lambda ws: diagnostics(ws, "app/_version.py"))
    assert [(d.line, d.code) for d in file.diagnostics] == [VERSION[1:]]
    assert answer(root, lambda ws: diagnostics(ws, "app/_scratch.py")).total == 0
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert _since(since) == ([], [], 1)
    (root / "app/_version.py").write_text(MORE)  # no tracked file changed
    assert _mypy(root) == {VERSION, MORE_ERROR}
    assert _said(answer(root, check_all)) == {VERSION, MORE_ERROR}
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert _since(since) == ([], [], 2)  # HEAD's kept result made again with its text
    (root / "app/consts.py").write_text(BROKEN)
    assert _mypy(root) == {VERSION, MORE_ERROR, BROKEN_ERROR}
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert _since(since) == ([BROKEN_ERROR], [], 2)
    file = answer(root, lambda ws: diagnostics(ws, "app/_version.py", baseline="HEAD"))
    assert _since(file.changes) == ([BROKEN_ERROR], [], 2)


def test_daemon(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    version = root / "app/_version.py"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        ws = warm.ws
        assert _said(warm.run(check_all(ws))) == {VERSION}
        since = warm.run(workspace_diagnostics(ws, baseline="HEAD")).changes
        assert _since(since) == ([], [], 1)
        file = warm.run(diagnostics(ws, "app/_version.py"))
        assert [(d.line, d.code) for d in file.diagnostics] == [VERSION[1:]]
        shown = warm.run(preview(ws, [{"path": "app/_version.py", "content": MORE}]))
        assert [(d.path, d.line, d.code) for d in shown.changes.introduced] == [MORE_ERROR]
        shown = warm.run(preview(ws, [{"path": "app/consts.py", "content": BROKEN}]))
        assert [(d.path, d.line, d.code) for d in shown.changes.introduced] == [BROKEN_ERROR]
        version.write_text(MORE)  # no watcher tells it: the check follows its stamp
        assert _mypy(root) == {VERSION, MORE_ERROR}
        assert _said(warm.run(check_all(ws))) == {VERSION, MORE_ERROR}
        file = warm.run(diagnostics(ws, "app/_version.py"))
        assert [(d.line, d.code) for d in file.diagnostics] == [VERSION[1:], MORE_ERROR[1:]]
        since = warm.run(workspace_diagnostics(ws, baseline="HEAD")).changes
        assert _since(since) == ([], [], 2)
        (root / "app/consts.py").write_text(BROKEN)
        since = warm.run(workspace_diagnostics(ws, baseline="HEAD")).changes
        assert _since(since) == ([BROKEN_ERROR], [], 2)
        file = warm.run(diagnostics(ws, "app/_version.py", baseline="HEAD"))
        assert _since(file.changes) == ([BROKEN_ERROR], [], 2)


def test_a_project_of_every_file(tmp_path: Path) -> None:
    """Without `files` lspd gives mypy every file its walk keeps: mypy follows from them
    into the ignored module too, and says its errors (lspd dropped them); not a target."""
    every = {**FILES, "pyproject.toml": "[tool.mypy]\nstrict = true\n"}
    root = committed(project(tmp_path / "p", every))
    targets = [p for p in GATE if p != VERSION[0]]
    assert _mypy_of(root, targets) == {VERSION}
    checked = answer(root, check_all)
    assert _said(checked) == {VERSION}
    assert sorted(r.path for r in checked.results) == GATE

    async def targeted(ws: Workspace) -> list[list[str] | None]:
        mypy = project_of(ws, root / "app/main.py")
        assert mypy is not None
        held = {root / "app/_version.py": MORE}  # a preview's: the same targets
        python = held_python(python_files(ws), held, ws.root)  # as `run_mypy` asks
        return [project_files(ws, mypy)[1], project_files(ws, mypy, python, held)[1]]

    assert answer(root, targeted) == [targets, targets]
    shown = answer(root, lambda ws: preview(ws, [{"path": "app/_version.py", "content": MORE}]))
    assert [(d.path, d.line, d.code) for d in shown.changes.introduced] == [MORE_ERROR]


def _mypy_of(root: Path, targets: list[str]) -> set[tuple[str, int, str | None]]:
    return {(file, line, code) for file, line, _, code, _ in cli_errors(root, *targets)}


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadDaemon]:
    yield from mypy_served(tmp_path, monkeypatch, FILES)


def test_hook_and_stop_gate(served: ThreadDaemon) -> None:
    root = served.daemon.root
    consts = root / "app/consts.py"
    consts.write_text(BROKEN)
    [(path, line, column, code, message)] = [e for e in cli_errors(root) if e[1] == 3]
    found = f"1 new error(s) since HEAD:\n{path}:{line}:{column}: {message} [{code}]"
    assert (path, line, code) == BROKEN_ERROR
    blocked_on(root, consts, found)  # failing before: the hook said nothing
    consts.write_text('N = "1.0"\n')
    assert said(hook("claude-code", edit(consts), root)) is None
    assert said(hook("claude-code", stop(root, active=True), root)) is None
