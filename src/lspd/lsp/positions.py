"""Columns as users count them (code points, 1-based) to and from the server's encoding."""

from __future__ import annotations

from typing import Literal

Encoding = Literal["utf-8", "utf-16", "utf-32"]


def to_units(line_text: str, column: int, encoding: Encoding) -> int:
    """0-based offset in `encoding` units of the 0-based code-point `column` of a line."""
    prefix = line_text[:column]
    if encoding == "utf-32" or prefix.isascii():
        return len(prefix)
    if encoding == "utf-16":
        return len(prefix.encode("utf-16-le")) // 2
    return len(prefix.encode("utf-8"))


def from_units(line_text: str, units: int, encoding: Encoding) -> int:
    """0-based code-point column of the 0-based offset `units` (clamped to the line)."""
    if encoding == "utf-32" or line_text.isascii():
        return min(units, len(line_text))
    count = 0
    for index, char in enumerate(line_text):
        if count >= units:
            return index
        point = ord(char)
        if encoding == "utf-16":
            count += 2 if point > 0xFFFF else 1
        else:
            count += 1 if point < 0x80 else 2 if point < 0x800 else 3 if point < 0x10000 else 4
    return len(line_text)
