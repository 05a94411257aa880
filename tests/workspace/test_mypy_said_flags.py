"""mypy before 0.981 has no `--show-error-end`: sniffio's CI pins mypy 0.782, and lspd, which
gave every mypy older than 1.11 that flag with its text output, was refused ("unrecognized
arguments"), its check, preview and baseline alike. Its errors are read with no end now
(`workspace/mypy_said.text_flags`; real mypy 0.971, which runs on lspd's Python)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from lspd.workspace.mypy_said import TEXT_FLAGS, text_flags
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import environment, project

FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["pkg"]\n',
    "pkg/__init__.py": 'x: int = "s"\n',
    "pkg/calls.py": "def twice(value: int) -> int:\n    return value * 2\n",
}
CALLER = "from pkg.calls import twice\n\nshown: str = twice(2)\n"


def own_errors(root: Path) -> list[str]:
    """The project's own mypy 0.971, as its CI runs it (`mypy`), in its text."""
    done = subprocess.run(
        [str(root / ".venv/bin/mypy"), "--show-column-numbers", "--no-error-summary"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    return done.stdout.splitlines()


def test_the_flags_each_version_takes() -> None:
    assert text_flags((0, 971)) == tuple(f for f in TEXT_FLAGS if f != "--show-error-end")
    assert text_flags((0, 981)) == TEXT_FLAGS == text_flags((1, 10, 0))


def test_a_mypy_without_error_ends_is_answered(tmp_path: Path) -> None:
    env = environment("mypy-0.971", "mypy==0.971")
    root = committed(project(tmp_path / "p", FILES, env))
    assert own_errors(root) == [
        "pkg/__init__.py:1:10: error: Incompatible types in assignment (expression has type"
        ' "str", variable has type "int")'
    ]

    async def ask(ws: Workspace) -> tuple[Any, Any, Any]:
        checked = await workspace_diagnostics(ws)
        previewed = await preview(ws, [{"path": "pkg/caller.py", "content": CALLER}])
        (root / "pkg/caller.py").write_text(CALLER)
        return checked, previewed, await workspace_diagnostics(ws, baseline="HEAD")

    checked, previewed, since = answer(root, ask)
    said = [(d.path, d.line, d.column, d.message) for d in checked.diagnostics]
    assert said == [
        (
            "pkg/__init__.py",
            1,
            10,
            'Incompatible types in assignment (expression has type "str", variable has type "int")',
        )
    ]
    assert (
        'pkg/caller.py:3:14: error: Incompatible types in assignment (expression has type "int",'
        ' variable has type "str")'
    ) in own_errors(root)
    for changed in (previewed.changes, since.changes):
        shown = [(d.path, d.line, d.column) for d in changed.introduced]
        assert shown == [("pkg/caller.py", 3, 14)]
        assert changed.fixed == []
