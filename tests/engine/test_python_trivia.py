"""An edit of comments and blank lines alone moves lines; any other edit is no move."""

from __future__ import annotations

import pytest

from lspd.engine.python_trivia import moves

CODE = 'import os\n\n\ndef f(x: int) -> str:\n    """Doc."""\n    return str(x)  # why\n'


def test_a_comment_above_moves_every_line_below_it() -> None:
    found = moves(CODE, "# a header\n" + CODE)
    assert found is not None
    assert found.place(1, 1) == (2, 1)  # `import`
    assert found.place(4, 5) == (5, 5)  # `f`
    assert found.place(6, 19) is None  # in the comment `# why`: no token of code there
    assert found.span(6, 12, 6, 18) == (7, 7)  # `str(x)`


def test_a_comment_changed_on_its_line_and_blank_lines_dropped_keep_or_move_lines() -> None:
    after = CODE.replace("  # why", "  # because").replace("\n\n\n", "\n")
    found = moves(CODE, after)
    assert found is not None
    assert found.place(1, 1) == (1, 1) and found.place(4, 1) == (2, 1)


def test_a_string_spanning_lines_moves_as_a_whole() -> None:
    before = 'X = """a\nb\n"""\nY: int = ""\n'
    found = moves(before, "# moved\n" + before)
    assert found is not None
    assert found.span(1, 5, 3, 4) == (2, 4) and found.place(4, 10) == (5, 10)


@pytest.mark.parametrize(
    "after",
    [
        CODE.replace("return str(x)", "return repr(x)"),  # code
        CODE.replace("str(x)  #", "str( x )  #"),  # a token moved along its line
        CODE.replace('"""Doc."""', 'b"""Doc."""'),  # a bytes docstring: code
        CODE.replace('"""Doc."""', 'f"""Doc {x}."""'),  # an f-string holds code
        CODE.replace('"""Doc."""', '"""Doc.\\d"""'),  # an invalid escape is reported
        CODE.replace('"""Doc."""', '"Doc." "more"'),  # an implicit concatenation
        CODE.replace("return str(x)", "return 'a'"),  # a string in code
        CODE.replace("# why", "# type: ignore"),  # a comment a checker reads
        CODE.replace("# why", "# pyright: ignore[reportGeneralTypeIssues]"),
        "# -*- coding: latin-1 -*-\n" + CODE,
        "# mypy: disallow-untyped-defs\n" + CODE,
        CODE.replace("def f", "def f(\n"),  # no longer tokenizes
        CODE.replace("import os\n", "import os  # noqa\nimport sys\n"),
    ],
)
def test_any_other_edit_is_no_move(after: str) -> None:
    assert moves(CODE, after) is None


def test_a_docstring_s_words_move_the_lines_below_it() -> None:
    after = CODE.replace('"""Doc."""', '"""Doc.\n\n    Longer, over three lines.\n    """')
    found = moves(CODE, after)
    assert found is not None
    assert found.place(4, 5) == (4, 5)  # `f`, above it
    assert found.place(5, 8) is None  # on the docstring: its words changed
    assert found.place(6, 12) == (9, 12)  # `str`, below it
    module = '"""A module."""\nX: int = 1\n'
    assert moves(module, '"""A module,\nits words."""\nX: int = 1\n') is not None
    attribute = 'X: int = 1\n"""What X is."""\n'  # any string statement
    assert moves(attribute, attribute.replace("is", "was")) is not None


def test_a_comment_a_checker_reads_may_move_unchanged() -> None:
    before = "x: int = ''  # type: ignore\n"
    found = moves(before, "# note\n\n" + before)
    assert found is not None and found.place(1, 15) == (3, 15)  # on the ignore comment


def test_an_empty_range_at_the_start_stays_while_the_first_line_does() -> None:
    """pyright puts a file's import cycle at (1, 1), whatever the file starts with."""
    header = "# header\n"
    kept = moves(header + CODE, header + "# more\n" + CODE)
    assert kept is not None and kept.span(1, 1, 1, 1) == (1, 1)
    moved = moves(CODE, header + CODE)
    assert moved is not None and moved.span(1, 1, 1, 1) is None  # the file's, or `import`'s?
    assert moved.span(1, 1, 1, 7) == (2, 2)  # `import`


def test_a_range_beside_a_token_but_on_none_is_not_placed() -> None:
    """pyright's syntax errors stand on a line's end, after its comment and whitespace
    ("Expected expression" after `x =`: 1:4-2:1, then 1:9 with `  # c`)."""
    found = moves("x =\ny = 1\n", "x =  # c\n\ny = 1\n")
    assert found is not None
    assert found.span(1, 4, 2, 1) is None  # just after `=`, just before `y`: the line's end
    assert found.span(1, 1, 2, 1) is None  # on `x`, but ending before `y`
    assert found.span(1, 1, 1, 4) == (1, 1)  # `x =`
    assert found.span(2, 1, 2, 2) == (3, 3)  # `y`
    assert found.span(1, 3, 1, 3) is None  # an empty range: beside `=` or on it?
    text = 'X = """a\nb\n"""\n'  # in a string running on: its line's start is in it
    assert (spanning := moves(text, "# c\n" + text)) is not None
    assert spanning.span(1, 5, 2, 1) == (2, 3) and spanning.span(2, 1, 3, 4) == (3, 4)


def test_lines_joined_are_no_move() -> None:
    """An ignore comment is of its line: joined to it, another line's diagnostics go."""
    before = "f(a,\n    b)  # pyright: ignore\n"
    assert moves(before, "f(a,b)  # pyright: ignore\n") is None
    assert moves("f(a,\n    b)\n", "f(a,b)\n") is None


def test_a_character_outside_python_s_tokens_is_no_move() -> None:
    """pyright's unclosed string runs to the line's end: whitespace or a comment added
    there lengthen it (1:5-1:9, then 1:5-1:14), where Python's tokens are a quote, `abc`."""
    assert moves("x = 'abc\ny = 1\n", "x = 'abc  # c\ny = 1\n") is None
    assert moves("x = 'abc\ny = 1\n", "x = 'abc   \ny = 1\n") is None
    assert moves("x = 1 $\n", "# c\nx = 1 $\n") is None
