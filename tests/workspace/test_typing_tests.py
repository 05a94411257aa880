"""cattrs gates its types on pytest-typing's markdown snippets (`typing_checkers =
["mypy"]`), loguru on pytest-mypy-plugins' YAML cases: each runs mypy on code of its own
and the messages mypy must say of it, which lspd does not run. The scope now names the
plugin (`workspace/typing_tests.py`; the real mypy judges the rest)."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import answer
from tests.workspace.mypy_env import project

PYPROJECT = (
    '[dependency-groups]\ntest = ["pytest", "pytest-typing; python_version == \'3.14\'"]\n\n'
    '[tool.mypy]\nstrict = true\n\n[tool.pytest]\ntyping_checkers = ["mypy"]\n'
)
NOTE = (
    "not checked: the typing tests pytest-typing runs (its markdown snippets: code and the "
    "messages mypy must say of it), which lspd does not run"
)


def test_a_typing_test_plugin_is_said_not_run(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": PYPROJECT,
        "pkg/__init__.py": "def f(x: int) -> int:\n    return x\n",
        "tests/test_typing.md": "```python\nreveal_type(1)  # N: int\n```\n",
    }
    root = project(tmp_path / "p", files)
    checked = answer(root, workspace_diagnostics)
    assert (checked.errors, checked.files_checked) == (0, 1)
    assert [(s.project, s.config, s.files, s.note) for s in checked.scope or []] == [
        (".", "pyproject.toml [tool.mypy]", 1, "no `files`: every Python file of the project"),
        (".", None, 0, NOTE),
    ]
    # a name that only begins like one is none
    (root / "pyproject.toml").write_text(PYPROJECT.replace("pytest-typing", "pytest-typing-x"))
    checked = answer(root, workspace_diagnostics)
    assert [s.note for s in checked.scope or []] == ["no `files`: every Python file of the project"]
