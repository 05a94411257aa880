"""A Python edit of comments, blank lines and docstrings' words alone: every token of code as
before, in the same columns, only moved up or down by whole lines.

basedpyright's answers then stay what they were, moved with their lines: the files
importing the module see the same module, and its own diagnostics stand on the same tokens
(no message of pyright's names a line). So the whole check asks no server about such an
edit (`python_affected`), not even the importers of a file in an import cycle, which any
other edit of it asks (a comment in SQLAlchemy's `Session.get`: 245 files, 110.8 s at load
5.4). A comment that speaks to a checker (`# type:`, `# pyright:`, an ignore, an encoding)
counts as code here: it stays as it was, where it was, or the edit is not a move.
"""

from __future__ import annotations

import io
import math
import re
import tokenize
from dataclasses import dataclass

# A comment a checker reads: kept as a token, so changing one is no move. Wider than what
# the checkers read ("the type: of x" too): a comment taken for code only costs the ask.
SPEAKS = re.compile(r"type\s*:|pyright|mypy|ignore|coding[:=]", re.IGNORECASE)
# Tokens that mark where a line or block ends, placed by what surrounds them: compared by
# kind alone (a NEWLINE after a longer comment stands further right), never anchors.
ENDS = {tokenize.NEWLINE, tokenize.DEDENT, tokenize.ENDMARKER}
# Per line of a token: the 1-based columns of its first and last characters there (inf: it
# runs on past the line's end), and whether it began on a line above.
Span = tuple[int, float, bool]


@dataclass(frozen=True)
class Moves:
    """Where an edit of comments and blank lines moved each line of code."""

    # Per old line (1-based): its new line, and the columns its tokens take there.
    lines: dict[int, tuple[int, list[Span]]]
    first_kept: bool  # the first line is the same text: a diagnostic of the file stays

    def place(self, line: int, column: int) -> tuple[int, int] | None:
        """Where a range starting at the position (1-based) went: on a character of a token
        of code; None off every token. Not just after a token: that may be where whitespace,
        a comment or a line's end begins, which pyright's syntax errors stand on ("Expected
        expression" after `x =` is where the line's end is, after its comment)."""
        at = self.lines.get(line)
        if at is None or not any(a <= column <= b for a, b, _ in at[1]):
            return None
        return at[0], column

    def close(self, line: int, column: int) -> tuple[int, int] | None:
        """Where a range ending (exclusive) at the position went: just after a character of
        a token of code; None elsewhere (just before a token: where the whitespace, comment
        or line's end before it ends)."""
        at = self.lines.get(line)
        if at is None or not any(a + (not above) <= column <= b + 1 for a, b, above in at[1]):
            return None
        return at[0], column

    def span(
        self, line: int, column: int, end_line: int, end_column: int
    ) -> tuple[int, int] | None:
        """Where a diagnostic's range starting at `line` went (its new start line and end
        line); None where it does not stand on tokens of code. An empty range at the file's
        start may be the file's (pyright's import cycles), staying there whatever moved: it
        stays while the first line does, else it cannot be placed."""
        if (line, column, end_line, end_column) == (1, 1, 1, 1):
            return (1, 1) if self.first_kept else None
        start, end = self.place(line, column), self.close(end_line, end_column)
        if start is None or end is None:
            return None
        return start[0], end[0]


def moves(before: str, after: str) -> Moves | None:
    """How `after` moved `before`'s lines when all that changed is comments (none a checker
    reads), blank lines and the words of docstrings; None for any other edit, or a text
    Python cannot tokenize."""
    old, new = _code(before), _code(after)
    if old is None or new is None or len(old) != len(new):
        return None
    lines: dict[int, tuple[int, list[Span]]] = {}
    joined: dict[int, int] = {}  # per new line, the old line its tokens came from
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if a.type != b.type:
            return None
        if a.type in ENDS:
            continue
        if a.string != b.string:
            if a.type == tokenize.STRING and _prose(old, i) and _prose(new, i):
                continue  # a docstring's words: no token of code, placed by its neighbours
            return None
        if a.start[1] != b.start[1] or a.end[1] != b.end[1]:
            return None  # a token moved along its line: not a move of whole lines
        shift = b.start[0] - a.start[0]
        for line in range(a.start[0], a.end[0] + 1):  # a string may span lines
            first = a.start[1] + 1 if line == a.start[0] else 1
            last = a.end[1] if line == a.end[0] else math.inf
            to, spans = lines.setdefault(line, (line + shift, []))
            if to != line + shift or joined.setdefault(to, line) != line:
                return None  # a line split, or lines joined: an ignore comment's line may
                # then hold other code (pyright's `# type: ignore` is of its line)
            spans.append((first, last, line != a.start[0]))
    return Moves(lines, before.split("\n", 1)[0] == after.split("\n", 1)[0])


def _prose(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    """Whether `tokens[i]`, a string, is a statement of its own whose words no checker reads:
    a docstring (or any string statement; pyright reports none unused), plain or raw, one
    token (basedpyright reports an implicit concatenation), without a backslash (an invalid
    escape is reported)."""
    string = tokens[i].string
    prefix = string[: len(string) - len(string.lstrip("rRuU"))]
    if string[len(prefix) :][:1] not in ("'", '"') or "\\" in string:
        return False  # b"" checks its characters, f"" holds code
    before = tokens[i - 1].type if i > 0 else tokenize.NEWLINE
    after = tokens[i + 1].type if i + 1 < len(tokens) else tokenize.ENDMARKER
    return before in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT) and after in ENDS


def _code(text: str) -> list[tokenize.TokenInfo] | None:
    """`text`'s tokens but blank lines and comments no checker reads; None: untokenizable,
    or a character Python's tokens leave out (an ERRORTOKEN, Python 3.11's: `'abc` unclosed
    is a quote, then `abc`, where pyright's string runs to the line's end, its comment and
    whitespace too)."""
    try:
        # Lines as Python and the checkers end them (a lone \r too: not an ERRORTOKEN)
        tokens = list(tokenize.generate_tokens(io.StringIO(text, newline=None).readline))
    except (tokenize.TokenError, SyntaxError):  # IndentationError is a SyntaxError
        return None
    if any(t.type == tokenize.ERRORTOKEN for t in tokens):
        return None
    return [
        t
        for t in tokens
        if t.type != tokenize.NL and (t.type != tokenize.COMMENT or SPEAKS.search(t.string))
    ]
