"""An edit of trivia the check answers by moving the file's last result (python_trivia) gives
what basedpyright's CLI gives for the written tree, where a syntax error stands on a line's
end and where lines are joined under an ignore comment (a real basedpyright, watched as in
the daemon)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.basedpyright_cli import BASEDPYRIGHT, diagnostics, message, start
from tests.conftest import Warm, warm_root

Said = set[tuple[str | None, int, int, str]]


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Warm]:
    root = tmp_path / "trivia"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "trivia"\nversion = "0"\n')
    (root / "m.py").write_text("X: int = 1\n")
    yield from warm_root(root, tmp_path / "logs", watch=True)


def checked(warm: Warm) -> tuple[Said, list[str]]:
    """The check's errors (file, line, column, message), and the files it asked."""
    result = warm.run(check_all(warm.ws))
    errors = {
        (d.path, d.line, d.column, d.message) for d in result.everything if d.severity == "error"
    }
    return errors, sorted(warm.ws.display(p) for p in result.asked)


def cli(root: Path) -> Said:
    """basedpyright's CLI (lspd's) on the tree: its errors, as `checked` says them."""
    return {
        (Path(d["file"]).name, *start(d), message(d))
        for d in diagnostics(root)
        if d["severity"] == "error"
    }


def test_a_syntax_error_at_a_line_s_end_moves_with_its_comment(warm: Warm) -> None:
    """pyright's "Expected expression" after `x =` stands where the line's end is: after a
    comment added there. Before, the moved answer kept it at column 4."""
    m = warm.root / "m.py"
    m.write_text("x =\nY: int = ''\n")
    first = checked(warm)
    assert first == (cli(warm.root), ["m.py"])
    m.write_text("x =  # later\nY: int = ''\n")
    errors, asked = checked(warm)
    assert ("m.py", 1, 13, 'Expected expression to the right of "="') in errors
    assert (errors, asked) == (cli(warm.root), ["m.py"])
    m.write_text("# above\nx =  # later\nY: int = ''\n")  # it stands on no token: asked
    assert checked(warm) == (cli(warm.root), ["m.py"])
    m.write_text("x = 1\nY: int = ''\n")
    assert checked(warm)[1] == ["m.py"]
    m.write_text("x = 1\n# above\n\nY: int = ''  # why\n")  # the error on its tokens: moved
    assert checked(warm) == (cli(warm.root), [])


def test_lines_joined_under_an_ignore_comment_are_asked(warm: Warm) -> None:
    """`# pyright: ignore` is of its line: `undefined_a` joined to it is no longer reported."""
    m = warm.root / "m.py"
    call = "def f(a: int, b: int) -> None: ...\n\n\nf(undefined_a,\n"
    m.write_text(call + "              1)  # pyright: ignore\n")
    assert checked(warm) == ({("m.py", 4, 3, '"undefined_a" is not defined')}, ["m.py"])
    m.write_text(call.replace(",\n", ",1)  # pyright: ignore\n"))  # the same tokens, columns
    assert checked(warm) == (set(), ["m.py"]) and cli(warm.root) == set()


def test_an_unclosed_string_runs_to_its_line_s_end(warm: Warm) -> None:
    """Python's tokens of `'abc` are a quote and a name; pyright's string holds the
    whitespace after them: its error grows with it. Before, 1:5-1:9 was moved unchanged."""
    m = warm.root / "m.py"
    m.write_text("x = 'abc\nY = 1\n")
    assert checked(warm) == (cli(warm.root), ["m.py"])
    m.write_text("x = 'abc   \nY = 1\n")
    errors, asked = checked(warm)
    assert asked == ["m.py"] and errors == cli(warm.root)
    result = warm.run(check_all(warm.ws))
    unclosed = [d for d in result.everything if d.message == "String literal is unterminated"]
    assert [(d.column, d.end_column) for d in unclosed] == [(5, 12)]


def test_a_file_held_in_basedpyright_s_baseline_is_asked(warm: Warm) -> None:
    """A baselined diagnostic over several lines is matched by its line count: a comment
    inside it makes basedpyright report it again (a review: the moved answer said nothing
    where the CLI says m.py:4:10)."""
    m = warm.root / "m.py"
    m.write_text(
        "def f(a: int, b: int) -> int:\n    return a\n\n\nx: str = f(\n    1,\n    2,\n)\n"
    )
    subprocess.run(
        [BASEDPYRIGHT, "--writebaseline"],
        cwd=warm.root, capture_output=True, check=False,
    )  # fmt: skip
    assert (warm.root / ".basedpyright" / "baseline.json").is_file()
    assert checked(warm) == (set(), ["m.py"]) and cli(warm.root) == set()
    m.write_text(m.read_text().replace("    1,\n", "    1,  # why one\n    # why two\n"))
    assert checked(warm) == (cli(warm.root), ["m.py"])
    assert len(cli(warm.root)) == 1
