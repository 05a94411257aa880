"""The names Python's own tokenizer finds in a file, with the names in f-strings' fields:
the reference the scan of uses (`lspd.ops.uses`) is compared with.

Python 3.12's `tokenize` splits an f-string into its text and the tokens of its fields;
older ones return it whole, so here each field's expression is cut out of the string (in
3.11 a field holds no backslash and no quote of its string) and given to `tokenize` again.
"""

from __future__ import annotations

import io
import sys
import tokenize

Name = tuple[int, int, str]  # line, 1-based column, the name
_PREFIX_F = frozenset("fF")


def names(text: str) -> list[Name]:
    """Every NAME token of `text` (a conversion's `r`, `s`, `a` after `!` left out)."""
    found: list[Name] = []
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    for i, token in enumerate(tokens):
        if token.type == tokenize.NAME:
            if i and tokens[i - 1].string == "!" and _in_f_string(tokens, i):
                continue
            if i and tokens[i - 1].type == tokenize.NUMBER and tokens[i - 1].end == token.start:
                continue  # `0L`, `1if`: Python 2, or deprecated (the scan takes a number)
            found.append((token.start[0], token.start[1] + 1, token.string))
        elif token.type == tokenize.STRING and sys.version_info < (3, 12):
            prefix = token.string[: len(token.string) - len(token.string.lstrip("rRbBuUfF"))]
            if _PREFIX_F & set(prefix):
                found += _field_names(token.string, len(prefix), token.start)
    return found


def _in_f_string(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    depth = 0
    for token in reversed(tokens[:i]):
        if token.type == getattr(tokenize, "FSTRING_END", -1):
            depth += 1
        elif token.type == getattr(tokenize, "FSTRING_START", -1):
            if depth == 0:
                return True
            depth -= 1
    return False


def _field_names(string: str, start: int, at: tuple[int, int]) -> list[Name]:
    """The names in the replacement fields of the f-string token `string` found at `at`,
    its quote from `start`."""
    quote = (
        string[start : start + 3] if string[start : start + 3] in ('"""', "'''") else string[start]
    )
    body_start, body_end = start + len(quote), len(string) - len(quote)
    found: list[Name] = []
    i = body_start
    while i < body_end:
        if string.startswith(("{{", "}}"), i):
            i += 2
        elif string[i] == "\\" and "r" not in string[:start].lower():
            i = string.index("}", i) + 1 if string.startswith("N{", i + 1) else i + 2
        elif string[i] == "{":
            i = _field(string, i + 1, at, found)
        else:
            i += 1
    return found


def _field(string: str, i: int, at: tuple[int, int], found: list[Name]) -> int:
    """Past the field whose expression starts at `i`, its names added to `found`."""
    depth, begin = 0, i
    while i < len(string):
        char = string[i]
        if char in "'\"":  # a string inside the field: to its end
            quote = char * 3 if string.startswith(char * 3, i) else char
            i = string.index(quote, i + len(quote)) + len(quote)
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif depth == 0 and (char in "}:" or (char == "!" and string[i + 1] != "=")):
            break
        i += 1
    found += _expression_names(string, begin, i, at)
    if string[i] == "!":
        i += 2
    if string[i] == ":":  # the spec: text, and fields of its own
        i += 1
        while string[i] != "}":
            i = _field(string, i + 1, at, found) if string[i] == "{" else i + 1
    return i + 1


def _expression_names(string: str, begin: int, end: int, at: tuple[int, int]) -> list[Name]:
    before = string[:begin]
    line = at[0] + before.count("\n")
    column = (begin - before.rfind("\n") - 1) if "\n" in before else at[1] + begin
    expression = "(" + string[begin:end] + ")"
    found = []
    for row, col, name in names(expression):  # f-strings inside it too
        col -= 1 if row == 1 else 0  # the added parenthesis
        found.append((line + row - 1, (column if row == 1 else 0) + col, name))
    return found
