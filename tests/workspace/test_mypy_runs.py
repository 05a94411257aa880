"""A gate running mypy more than once with other options is each of those runs
(`workspace/mypy_runs.py`): returns' workflow (`mypy --enable-error-code=unused-awaitable
returns`, then `mypy docs tests`) and trio's tox (`mypy --platform linux`, then `win32`)
had their second run dropped, its errors unsaid. Each run is the real mypy's, its own
dmypy; the answer is every run's errors, as the gate fails on any."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from lspd.workspace.mypy_scripts import ScriptMypy, configured_runs, script_runs
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

AWAITED = (
    "import asyncio\n\n\nasync def later() -> asyncio.Task[None]:\n"
    "    return asyncio.create_task(asyncio.sleep(0))\n\n\n"
    "async def run() -> None:\n    await later()\n"
)
RETURNS = {
    "pyproject.toml": "[tool.mypy]\nwarn_unused_ignores = true\n",
    ".github/workflows/test.yml": (
        "jobs:\n  test:\n    steps:\n"
        "    - run: |\n        poetry run mypy --enable-error-code=unused-awaitable lib\n"
        "        poetry run mypy tests\n"
    ),
    "lib/__init__.py": "",
    "lib/tasks.py": AWAITED,
    "tests/__init__.py": "",
    "tests/test_tasks.py": (
        "from lib.tasks import run\n\n\nasync def test_run() -> None:\n"
        '    await run()\n    count: int = "three"\n'
    ),
}


def _found(root: Path) -> list[tuple[str | None, int, str | None]]:
    return sorted((d.path, d.line, d.code) for d in answer(root, workspace_diagnostics).diagnostics)


def _said(root: Path, *args: str) -> list[tuple[str, int, str | None]]:
    return sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, *args))


def test_a_scripts_second_run_with_other_options_is_the_gates_too(tmp_path: Path) -> None:
    root = project(tmp_path / "p", RETURNS)
    first = _said(root, "--enable-error-code=unused-awaitable", "lib")
    second = _said(root, "tests")
    assert first == [("lib/tasks.py", 9, "unused-awaitable")]
    assert second == [("tests/test_tasks.py", 6, "assignment")]  # lib/ followed, no such code
    assert _found(root) == [*first, *second]
    [scope] = answer(root, workspace_diagnostics).scope
    note = "no `files`: what .github/workflows/test.yml runs mypy on: lib"
    note += " (with --enable-error-code=unused-awaitable)"
    assert scope.note == note + "; mypy run again on tests, as the gate runs it"
    assert scope.files == 4


TRIO = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\n',
    "tox.ini": (
        "[testenv:typing]\ncommands =\n    mypy --platform linux\n"
        "    mypy --platform win32\n    mypy --platform linux\n"
    ),
    "app/__init__.py": "",
    "app/io.py": (
        "import sys\n\nif sys.platform == 'win32':\n    handle: int = 'a'\n"
        "else:\n    handle: int = 0\n\ncount: str = 1\n"
    ),
}


def test_runs_as_configured_with_other_options_are_each_a_run(tmp_path: Path) -> None:
    """trio's three platforms: an error of win32 alone is said; one every run reports (the
    last line's), once."""
    root = project(tmp_path / "p", TRIO)
    linux, windows = _said(root, "--platform", "linux"), _said(root, "--platform", "win32")
    assert linux == [("app/io.py", 8, "assignment")]
    assert windows == [("app/io.py", 4, "assignment"), ("app/io.py", 8, "assignment")]
    assert _found(root) == windows

    async def daemons(ws: Workspace) -> list[int]:
        await workspace_diagnostics(ws)
        return sorted(run for _, _, run in ws.pool.mypy)

    assert answer(root, daemons) == [0, 1]  # linux's once: one run per option set


