"""Columns in code points (what users count) to and from utf-16, utf-8 and utf-32 units."""

from __future__ import annotations

import pytest

from lspd.lsp.positions import Encoding, from_units, to_units

# "é" is 1 utf-16 unit and 2 utf-8 bytes; "🎉" is 2 utf-16 units and 4 utf-8 bytes.
LINE = "café = '🎉'; target = 1"
TARGET = LINE.index("target")  # 12 code points in
ENCODINGS: list[Encoding] = ["utf-8", "utf-16", "utf-32"]


def test_code_points_before_an_accent_and_an_emoji_to_units() -> None:
    assert TARGET == 12
    assert to_units(LINE, TARGET, "utf-32") == 12
    assert to_units(LINE, TARGET, "utf-16") == 13  # the emoji is a surrogate pair
    assert to_units(LINE, TARGET, "utf-8") == 12 + 1 + 3  # é: +1 byte, 🎉: +3 bytes


def test_units_back_to_code_points() -> None:
    assert from_units(LINE, 12, "utf-32") == TARGET
    assert from_units(LINE, 13, "utf-16") == TARGET
    assert from_units(LINE, 16, "utf-8") == TARGET


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_column_round_trips(encoding: Encoding) -> None:
    for column in range(len(LINE) + 1):
        assert from_units(LINE, to_units(LINE, column, encoding), encoding) == column


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_ascii_lines_count_the_same_in_every_encoding(encoding: Encoding) -> None:
    assert to_units("x = 1", 4, encoding) == 4
    assert from_units("x = 1", 4, encoding) == 4


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_past_the_end_is_clamped_to_the_line(encoding: Encoding) -> None:
    assert to_units(LINE, 1000, encoding) == to_units(LINE, len(LINE), encoding)
    assert from_units(LINE, 1000, encoding) == len(LINE)


def test_a_unit_inside_a_character_maps_to_the_character_after_it() -> None:
    # 1 utf-16 unit into "🎉x" is the middle of the surrogate pair.
    assert from_units("🎉x", 1, "utf-16") == 1
    assert from_units("éx", 1, "utf-8") == 1
