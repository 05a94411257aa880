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
fewer; so does a text holding JSX (`</`, `/>`), whose text is no code. A `/` after a
block's `}` or an `if`/`while`/`for`/`with` head's `)` begins a regular expression, as
TypeScript's parser reads it (read as a division, a `[//]` in it hid the rest of its line:
an export's literal edited there asked no importer, where tsc -p says their TS2322).
"""

from __future__ import annotations

import functools
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
        "default",
    ]
)
# A `)` closing these heads a statement: a `/` after it begins a regular expression.
_HEAD = re.compile(r"\b(?:if|while|for|with|for\s+await)\s*$")
_WORD = re.compile(r"[\w$]+$")
# JSX (a closing tag, a self-closing one): its text is no code, so its `//`, quotes and
# backticks are no comment, string or template; such a text has the shape of its whole text.
_JSX = re.compile(r"</|/>")
_SPACES = " \t\f\v\ufeff\xa0"  # TypeScript's white space, line ends apart
_HOLE = "\x00"  # where a literal stood in the code
# What the pass keeps in its code as it is: strings, `/* */` comments, `///` lines.
_KEPT = re.compile(rf"{_STRING}|/\*[\s\S]*?\*/|///[^{_BREAK}]*+")
# An import or export declaration's first word at a line's start (`import(...)` is an
# expression; `import.meta` makes a module too).
_DECLARATION = re.compile(r"^[ \t]*(?:import\b(?!\s*\()|export\b)", re.MULTILINE)
_OPENING, _CLOSING = "{([", "})]"


class _Unread(Exception):
    """The text is not read to its end as TypeScript reads it."""


def shape(text: str) -> int:
    """A hash of `text` without its `//` comments (`///` directives kept) and blank lines:
    equal before and after an edit that changed only those."""
    if _JSX.search(text) is not None:
        return hash(text)
    try:
        code, literals = _read(text)
    except _Unread:
        return hash(text)
    # No line of the code ends inside a string (one continued is a literal), so the spaces
    # stripped are the code's. str methods: a regular expression took 3x the pass itself.
    lines = code.replace("\r", "\n").replace("\u2028", "\n").replace("\u2029", "\n")
    kept = "\n".join(filter(None, (line.strip(_SPACES) for line in lines.split("\n"))))
    return hash((kept, tuple(literals)))


def module(text: str) -> bool:
    """Whether `text` is a module, as TypeScript tells one: an import or export at its top
    level, not inside a `namespace` or `declare module` block (a script holding a namespace
    exports its members: its declarations are still global). A text the pass cannot read is
    taken for a script, whose edit asks every file."""
    try:
        code = _read(text)[0]
    except _Unread:
        return False
    if (first := _DECLARATION.search(code)) is None:
        return False
    before = _KEPT.sub("", code[: first.start()])  # most modules: an import at the top
    if "/*" not in before and _top(before):
        return True
    plain = _KEPT.sub("", code)
    return any(_top(plain[: found.start()]) for found in _DECLARATION.finditer(plain))


def _top(before: str) -> bool:
    """Whether code after `before` is at the top level: no brace, parenthesis or bracket
    open (a JSX text's line inside `(...)` is no declaration), not after a `.` (a member)."""
    pairs = zip(_OPENING, _CLOSING, strict=True)
    return not _member(before) and all(before.count(o) == before.count(c) for o, c in pairs)


@functools.lru_cache(maxsize=2)  # `shape` and `module` of one text, one after the other
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
    a literal or a closing bracket; after a `}` (a block's end: an object literal divided
    is no code) or the `)` of an `if`, `while`, `for` or `with` head, a new statement."""
    for at, piece in enumerate(reversed(code)):
        before = piece.rstrip()
        if not before:
            continue
        if before.endswith(")"):
            return _head([*code[: len(code) - at - 1], before[:-1]])
        if before.endswith((_HOLE, "]", "++", "--", "'", '"')):
            return False
        if (word := _WORD.search(before)) is not None:
            return word.group() in _KEYWORDS and not _member(before[: word.start()])
        return True
    return True


def _member(before: str) -> bool:
    """Whether a word after `before` is a property's name (`a.return`, `a?.in`)."""
    before = before.rstrip()
    return before.endswith(".") and not before.endswith("...")


def _head(code: list[str]) -> bool:
    """Whether the `)` after `code` closes an `if`, `while`, `for` or `with` head."""
    depth = 0
    for at in range(len(code) - 1, -1, -1):
        piece = _KEPT.sub("", code[at])
        for index in range(len(piece) - 1, -1, -1):
            if piece[index] == ")":
                depth += 1
            elif piece[index] == "(":
                if depth:
                    depth -= 1
                    continue
                prefix = _KEPT.sub("", "".join(code[max(0, at - 2) : at])) + piece[:index]
                head = _HEAD.search(prefix)
                return head is not None and not _member(prefix[: head.start()])
    return False
