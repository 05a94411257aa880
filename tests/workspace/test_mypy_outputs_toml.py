"""A pyproject.toml's value of several lines with a line that reads as a table or a key
(a verbose `exclude` regex's `[a]pp/...`): the lines after it are still the mypy table's,
and its output options are left out of lspd's copy, where the check was refused ("lspd
cannot leave mypy's 'junit_xml' out ... write it as a plain key", it was one). On mypy
2.4.1, against its own run."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.mypy_outputs import without_outputs
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, project

PYPROJECT = """\
[tool.mypy]
files = ["app"]
exclude = '''(?x)
[a]pp/skip\\.py$
'''
junit_xml = "../out.xml"
strict = true
"""


def test_a_line_of_a_string_reading_as_a_table_starts_none(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": PYPROJECT,
        "app/__init__.py": "",
        "app/main.py": 'count: int = "three"\n',
        "app/skip.py": 'other: int = "four"\n',
    }
    root = project(tmp_path / "p", files)
    found = answer(root, workspace_diagnostics)
    assert not (tmp_path / "out.xml").exists()  # lspd's mypy wrote no report
    truth = [(f, line, column, code) for f, line, column, code, _ in cli_errors(root)]
    assert truth == [("app/main.py", 1, 14, "assignment")]  # skip.py excluded
    assert (tmp_path / "out.xml").is_file()  # the project's own run wrote it
    assert [(d.path, d.line, d.column, d.code) for d in found.diagnostics] == truth


def test_each_kept_value_ends_where_its_lines_parse() -> None:
    text = PYPROJECT + '\n[tool.other]\nnotes = """\n[tool.mypy]\n"""\njunit_xml = "kept"\n'
    held = without_outputs("pyproject.toml", text)
    assert held == text.replace('junit_xml = "../out.xml"\n', "\n")
