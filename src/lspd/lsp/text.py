"""Text as LSP sees it: lines split on \\n, \\r\\n and \\r only, and file URIs."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ECMA_BREAK = re.compile("\r\n|[\r\n\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    """Lines as LSP counts them (`\n`, `\r\n` and `\r` all end one)."""
    return _LINE_BREAK.split(text)


def from_ecmascript(text: str, line: int, column: int) -> tuple[int, int]:
    """TypeScript's 1-based `line` and UTF-16 `column` (tsc -p's output: its lines also end
    at U+2028 and U+2029, ECMAScript's) as the same point's in LSP's lines of `text`."""
    if "\u2028" not in text and "\u2029" not in text:
        return line, column
    ends = [m.end() for m in _ECMA_BREAK.finditer(text)]
    start = ends[line - 2] if 1 < line <= len(ends) + 1 else 0
    at = start + len(
        text[start : start + max(column - 1, 0)]
        .encode("utf-16-le")[: 2 * (column - 1)]
        .decode("utf-16-le", "ignore")
    )
    lsp = text.count("\n", 0, at) + text.count("\r", 0, at) - text.count("\r\n", 0, at)
    head = split_lines(text[:at])[-1]
    return lsp + 1, len(head.encode("utf-16-le")) // 2 + 1


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