def test_a_preview_and_a_baseline_ask_every_run(tmp_path: Path) -> None:
    """An edit whose error only win32's run reports is introduced by a preview and since
    HEAD; one fixing it there is fixed."""
    files = {**TRIO, "app/io.py": TRIO["app/io.py"].replace("'a'", "0")}
    root = committed(project(tmp_path / "p", files))
    io = root / "app" / "io.py"
    broken = io.read_text().replace("handle: int = 0\nelse", "handle: int = 'a'\nelse")

    async def ask(ws: Workspace) -> tuple[Any, Any]:
        previewed = await preview(ws, [{"path": "app/io.py", "content": broken}])
        io.write_text(broken)
        return previewed, await workspace_diagnostics(ws, baseline="HEAD")

    previewed, since = answer(root, ask)
    introduced = [("app/io.py", 4, "assignment")]
    assert [(d.path, d.line, d.code) for d in previewed.changes.introduced] == introduced
    assert [(d.path, d.line, d.code) for d in since.changes.introduced] == introduced


def test_another_targets_or_environments_run_is_no_gates(tmp_path: Path) -> None:
    """A Makefile's `mypy-strict:` beside `lint:`, a tox environment beside the one running
    mypy first: CI running `make lint` or `tox -e typing` never makes them, and their
    `--strict` errors had been said (`script_blocks`). The first run's own block holds the
    other runs."""
    (tmp_path / "src").mkdir()
    (tmp_path / "tests").mkdir()
    make = tmp_path / "Makefile"
    make.write_text("lint:\n\tmypy src\n\nmypy-strict:\n\tmypy --strict src\n")
    assert script_runs(tmp_path) == [ScriptMypy("Makefile", ("src",), ())]
    make.write_text("lint:\n\tmypy src\n\tmypy --strict tests\n")
    assert [r.options for r in script_runs(tmp_path)] == [(), ("--strict",)]
    make.unlink()
    tox = tmp_path / "tox.ini"
    tox.write_text(
        "[testenv:typing]\ncommands =\n    mypy --platform linux\n    mypy --platform win32\n"
        "\n[testenv:strict]\ncommands = mypy --strict\n"
    )
    platforms = [("--platform", "linux"), ("--platform", "win32")]
    assert [r.options for r in configured_runs(tmp_path)] == platforms


def test_a_strict_target_ci_never_runs_adds_no_error(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[tool.mypy]\nfiles = ["src"]\n',
        "Makefile": "lint:\n\tmypy\n\nmypy-strict:\n\tmypy --strict\n",
        "src/app.py": "def double(x):\n    return x * 2\n",
    }
    root = project(tmp_path / "p", files)
    assert _said(root) == []  # `make lint`
    assert _said(root, "--strict") != []  # `make mypy-strict`, which no CI runs
    assert _found(root) == []


def test_another_run_mypy_fails_leaves_the_first_runs_answer(tmp_path: Path) -> None:
    """multidict's 3.11 hook, run in the project's environment (its CI gives it another),
    stopped in a package's file: the whole answer had been "mypy failed". The first run's
    errors are said, and the other's failure in the answer's `environment` (it had been
    only logged); a failure of the first is the answer's, as before."""
    files = {
        "pyproject.toml": "[tool.mypy]\n",
        "Makefile": "lint:\n\tmypy src\n\tmypy --python-version=2.7 src\n",
        "src/app.py": 'count: int = "three"\n',
    }
    root = project(tmp_path / "p", files)
    assert _said(root, "src") == [("src/app.py", 1, "assignment")]
    assert _found(root) == _said(root, "src")
    said = answer(root, workspace_diagnostics).environment
    assert said == [
        "mypy's run 2 of the gate (its scope's note names it) failed with .venv/bin/python"
        " (mypy-daemon: error: Mypy no longer supports checking Python 2 code. Consider"
        " pinning to mypy<0.980 if you need to check Python 2 code.): its errors are not"
        " said; a CI may run it in another environment"
    ]
