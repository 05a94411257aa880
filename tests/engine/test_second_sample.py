"""The second sample of HEAD's state made with texts held (`engine/second_sample.disk_again`)
compares the check's files only. A gate basedpyright and mypy share, pyright's `include`
narrower than mypy's run: mypy's answer held `other/__init__.py`, a file the check does not
have, and `check --baseline HEAD` failed with `KeyError: 'other/__init__.py'` after any edit
(the sweep's repro of a pyright-included package beside `[tool.mypy] strict`). Real mypy and
basedpyright."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Changes
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

FILES = {
    "pyproject.toml": '[tool.pyright]\ninclude = ["pkg"]\n\n[tool.mypy]\nstrict = true\n',
    "pkg/__init__.py": "",
    "pkg/leaf.py": "y: int = 1\n",
    "other/__init__.py": "",
}


async def since_head(ws: Workspace) -> Changes | None:
    return (await workspace_diagnostics(ws, baseline="HEAD")).changes


def test_a_file_mypy_reaches_outside_the_check_is_not_compared(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    written(root, {"pkg/leaf.py": 'y: int = 1\nx: int = "s"\n'})
    assert [(f, line, code) for f, line, _, code, _ in cli_errors(root, ".")] == [
        ("pkg/leaf.py", 2, "assignment")
    ]
    changes = answer(root, since_head)
    assert changes is not None
    assert sorted((d.path, d.line, d.code) for d in changes.introduced) == [
        ("pkg/leaf.py", 2, "assignment"),
        ("pkg/leaf.py", 2, "reportAssignmentType"),
    ]
    assert (changes.fixed, changes.unchanged) == ([], 0)
