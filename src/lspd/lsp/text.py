"""Text as LSP sees it: lines split on \\n, \\r\\n and \\r only, and file URIs; and its
points moved to and from ECMAScript's lines (TypeScript's), which U+2028 and U+2029 end too."""

from __future__ import annotations

import bisect
import functools
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ECMA_BREAK = re.compile("\r\n|[\r\n\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    """Lines as LSP counts them (`\n`, `\r\n` and `\r` all end one)."""
    return _LINE_BREAK.split(text)


class LineIndex:
    """One text's line starts, LSP's and ECMAScript's (TypeScript's: U+2028 and U+2029 end
    a line too), read once: each point is then moved by a search and its own line (one scan
    of the text per point: 2,000 symbols of a 5,000-line file, 84 s). Points are 0-based,
    columns UTF-16 units."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lsp = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
        self.ecma = [0, *(m.end() for m in _ECMA_BREAK.finditer(text))]

    def to_ecmascript(self, line: int, character: int) -> tuple[int, int]:
        """The point at LSP's `line` and `character` in ECMAScript's lines."""
        if line >= len(self.lsp):
            return line, character
        start = self.lsp[line]
        stop = _LINE_BREAK.search(self.text, start)
        end = len(self.text) if stop is None else stop.start()
        at = _offset(self.text[start:end], start, character)
        ecma = bisect.bisect_right(self.ecma, at) - 1
        return ecma, _units(self.text[self.ecma[ecma] : at])

    def to_lsp(self, line: int, character: int) -> tuple[int, int]:
        """ECMAScript's point in LSP's lines; a column past its line's end goes on into the
        text, and a point between a CR and its LF is past the CR's line (LSP ends one there)."""
        start = self.ecma[line] if 0 < line < len(self.ecma) else 0
        at = _offset(self.text[start : start + max(character, 0)], start, character)
        lsp = bisect.bisect_right(self.lsp, at) - 1
        if self.text.startswith("\n", at) and self.text[at - 1 : at] == "\r":
            return lsp + 1, 0
        return lsp, _units(self.text[self.lsp[lsp] : at])


def _offset(head: str, start: int, character: int) -> int:
    """The text offset of UTF-16 `character` of `head`, which starts at `start`."""
    return start + len(head.encode("utf-16-le")[: 2 * character].decode("utf-16-le", "ignore"))


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def has_separator(text: str) -> bool:
    """Whether `text` holds U+2028 or U+2029: where else LSP's and ECMAScript's lines agree."""
    return "\u2028" in text or "\u2029" in text


def from_ecmascript(text: str, line: int, column: int) -> tuple[int, int]:
    """TypeScript's 1-based `line` and UTF-16 `column` (tsc -p's output) as the same point's
    in LSP's lines of `text` (`LineIndex.to_lsp`, 1-based; for many points of one text,
    make the index once)."""
    if not has_separator(text):
        return line, column
    lsp, character = LineIndex(text).to_lsp(line - 1, column - 1)
    return lsp + 1, character + 1


# Both once per path (both immutable): a warm answer converts the same few paths several
# times, and pathlib's quoting and parsing cost more than the rest of naming a location.
@functools.lru_cache(maxsize=8192)
def path_to_uri(path: Path) -> str:
    """A `file://` URI of an absolute path."""
    return path.as_uri()


@functools.lru_cache(maxsize=8192)
def uri_to_path(uri: str) -> Path | None:
    """The path of a `file://` URI; None for another scheme."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))
