"""From what an agent sends (path + 1-based line/column, or a symbol name) to an LSP position."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.lsp.positions import to_units
from lspd.lsp.session import Session
from lspd.lsp.shapes import Position, PositionParams, TextDocument
from lspd.ops.arguments import check_int
from lspd.workspace import Workspace

# A name as a position is read on it (and a use of it found, `candidates.name_at`): a run of
# letters, digits, `_` and `$`.
NAME = re.compile(r"[\w$]+")
# Per language id, the words that declare a name and never are one: a server has nothing to
# say about them, so a position on one is refused like whitespace, pointing at the name it
# declares. (`func` is a keyword in Go, a plain name in Python.)
_SCRIPT = "class function interface enum const let var async"
KEYWORDS: dict[str, frozenset[str]] = {
    "python": frozenset(["def", "class", "async", "lambda"]),
    "typescript": frozenset(_SCRIPT.split()),
    "typescriptreact": frozenset(_SCRIPT.split()),
    "javascript": frozenset(_SCRIPT.split()),
    "javascriptreact": frozenset(_SCRIPT.split()),
    "go": frozenset(["func", "type", "struct", "interface", "const", "var"]),
    "rust": frozenset(["fn", "struct", "enum", "trait", "impl", "const", "let", "mod"]),
    "c": frozenset(["struct", "enum", "union"]),
    "cpp": frozenset(["class", "struct", "enum", "union", "namespace"]),
}


@dataclass(frozen=True)
class Target:
    """A checked position in an open document, and the session that answers for it."""

    session: Session
    document: Document
    line: int  # 1-based, as the caller sent it
    column: int  # 1-based code points

    @property
    def text_document(self) -> TextDocument:
        return {"uri": self.document.uri}

    @property
    def position(self) -> Position:
        """The LSP position: 0-based, the character in the server's encoding's units."""
        line_text = self.document.lines[self.line - 1]
        character = to_units(line_text, self.column - 1, self.session.encoding)
        return {"line": self.line - 1, "character": character}

    def params(self) -> PositionParams:
        """What every position question sends."""
        return {"textDocument": self.text_document, "position": self.position}


async def resolve_target(
    ws: Workspace,
    path: str | None,
    line: int | None,
    column: int | None,
    symbol: str | None,
    content: str | None = None,
) -> Target:
    """A position from `path`+`line`+`column`, or from `symbol` (optionally within `path`);
    `content`: the text `path`'s server holds instead of the disk's (`lspd.ops.unsaved`)."""
    if symbol is not None and (line is not None or column is not None):
        raise InvalidInput("send either `symbol` or `line` and `column`, not both")
    if symbol is not None:
        from lspd.ops.resolve import find_symbol

        found = await find_symbol(ws, symbol, path)
        session, document = await ws.open(found.path)
        return Target(session, document, found.line, found.column)
    if path is None:
        raise InvalidInput(
            "send `path` with `line` and `column` (1-based), or `symbol` (e.g. `Greeter.greet`)"
        )
    if line is None or column is None:
        raise InvalidInput(
            "send both `line` and `column` (1-based; the column counts characters), "
            "or `symbol` instead of a position"
        )
    check_int("line", line)
    check_int("column", column)
    session, document = await ws.open(path, content)
    check_position(document, ws.display(document.path), line, column)
    check_on_name(document, ws.display(document.path), line, column)
    return Target(session, document, line, column)


def check_position(document: Document, shown: str, line: int, column: int) -> None:
    """The 1-based position lies inside the document; an error saying where it ends otherwise."""
    lines = document.lines
    if line < 1:
        raise InvalidInput(f"line {line} is invalid: lines start at 1")
    if column < 1:
        raise InvalidInput(f"column {column} is invalid: columns start at 1")
    if line > len(lines):
        raise InvalidInput(f"line {line} is past the end of {shown}, which has {len(lines)} lines")
    length = len(lines[line - 1])
    if column > length + 1:
        raise InvalidInput(
            f"column {column} is past the end of line {line} of {shown}, which has {length} "
            f"characters; columns count characters from 1: {lines[line - 1].strip()[:80]!r}"
        )


def check_on_name(document: Document, shown: str, line: int, column: int) -> None:
    """The position touches a name (on it, or just after it as an editor's cursor may be):
    on whitespace or punctuation a server answers "nothing", which reads like "none exist",
    so it is an error naming the nearest name on the line instead."""
    text = document.lines[line - 1]
    words = list(NAME.finditer(text))
    keywords = KEYWORDS.get(document.language_id, frozenset())
    names = [m for m in words if m.group() not in keywords]
    if any(m.start() <= column - 1 <= m.end() for m in names):
        return
    where = f"{shown}:{line}:{column}"
    if not names:
        raise InvalidInput(
            f"{where} is not on a name: line {line} has none ({text.strip()[:80]!r}); "
            "send the line and column of a name, or `symbol`"
        )
    # The nearest name; of two as near, the one after the position (`def| forward`).
    near = min(
        names,
        key=lambda m: (min(abs(m.start() - (column - 1)), abs(m.end() - column)), m.end() < column),
    )
    raise InvalidInput(
        f"{where} is on {_what(text, column, words)}, not on a name; the nearest name on line "
        f"{line} is `{near.group()[:80]}` at column {near.start() + 1}"
    )


def _what(text: str, column: int, words: list[re.Match[str]]) -> str:
    keyword = next((m for m in words if m.start() <= column - 1 < m.end()), None)
    if keyword is not None:  # a word, yet not a name
        return f"the keyword `{keyword.group()}`"
    char = text[column - 1] if column <= len(text) else ""
    if not char:
        return "the end of the line"
    return "whitespace" if char.isspace() else f"`{char}`"
