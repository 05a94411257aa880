"""Checks of scalar arguments shared by the operations, with the messages agents read."""

from __future__ import annotations

from lspd.errors import InvalidInput


def check_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"`{name}` must be an integer (1-based), not {value!r}")


def check_positive(name: str, value: object, meaning: str = "") -> None:
    """`value` is an int ≥ 1; `meaning` (e.g. " (1 = top level only)") follows the name."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"`{name}` must be a positive integer{meaning}, not {value!r}")
