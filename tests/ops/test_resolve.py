"""Errors that teach: did-you-mean for names, matching paths for a bare file name."""

from __future__ import annotations

import pytest

from lspd.errors import InvalidInput
from lspd.ops import navigation
from lspd.ops.resolve import AmbiguousSymbol
from tests.conftest import Warm


def test_a_misspelled_member_gets_the_member_that_exists(py: Warm) -> None:
    with pytest.raises(InvalidInput) as error:
        py.run(navigation.definition(py.ws, symbol="Greeter.gret"))
    assert "no symbol named `Greeter.gret` was found. Did you mean `Greeter.greet`?" in str(
        error.value
    )


def test_a_misspelled_first_segment_gets_the_names_that_exist(py: Warm) -> None:
    with pytest.raises(InvalidInput, match=r"Did you mean `Greeter.greet`"):
        py.run(navigation.hover(py.ws, symbol="Greter.greet"))


def test_a_missing_member_names_its_owner(py: Warm) -> None:
    with pytest.raises(InvalidInput) as error:
        py.run(navigation.hover(py.ws, symbol="Greeter.zzzzzz"))
    assert "`Greeter` (pkg/greeting.py:12) has no member `zzzzzz`" in str(error.value)


def test_candidates_put_declarations_first(py: Warm) -> None:
    with pytest.raises(AmbiguousSymbol) as error:
        py.run(navigation.hover(py.ws, symbol="greet"))
    assert [(c.name_path, c.kind) for c in error.value.candidates] == [
        ("pkg.greeting.Greeter.greet", "method"),
        ("pkg.greeting.LoudGreeter.greet", "method"),
    ]
    assert str(error.value).startswith("`greet` matches 2 symbols: ")


def test_a_bare_file_name_gets_the_matching_paths(py: Warm) -> None:
    with pytest.raises(InvalidInput) as error:
        py.run(navigation.hover(py.ws, "greeting.py", 12, 7))
    assert str(error.value) == (
        "greeting.py does not exist; files ending in greeting.py: pkg/greeting.py. "
        "Send the path relative to the workspace root"
    )
