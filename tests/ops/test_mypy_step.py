"""A mypy-gated project gets mypy's answers from every diagnostics question: the whole
check (its scope: mypy's `files`), one file, unsaved content, a preview, a baseline; a
project configured for both checkers gets both, each diagnostic naming its own; with no
mypy in its environment, one line and nothing checked by another checker. On a real mypy
in a real environment, and on rich's release, whose errors must be its CI's."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from lspd.engine.mypy_step import ONCE
from lspd.ops.changes import diagnose
from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.models import DiagnosticsResult
from lspd.ops.preview import preview
from lspd.ops.state import status
from lspd.ops.state_models import StatusResult
from lspd.workspace import Workspace
from lspd.workspace.dmypy import MypyMissing
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import STRICT, cli_errors, environment, project, rich_release
from tests.workspace.test_mypy_once import AREA_EDITED, IGNORING

WHY = "mypy: pyproject.toml [tool.mypy]"


def ours(results: list[DiagnosticsResult]) -> list[tuple[str, int, int, str | None, str]]:
    return sorted(
        (r.path, d.line, d.column, d.code, d.message)
        for r in results
        for d in r.diagnostics
        if d.severity == "error"
    )


def test_the_whole_check_is_mypys_in_its_scope(tmp_path: Path) -> None:
    root = project(tmp_path / "p", {**STRICT, "scripts/tool.py": "x: int = ''\n"})

    async def ask(ws: Workspace) -> tuple[Any, DiagnosticsResult, Any]:
        return (
            await check_all(ws),
            await diagnostics(ws, "scripts/tool.py"),
            await check_all(ws, all=True),
        )

    checked, outside, every = answer(root, ask)
    said = WHY + "; this file is outside the files mypy checks: mypy did not check it"
    assert (outside.total, outside.checker) == (0, said)
    # `check --all`: every source file, the one mypy does not check said so (the mixed
    # examiner's: counted as checked, clean, nothing said)
    tool = next(r for r in every.results if r.path == "scripts/tool.py")
    assert (tool.total, tool.checker) == (0, said)
    assert {r.checker for r in every.results if r.path != "scripts/tool.py"} == {WHY}
    assert ours(checked.results) == sorted(cli_errors(root))
    assert {r.path for r in checked.results} == {"app/__init__.py", "app/main.py", "app/shapes.py"}
    assert {(r.server, r.checker) for r in checked.results} == {("mypy", WHY)}
    assert checked.scope is not None
    assert [(p.config, p.note) for p in checked.scope.projects] == [
        ("pyproject.toml [tool.mypy]", "files = app")
    ]
    assert {d.source for r in checked.results for d in r.diagnostics} == {"mypy"}


def test_one_file_and_its_unsaved_content(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)

    async def ask(ws: Workspace) -> tuple[DiagnosticsResult, DiagnosticsResult, StatusResult]:
        disk = await diagnostics(ws, "app/main.py")
        fixed = (root / "app/main.py").read_text().replace('"three"', "3")
        return disk, await diagnostics(ws, "app/main.py", content=fixed), status(ws)

    disk, unsaved, now = answer(root, ask)
    (daemon,) = [s for s in now.servers if s.server == "dmypy"]
    assert (daemon.state, daemon.checker, daemon.toolchain) == ("ready", WHY, disk.toolchain)
    assert [d.code for d in disk.diagnostics] == ["assignment", "import-not-found"]
    assert (disk.server, disk.checker) == ("mypy", WHY)
    assert disk.toolchain == "mypy 2.4.1 (.venv/bin/python)"
    assert disk.diagnostics[1].notes == [
        'Did you mean "attrs"?',
        "See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports",
    ]
    assert [d.code for d in unsaved.diagnostics] == ["import-not-found"]


def test_a_preview_and_a_baseline_are_judged_by_mypy(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", STRICT))
    shapes = root / "app" / "shapes.py"
    keyword_only = shapes.read_text().replace("def area(width", "def area(*, width")

    async def ask(ws: Workspace) -> tuple[Any, Any]:
        previewed = await preview(ws, [{"path": "app/shapes.py", "content": keyword_only}])
        shapes.write_text(keyword_only)
        return previewed, await workspace_diagnostics(ws, baseline="HEAD")

    previewed, since = answer(root, ask)
    broken = [(d.path, d.line, d.code) for d in previewed.changes.introduced]
    assert broken == [("app/main.py", 5, "call-arg")]  # too many positional arguments
    assert [(d.path, d.line, d.code) for d in since.changes.introduced] == broken
    assert {d.source for d in since.changes.introduced} == {"mypy"}


def test_both_configured_both_answer_each_naming_its_checker(tmp_path: Path) -> None:
    files = {**STRICT, "pyproject.toml": STRICT["pyproject.toml"] + "[tool.pyright]\n"}
    root = project(tmp_path / "p", files)
    found = answer(root, lambda ws: diagnostics(ws, "app/main.py"))
    sources = {(d.source, d.line) for d in found.diagnostics}
    assert ("mypy", 8) in sources and ("basedpyright", 8) in sources
    assert found.checker == "mypy and basedpyright: pyproject.toml [tool.mypy] and " + (
        "pyproject.toml [tool.pyright]"
    )


def test_both_configured_a_one_shot_check_gives_each_mypy_error_once(tmp_path: Path) -> None:
    """A one-shot whole check (no watcher: nothing kept) asks a file both judge of
    basedpyright one by one; mypy's errors are the mypy step's, not added there again (each
    came twice: pydantic's tests/typechecking, 3 errors shown as 6)."""
    files = {**STRICT, "pyproject.toml": STRICT["pyproject.toml"] + "[tool.pyright]\n"}
    root = project(tmp_path / "p", files)
    checked = answer(root, check_all)
    mypys = [r for r in checked.results for d in r.diagnostics if d.source == "mypy"]
    assert len(mypys) == len(cli_errors(root)) == 3
    assert sorted(
        (r.path, d.line, d.column, d.code, d.message)
        for r in checked.results
        for d in r.diagnostics
        if d.source == "mypy"
    ) == sorted(cli_errors(root))


def test_both_configured_a_preview_holds_the_texts_for_both(tmp_path: Path) -> None:
    """basedpyright is given the proposed text of a file mypy's `files` cover too."""
    files = {**STRICT, "pyproject.toml": STRICT["pyproject.toml"] + "[tool.pyright]\n"}
    root = project(tmp_path / "p", files)
    keyword_only = (
        (root / "app/shapes.py").read_text().replace("def area(width", "def area(*, width")
    )
    change = [{"path": "app/shapes.py", "content": keyword_only}]
    previewed = answer(root, lambda ws: preview(ws, change))
    introduced = {(d.path, d.line, d.code, d.source) for d in previewed.changes.introduced}
    assert ("app/main.py", 5, "call-arg", "mypy") in introduced
    assert ("app/main.py", 5, "reportCallIssue", "basedpyright") in introduced


def test_no_mypy_is_one_line_and_nothing_else_checks(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT, environment("no-mypy"))
    with pytest.raises(MypyMissing, match=r"has no mypy: install it there \(.*pip install mypy\)"):
        answer(root, check_all)


def test_richs_release_gets_exactly_the_errors_of_its_ci(tmp_path: Path) -> None:
    root = project(rich_release(tmp_path), {})  # its .venv: mypy, markdown-it-py, pygments
    checked = answer(root, check_all)
    assert ours(checked.results) == sorted(cli_errors(root))
    assert len(checked.results) == 78  # files = ["rich"]


def test_the_copy_holds_what_the_projects_mypy_sees(tmp_path: Path) -> None:
    """A gitignored generated module (setuptools-scm's `_version.py`) is imported fine, and a
    `mypy_path` beside the project (`../shared`) is reached: mypy's errors, its CI's."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "helper.py").write_text("def twice(x: int) -> int:\n    return 2 * x\n")
    files = {
        "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nmypy_path = "../shared"\nstrict = true\n',
        ".gitignore": "app/_version.py\n",
        "app/__init__.py": "",
        "app/_version.py": 'version = "1.0"\n',
        "app/main.py": (
            "from app._version import version\n"
            "from helper import twice\n"
            "\n"
            "label: str = version\n"
            "count: str = twice(2)\n"
        ),
    }
    root = project(tmp_path / "p", files)
    found = answer(root, lambda ws: diagnostics(ws, "app/main.py"))
    shown = [(d.line, d.code, d.message) for d in found.diagnostics]
    expected = [(line, code, message) for _, line, _, code, message in cli_errors(root)]
    assert shown == expected == [
        (5, "assignment", 'Incompatible types in assignment (expression has type "int", '
         'variable has type "str")')
    ]  # fmt: skip


PLUGIN = """from collections.abc import Callable

from mypy.plugin import FunctionContext, Plugin
from mypy.types import Type


def _forbidden(ctx: FunctionContext) -> Type:
    ctx.api.fail("forbidden() is not to be called", ctx.context)
    return ctx.default_return_type


class Forbid(Plugin):
    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return _forbidden if fullname == "app.main.forbidden" else None


def entry(version: str) -> type[Plugin]:
    return Forbid
"""


def test_a_plugin_file_beside_the_project_is_found_from_the_copy(tmp_path: Path) -> None:
    """`plugins = ../shared/forbid.py:entry`: mypy finds it from the configuration's
    directory, which for lspd's dmypy is its copy's; the copy's configuration names it
    absolute, and its error is the project's mypy's."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "forbid.py").write_text(PLUGIN)
    files = {
        "mypy.ini": "[mypy]\nfiles = app\nplugins = ../shared/forbid.py:entry\n",
        "app/__init__.py": "",
        "app/main.py": "def forbidden() -> int:\n    return 1\n\n\ncount = forbidden()\n",
    }
    root = project(tmp_path / "p", files)
    found = answer(root, lambda ws: diagnostics(ws, "app/main.py"))
    shown = [(d.line, d.code, d.message) for d in found.diagnostics]
    expected = [(line, code, message) for _, line, _, code, message in cli_errors(root)]
    assert shown == expected == [(5, "misc", "forbidden() is not to be called")]


def test_a_sibling_package_edited_is_asked_again(tmp_path: Path) -> None:
    """A package beside the project in the workspace (`mypy_path = "../shared"`), edited:
    the same project texts are asked again, not answered from before."""
    shared = tmp_path / "shared" / "helper.py"
    shared.parent.mkdir()
    shared.write_text("def twice(x: int) -> int:\n    return 2 * x\n")
    files = {
        "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nmypy_path = "../shared"\n',
        "app/__init__.py": "",
        "app/main.py": "from helper import twice\n\ncount: str = twice(2)\n",
    }
    project(tmp_path / "p", files)

    async def ask(ws: Workspace) -> list[list[str | None]]:
        assert await ws.watch()
        before = await diagnostics(ws, "p/app/main.py")
        shared.write_text("def twice(x: int) -> str:\n    return str(2 * x)\n")
        for _ in range(500):  # the watcher's batch with the edit
            if shared.resolve() in ws.changed_at:
                break
            await asyncio.sleep(0.02)
        after = await diagnostics(ws, "p/app/main.py")
        return [[d.code for d in r.diagnostics] for r in (before, after)]

    assert answer(tmp_path.resolve(), ask) == [["assignment"], []]


def test_unused_ignores_are_mypys_after_an_edit_in_a_preview_a_check_and_a_baseline(
    tmp_path: Path,
) -> None:
    """A project reporting unused ignores, with ignore comments (`mypy_once`): the edit
    makes main's ignore unused and used's used; each answer is one-shot mypy's."""
    root = committed(project(tmp_path / "p", IGNORING))

    async def ask(ws: Workspace) -> tuple[Any, Any, Any, StatusResult]:
        previewed = await preview(ws, [{"path": "app/shapes.py", "content": AREA_EDITED}])
        (root / "app" / "shapes.py").write_text(AREA_EDITED)
        checked = await check_all(ws)
        return previewed, checked, await workspace_diagnostics(ws, baseline="HEAD"), status(ws)

    previewed, checked, since, now = answer(root, ask)
    (row,) = [s for s in now.servers if s.language == "python" and s.checker]
    # A workspace without a watcher (a one-shot question) runs mypy plainly: the forking
    # holder (mypy_fork) is a daemon's (tests/workspace/test_mypy_fork.py).
    assert (row.server, row.state, row.pid) == ("mypy", "ready", None)
    assert ours(checked.results) == sorted(cli_errors(root))
    assert {r.checker for r in checked.results} == {WHY + ONCE}
    made = [(d.path, d.line, d.code) for d in previewed.changes.introduced]
    assert made == [("app/main.py", 5, "unused-ignore")]
    assert [(d.path, d.line, d.code) for d in since.changes.introduced] == made
    assert [(d.path, d.line) for d in since.changes.fixed] == [("app/used.py", 5)]


def test_each_answer_names_the_run_that_made_it(tmp_path: Path) -> None:
    """`checker` is the answer's own (`MypyRun.once`), not the daemon's last run: a held
    state with no ignore left is dmypy's, the disk's after it mypy's run once again (from
    the answers kept), and a preview's or a baseline's states (`changes.diagnose`) say so."""
    root = project(tmp_path / "p", IGNORING)
    main, other = root / "app" / "main.py", root / "app" / "other.py"
    # Every ignore comment gone: nothing for dmypy to lose.
    bare = {p: p.read_text().split("  # type: ignore")[0] + "\n" for p in (main, other)}
    bare[root / "app" / "used.py"] = "def h() -> int:\n    return 1\n"

    async def ask(ws: Workspace) -> list[set[str | None]]:
        disk = await diagnose(ws, [main], {})
        held = await diagnose(ws, [main], dict(bare))
        again = await diagnose(ws, [main], {})
        return [{r.checker for r in d.results} for d in (disk, held, again)]

    disk, held, again = answer(root, ask)
    assert disk == again == {WHY + ONCE}
    assert held == {WHY}
