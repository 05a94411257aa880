"""mypy's stop hides what mypy would have reported on, not only its targets
(`engine/mypy_step.mypy_stop`): a module mypy follows into from its `files` (app/helpers.py,
imported by app/main.py, the configuration's only file) has its errors reported by mypy's
run, so when mypy stops at a syntax error they are not checked, never fixed. On a real
mypy, its own run asserted beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.ops.test_mypy_held_files import BROKEN, mypy_stopped
from tests.workspace.mypy_env import cli_errors, project

FOLLOWED = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app/main.py"]\nstrict = true\n',
    "app/__init__.py": "",
    # an unused ignore (its mypy runs once, not dmypy, whose update stopped at a syntax
    # error answers status 1)
    "app/main.py": (
        "from app.helpers import helper\n\n\ndef run() -> int:\n"
        "    return helper()  # type: ignore[misc]\n"
    ),
    "app/helpers.py": 'def helper() -> int:\n    return 1\n\n\nwrong: int = ""\n',
}


def test_a_followed_module_s_errors_are_not_fixed_when_mypy_stops(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FOLLOWED))
    # mypy's own run: app/helpers.py is no target, yet its error is mypy's answer
    assert sorted((f, line, code) for f, line, _, code, _ in cli_errors(root)) == [
        ("app/helpers.py", 5, "assignment"),
        ("app/main.py", 5, "unused-ignore"),
    ]
    main = root / "app/main.py"
    main.write_text(FOLLOWED["app/main.py"] + BROKEN)
    lines = sorted(set(mypy_stopped(root)))
    helpers = FOLLOWED["app/helpers.py"] + "# touched\n"

    async def ask(ws: Workspace) -> tuple[Any, Any]:
        one = await diagnostics(ws, "app/helpers.py", baseline="HEAD")
        main.write_text(FOLLOWED["app/main.py"])
        changes = [
            {"path": "app/main.py", "content": FOLLOWED["app/main.py"] + BROKEN},
            {"path": "app/helpers.py", "content": helpers},
        ]
        return one, await preview(ws, changes)

    one, previewed = answer(root, ask)
    # helpers.py's error was fixed: the stop named mypy's targets (app/main.py) alone
    hidden = {"app/helpers.py": 1, "app/main.py": 1}  # main.py's unused ignore: not checked
    for changes, files in ((one.changes, ["app/helpers.py"]), (previewed.changes, [*hidden])):
        assert (changes.fixed, changes.fixed_total) == ([], 0)
        [stopped] = changes.stopped
        assert stopped.checker == "mypy"
        assert stopped.at == [f"app/main.py:{line}" for line in lines]
        assert (stopped.files, stopped.not_checked) == (files, sum(hidden[f] for f in files))
