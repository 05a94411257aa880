"""The shape of a TypeScript or JavaScript text: what an edit of its `//` comments and blank
lines leaves alike, so that such an edit asks no importer again (`engine/native_reach.py`).

The text is read as TypeScript's scanner reads it, with a few regular expressions: strings,
template literals (with their `${...}` nested), regular expressions, `/* */` comments and
`///` directives are kept as they are (a literal type, a JSDoc type of a JavaScript file, a
reference); a `//` comment of code is left out, and so are blank lines and the spaces
around a line's code. A line-by-line guess took every line after a backtick beside a quote
or a `*` (a JSDoc comment's `code`) for a string's: a comment added at the end of effect
4.1's Function.ts asked its importers again, 14 s where the same edit had taken 0.3 s.
A text the pass cannot read to its end as TypeScript would (a string or a template left
open, a quote it cannot place) has the shape of its whole text: more files asked, never
fewer.
"""

from __future__ import annotations

import re

_BREAK = "\n\r\u2028\u2029"
# A string on one line (one continued with a `\` at a line's end is read apart: its
# spaces after the break are its text, which the lines' spaces around code are not).
_STRING = rf"'(?:[^'\\{_BREAK}]|\\[^{_BREAK}])*+'|\"(?:[^\"\\{_BREAK}]|\\[^{_BREAK}])*+\""
_CONTINUED = re.compile(
    rf"'(?:[^'\\{_BREAK}]|\\(?:\r\n|[\s\S]))*+'|\"(?:[^\"\\{_BREAK}]|\\(?:\r\n|[\s\S]))*+\""
)


def _code(stops: str) -> re.Pattern[str]:
    """A run of code kept as it is (no `stops`, strings, `/* */` comments, `///` lines),
    then what the pass looks at: a `//` comment, or a mark of `stops`."""
    run = rf"(?:[^{stops}]++|{_STRING}|/\*[\s\S]*?\*/|///[^{_BREAK}]*+)*+"
    return re.compile(rf"({run})(?:(?P<comment>//[^{_BREAK}]*+)|(?P<mark>[{stops}]))")


# Braces count only inside a template's `${...}`, where a `}` may end it.
_CODE = _code("/'\"`")
_NESTED = _code("/'\"`{}")
# The rest of a template literal from inside it: up to its end or a `${`.
_TEMPLATE = re.compile(r"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*+(?:`|\$\{)")
_REGEX = re.compile(
    rf"/(?:[^/\\\[{_BREAK}]|\\[^{_BREAK}]|\[(?:[^\]\\{_BREAK}]|\\[^{_BREAK}])*\])+/[\w$]*"
)
# After these words a `/` begins a regular expression; after any other word, a division.
_KEYWORDS = frozenset(
    [
        "return",
        "typeof",
        "instanceof",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "throw",
        "case",
        "do",
        "else",
        "yield",
        "await",
    ]
)
_WORD = re.compile(r"[\w$]+$")
_LINES = re.compile(r"[ \t\f\v\ufeff\xa0]*(?:[\n\r\u2028\u2029][ \t\f\v\ufeff\xa0]*)+")
_HOLE = "\x00"  # where a literal stood in the code


class _Unread(Exception):
    """The text is not read to its end as TypeScript reads it."""


def shape(text: str) -> int:
    """A hash of `text` without its `//` comments (`///` directives kept) and blank lines:
    equal before and after an edit that changed only those."""
    try:
        code, literals = _read(text)
    except _Unread:
        return hash(text)
    return hash((_LINES.sub("\n", code).strip(), tuple(literals)))


def _read(text: str) -> tuple[str, list[str]]:
    """The code of `text` with a hole for each literal read apart, and those in order."""
    code: list[str] = []
    literals: list[str] = []
    braces: list[bool] = []  # per open `{` in a template's `${...}`: whether it is `${`
    at = 0
    while (found := (_NESTED if braces else _CODE).match(text, at)) is not None:
        code.append(found.group(1))
        at = found.end()
        if found.lastgroup == "comment":
            continue
        mark, start = found.group("mark"), found.start("mark")
        if mark == "{":
            braces.append(False)
            code.append(mark)
        elif mark == "}" and not braces[-1]:
            braces.pop()
            code.append(mark)
        elif mark in "`}":
            if mark == "}":
                braces.pop()
            at = _literal(_TEMPLATE.match(text, at), code, literals, mark)
            if literals[-1].endswith("${"):
                braces.append(True)
        elif mark == "/":
            regex = _REGEX.match(text, start) if _regex_may_start(code) else None
            if regex is None:
                code.append(mark)
            else:
                at = _literal(regex, code, literals)
        else:  # a quote: a string continued over a line's end, else one left open
            at = _literal(_CONTINUED.match(text, start), code, literals)
    if braces:
        raise _Unread
    code.append(text[at:])
    return "".join(code), literals


def _literal(
    found: re.Match[str] | None, code: list[str], literals: list[str], mark: str = ""
) -> int:
    """Keep `found` (after `mark`) as a literal; where it ends."""
    if found is None:
        raise _Unread
    code.append(_HOLE)
    literals.append(mark + found.group())
    return found.end()


def _regex_may_start(code: list[str]) -> bool:
    """Whether a `/` after `code` begins a regular expression, as TypeScript's parser would
    read it: after an operator, an opening bracket or a keyword, not after a name, a number,
    a literal or a closing bracket."""
    for piece in reversed(code):
        before = piece.rstrip()
        if not before:
            continue
        if before.endswith((_HOLE, ")", "]", "}", "++", "--", "'", '"')):
            return False
        if (word := _WORD.search(before)) is not None:
            return word.group() in _KEYWORDS
        return True
    return True
