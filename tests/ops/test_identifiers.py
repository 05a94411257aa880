"""New names checked as identifiers of the file's language before any server is asked."""

from __future__ import annotations

import pytest

from lspd.errors import InvalidInput
from lspd.ops.identifiers import check_identifier


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("total_price", "python"),
        ("prix_payé", "python"),
        ("$store", "typescript"),
        ("_private$1", "javascript"),
        ("Subtotal", "go"),
        ("next_item", "c"),
        ("name", "unknown-language"),
    ],
)
def test_identifiers_are_taken(name: str, language: str) -> None:
    assert check_identifier(name, language) == name


@pytest.mark.parametrize(
    ("name", "language", "expected"),
    [
        ("$store", "python", "is not a python identifier"),
        ("sub-total", "typescript", "is not a typescript identifier"),
        ("a.b", "go", "without dots"),
        ("1st", "python", "not starting with a digit"),
        ("prix_payé", "c", "is not a c identifier"),
        ("func", "go", "`new_name` 'func' is a reserved word of go"),
        ("class", "typescript", "reserved word"),
        ("None", "python", "reserved word"),
        ("namespace", "cpp", "reserved word"),
        ("fn", "rust", "reserved word"),
        (None, "python", "`new_name` must be the new name"),
    ],
)
def test_other_names_are_refused_with_why(name: object, language: str, expected: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        check_identifier(name, language)
    assert expected in str(raised.value)
