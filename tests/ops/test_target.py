"""Positions that are not on a name are errors naming the nearest name, never "none found"."""

from __future__ import annotations

import pytest

from lspd import ops
from lspd.errors import InvalidInput
from tests.conftest import Warm


def test_a_position_on_whitespace_names_the_nearest_name(py: Warm) -> None:
    # pkg/greeting.py:18 is `    def greet(self, punctuation: str = "!") -> str:`.
    with pytest.raises(InvalidInput) as error:
        py.run(ops.references(py.ws, "pkg/greeting.py", 18, 2))
    assert str(error.value) == (
        "pkg/greeting.py:18:2 is on whitespace, not on a name; the nearest name on line 18 "
        "is `def` at column 5"
    )


def test_a_position_on_punctuation_names_the_nearest_name(py: Warm) -> None:
    with pytest.raises(
        InvalidInput, match=r"18:38 is on `=`, not on a name; .* `str` at column 34"
    ):
        py.run(ops.hover(py.ws, "pkg/greeting.py", 18, 38))


def test_a_position_just_after_a_name_is_on_it(py: Warm) -> None:
    result = py.run(ops.hover(py.ws, "pkg/greeting.py", 12, 14))
    assert "class Greeter" in result.contents


def test_a_blank_line_says_it_has_no_names(py: Warm) -> None:
    with pytest.raises(
        InvalidInput, match=r"pkg/greeting.py:2:1 is not on a name: line 2 has none"
    ):
        py.run(ops.definition(py.ws, "pkg/greeting.py", 2, 1))
