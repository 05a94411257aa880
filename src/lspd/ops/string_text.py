"""The text inside strings that hold code: Python's f-strings (their replacement fields are
code, the text and format specs around them are not) and JavaScript's template literals
(their `${…}` parts are code), and JavaScript's regular-expression literals, for the scan
of a name's uses (`lspd.ops.uses`): each function says where the text ends and whether code
begins there.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_TEMPLATE_TEXT = re.compile(r"[^`\\$]*(?:(?:\\[\s\S]|\$(?!\{))[^`\\$]*)*")
_REGEX_LITERAL = re.compile(r"/(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
_BEFORE_REGEX = frozenset(
    [
        *("return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw"),
        *("case", "do", "else", "yield", "await"),
    ]
)
_SPEC_TEXT = re.compile(r"[^{}]*")


@dataclass(slots=True)
class Field:
    """An f-string's replacement field being scanned: the string's quote, whether it is
    raw, and whether the scan is in the field's format spec (`{value:>{width}}`)."""

    quote: str
    raw: bool
    spec: bool = False


@functools.lru_cache(maxsize=16)
def _f_text(quote: str, raw: bool) -> re.Pattern[str]:
    """An f-string's text: any character but a brace, a backslash, the quote (and a line
    break in a one-line string), then escapes (`\\N{…}` too, unless raw) and doubled
    braces. A lone `}` is text too (an error the checker reports)."""
    q = re.escape(quote[0])
    one_line = "" if len(quote) == 3 else r"\r\n"
    plain = rf"[^{{}}\\{q}{one_line}]" + (rf"|{q}(?!{q}{q})" if len(quote) == 3 else "")
    escape = r"\\(?:\r\n|[^{]|(?=\{))" if raw else r"\\N\{[^}\r\n]*\}|\\(?:\r\n|[\s\S])"
    return re.compile(rf"(?:{plain}|{escape}|\{{\{{|\}})*")


def f_string_text(text: str, pos: int, field: Field) -> tuple[int, bool]:
    """Past the text of an f-string (quoted as `field`) from `pos`: (where the scan goes on,
    whether a replacement field opened there). The string's end (or a line break ending an
    unterminated one-line string) goes on in code."""
    end = _f_text(field.quote, field.raw).match(text, pos).end()  # type: ignore[union-attr]
    if text.startswith("{", end):
        return end + 1, True
    if text.startswith(field.quote, end):
        return end + len(field.quote), False
    return end, False


def format_spec(text: str, pos: int) -> tuple[int, str]:
    """Past a format spec's text from `pos`: (where the scan goes on, `{` when a nested
    field opens there, `}` when the field closes, "" at the end of the text)."""
    end = _SPEC_TEXT.match(text, pos).end()  # type: ignore[union-attr]
    char = text[end : end + 1]
    return end + len(char), char


def template_end(text: str, pos: int) -> tuple[int, bool]:
    """Past a template literal's text from `pos`: (where the scan goes on, whether a `${`
    opened code there)."""
    match = _TEMPLATE_TEXT.match(text, pos)
    end = match.end() if match else pos
    if text.startswith("${", end):
        return end + 2, True
    return end + 1, False  # the closing backquote (or the end of an unterminated text)


def regex_end(text: str, index: int) -> int:
    """Past a regular-expression literal starting at `index`, or just past a division."""
    i = index - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    if i >= 0 and (text[i] in ")]}" or text[i].isalnum() or text[i] in "_$"):
        start = i
        while start >= 0 and (text[start].isalnum() or text[start] in "_$"):
            start -= 1
        if text[start + 1 : i + 1] not in _BEFORE_REGEX:
            return index + 1  # a division
    match = _REGEX_LITERAL.match(text, index)
    return match.end() if match else index + 1
