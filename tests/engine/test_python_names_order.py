"""A name added that a file in an import cycle names, or a comment in a file of the cycle:
the check keeps basedpyright's answer of a full run, whose class error in a cycle stands
where the order of the files puts it (a real basedpyright, watched as in the daemon; its
CLI says the same)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.basedpyright_cli import diagnostics, start
from tests.conftest import Warm, warm_root
from tests.engine.test_python_names import CYCLE

CLASS_ERROR = ("b.py", 5, "reportGeneralTypeIssues")  # "Class cannot derive from itself"
IMPORT_CYCLE = ("a.py", 1, "reportImportCycles")


@pytest.fixture
def cycle(tmp_path: Path) -> Iterator[Warm]:
    root = tmp_path / "cycle"
    root.mkdir()
    for name, text in CYCLE.items():
        (root / name).write_text(text)
    (root / "pyproject.toml").write_text('[project]\nname = "cycle"\nversion = "0"\n')
    yield from warm_root(root, tmp_path / "logs", watch=True)


def checked(warm: Warm) -> tuple[set[tuple[str | None, int, str | None]], list[str]]:
    """The check's errors, and the files it asked."""
    result = warm.run(check_all(warm.ws))
    errors = {(d.path, d.line, d.code) for d in result.everything if d.severity == "error"}
    return errors, sorted(warm.ws.display(p) for p in result.asked)


def cli(root: Path) -> set[tuple[str, int, str]]:
    """basedpyright's CLI (lspd's) on the tree: its errors."""
    return {
        (Path(d["file"]).name, start(d)[0], d["rule"])
        for d in diagnostics(root)
        if d["severity"] == "error"
    }


def test_a_name_added_that_a_file_of_a_cycle_names_asks_every_importer(cycle: Warm) -> None:
    errors, asked = checked(cycle)
    assert errors == {IMPORT_CYCLE, CLASS_ERROR} and asked == ["a.py", "b.py", "c.py"]
    (cycle.root / "c.py").write_text("SIZE = 1\nMORE = 2\n")  # b.py names MORE, a.py not
    # Before: b.py and c.py asked, b.py first, and the class error went to a.py, not asked.
    assert checked(cycle) == ({IMPORT_CYCLE, CLASS_ERROR}, ["a.py", "b.py", "c.py"])
    assert cli(cycle.root) == {IMPORT_CYCLE, CLASS_ERROR}


def test_a_code_edit_in_a_file_of_a_cycle_asks_every_importer(cycle: Warm) -> None:
    """A body-only edit asks the edited file alone, unless it is in an import cycle
    (engine/python_affected): before, b.py asked alone lost its class error (SQLAlchemy:
    a comment in `Session.get` lost orm/session.py:3694, which the CLI keeps)."""
    assert checked(cycle) == ({IMPORT_CYCLE, CLASS_ERROR}, ["a.py", "b.py", "c.py"])
    b = cycle.root / "b.py"
    b.write_text(b.read_text().replace("MORE = 1", "MORE = 2"))
    assert checked(cycle) == ({IMPORT_CYCLE, CLASS_ERROR}, ["a.py", "b.py"])  # c.py: unaffected
    assert cli(cycle.root) == {IMPORT_CYCLE, CLASS_ERROR}


def test_comments_and_blank_lines_ask_nothing_their_lines_moved(cycle: Warm) -> None:
    """An edit of comments, blank lines and docstrings' words moves the file's last answer
    with its lines (engine/python_trivia): nothing asked, in a cycle or not, the CLI's
    errors. Before,
    every importer of b.py was asked (SQLAlchemy: 245 files for a comment)."""
    assert checked(cycle) == ({IMPORT_CYCLE, CLASS_ERROR}, ["a.py", "b.py", "c.py"])
    b, a = cycle.root / "b.py", cycle.root / "a.py"
    (cycle.root / "c.py").write_text("SIZE = 1  # in no cycle\n")
    b.write_text("# b: the other half\n\n" + b.read_text() + "# the end\n")
    moved = {IMPORT_CYCLE, ("b.py", 7, "reportGeneralTypeIssues")}
    assert checked(cycle) == (moved, [])
    assert cli(cycle.root) == moved
    a.write_text("# a comment first: the cycle's error stays at 1:1\n" + a.read_text())
    assert checked(cycle) == (moved, ["a.py", "b.py"])  # its first line changed: its cycle
    a.write_text(a.read_text().replace("import c", "# more\n\nimport c") + "\n# the end\n")
    assert checked(cycle) == (moved, [])  # its first line as it was: 1:1 stays
    b.write_text(b.read_text().replace("int:\n", 'int:\n    """One."""\n'))  # code: a statement
    assert checked(cycle) == (moved, ["a.py", "b.py"])
    b.write_text(b.read_text().replace('"""One."""', '"""One,\n\n    then more."""'))
    assert checked(cycle) == (moved, [])  # a docstring's words
    assert cli(cycle.root) == moved
    b.write_text(b.read_text().replace("# the end", "# type: ignore"))  # a checker reads it
    assert checked(cycle)[1] == ["a.py", "b.py"]
    assert checked(cycle)[0] == cli(cycle.root)
