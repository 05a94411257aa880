"""A file mypy and basedpyright both judge (mypy's `files`, pyright's `include`) importing a
module mypy alone follows into: after the module's signature changes, a preview and `check
--baseline HEAD` say both checkers' new errors in the importer, as their CLIs do. Before,
neither said any: HEAD's state (the changed module's old text held) asked no file
basedpyright judges beside mypy, and basedpyright was not given the held text of a file
mypy alone judges, so the work tree's errors stood for HEAD's (attrs' typing_tests after
`evolve`'s stub changed). Real mypy and basedpyright."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Changes
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import cli
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

IMPL = "def evolve(inst: int) -> int:\n    return inst\n"
FILES = {
    "pyproject.toml": '[tool.pyright]\ninclude = ["main.py"]\n\n[tool.mypy]\nfiles = ["main.py"]\n',
    "main.py": "import pkg\n\nx: int = pkg.evolve(1)\n",
    "pkg/__init__.py": "from pkg._impl import evolve as evolve\n",
    "pkg/_impl.py": IMPL,
}
KEYWORD = IMPL.replace("(inst", "(*, inst")
BOTH = [("main.py", 3, "call-arg"), ("main.py", 3, "reportCallIssue")]


def errors(changes: Changes | None) -> list[tuple[str | None, int, str | None]]:
    assert changes is not None
    return sorted((d.path, d.line, d.code) for d in changes.introduced if d.severity == "error")


async def since_head(ws: Workspace) -> Changes | None:
    return (await workspace_diagnostics(ws, baseline="HEAD")).changes


def test_both_checkers_errors_of_an_importer_are_introduced(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    change = [{"path": "pkg/_impl.py", "content": KEYWORD}]
    previewed = answer(root, lambda ws: preview(ws, change))
    written(root, {"pkg/_impl.py": KEYWORD})
    mypy = [(f, line, code) for f, line, _, code, _ in cli_errors(root)]
    pyright = [
        (r[0], r[1], r[3])
        for r in cli(root)
        if r[0] == "main.py" and r[3] != "reportUnknownVariableType"  # its warning beside
    ]
    assert sorted(mypy + pyright) == BOTH
    assert errors(previewed.changes) == BOTH
    assert errors(answer(root, since_head)) == BOTH
