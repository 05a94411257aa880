"""Positions that are not on a name are errors naming the nearest name, never "none found"."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.ops import navigation, references
from lspd.ops.target import check_on_name
from tests.conftest import Warm


def test_a_position_on_whitespace_names_the_nearest_name(py: Warm) -> None:
    # pkg/greeting.py:18 is `    def greet(self, punctuation: str = "!") -> str:`.
    with pytest.raises(InvalidInput) as error:
        py.run(references.references(py.ws, "pkg/greeting.py", 18, 2))
    assert str(error.value) == (
        "pkg/greeting.py:18:2 is on whitespace, not on a name; the nearest name on line 18 "
        "is `greet` at column 9"
    )


def test_whitespace_after_a_keyword_names_the_declared_name_not_the_keyword(py: Warm) -> None:
    # Column 8 is the space in `def greet`: as near to `def` as to `greet`, which it declares.
    with pytest.raises(InvalidInput) as error:
        py.run(navigation.hover(py.ws, "pkg/greeting.py", 18, 8))
    assert str(error.value) == (
        "pkg/greeting.py:18:8 is on whitespace, not on a name; the nearest name on line 18 "
        "is `greet` at column 9"
    )


def test_hover_and_definition_refuse_a_declaring_keyword_alike(py: Warm) -> None:
    # pkg/greeting.py:12 is `class Greeter:`; the server has nothing for `class` itself, and
    # an empty answer would read as "no definition exists".
    expected = (
        "pkg/greeting.py:12:2 is on the keyword `class`, not on a name; the nearest name on "
        "line 12 is `Greeter` at column 7"
    )
    for question in (navigation.hover, navigation.definition, references.references):
        with pytest.raises(InvalidInput) as error:
            py.run(question(py.ws, "pkg/greeting.py", 12, 2))
        assert str(error.value) == expected, question


def test_a_word_that_is_a_keyword_elsewhere_is_a_name_in_python(tmp_path: Path) -> None:
    document = Document(tmp_path / "a.py", "file:///a.py", "python", 1, "func = var = 1\n")
    check_on_name(document, "a.py", 1, 2)  # no error: `func` is a Python name
    go = Document(tmp_path / "a.go", "file:///a.go", "go", 1, "func main() {}\n")
    with pytest.raises(InvalidInput, match=r"is on the keyword `func`.* `main` at column 6"):
        check_on_name(go, "a.go", 1, 2)


def test_a_position_on_punctuation_names_the_nearest_name(py: Warm) -> None:
    with pytest.raises(
        InvalidInput, match=r"18:38 is on `=`, not on a name; .* `str` at column 34"
    ):
        py.run(navigation.hover(py.ws, "pkg/greeting.py", 18, 38))


def test_a_position_just_after_a_name_is_on_it(py: Warm) -> None:
    result = py.run(navigation.hover(py.ws, "pkg/greeting.py", 12, 14))
    assert "class Greeter" in result.contents


def test_a_blank_line_says_it_has_no_names(py: Warm) -> None:
    with pytest.raises(
        InvalidInput, match=r"pkg/greeting.py:2:1 is not on a name: line 2 has none"
    ):
        py.run(navigation.definition(py.ws, "pkg/greeting.py", 2, 1))
