"""A mypy configuration below the root that no run of the gate reads is no project of the
gate (`workspace/mypy_nested.py`): sqlglot's sqlglotc/pyproject.toml, mypyc's build
configuration, said 4 errors of sqlglotc/setup.py where its gate (the pre-commit hook's
`mypy sqlglot tests`) checks none of its files. Where its own folder runs mypy, it is one
again. Real mypy."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

HOOK = (
    "repos:\n- repo: local\n  hooks:\n  - id: mypy\n    name: mypy\n    entry: mypy pkg\n"
    "    language: system\n    types: [python]\n    pass_filenames: false\n"
)
FILES = {
    "setup.cfg": "[mypy]\nno_implicit_optional = True\n",
    ".pre-commit-config.yaml": HOOK,
    "pkg/__init__.py": "x: int = 1\n",
    "build_ext/pyproject.toml": '[project]\nname = "ext"\nversion = "0"\n\n[tool.mypy]\n'
    '[[tool.mypy.overrides]]\nmodule = ["pkg"]\nignore_missing_imports = true\n',
    "build_ext/setup.py": "import nothere\n",
}


def _said(root: Path) -> tuple[list[tuple[str, int, str | None]], int]:
    checked = answer(root, workspace_diagnostics)
    return [(d.path, d.line, d.code) for d in checked.diagnostics], checked.files_checked


def test_a_configuration_no_run_of_the_gate_reads_is_left_out(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    assert cli_errors(root, "pkg") == []
    assert _said(root) == ([], 1)
    (root / "build_ext/Makefile").write_text("types:\n\tmypy .\n")  # its own run: its gate
    ext = [(f, line, code) for f, line, _, code, _ in cli_errors(root, ".", cwd=root / "build_ext")]
    assert ext == [("setup.py", 1, "import-not-found")]
    assert _said(root) == ([("build_ext/setup.py", 1, "import-not-found")], 2)
