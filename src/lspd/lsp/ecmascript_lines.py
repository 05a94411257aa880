"""Positions sent to and read from tsserver, whose lines also end at U+2028 and U+2029.

tsserver counts lines as ECMAScript does (its line map ends one at U+2028 and U+2029 too),
and typescript-language-server passes positions between it and its client as they are. In a
text holding either character, every position below one meant another place: a hover on a
call answered a property two lines up, a definition nothing. A request's positions are
moved from LSP's lines to tsserver's, and its answer's back, each by the text of the file
it is in (the one the server holds open, else the disk's); a text without either character
is left as it is. Each file an answer names is read once per request, and its line starts
once (`text.LineIndex`), however many points it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from lspd.lsp.documents import Documents
from lspd.lsp.text import LineIndex, has_separator, uri_to_path
from lspd.servers.registry import ServerDefinition

# The requests whose positions are places in files (tsserver's diagnostics are moved where
# they are read: `document_diagnostics`).
METHODS = frozenset(
    {
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/typeDefinition",
        "textDocument/implementation",
        "textDocument/references",
        "textDocument/documentSymbol",
        "textDocument/prepareCallHierarchy",
        "callHierarchy/incomingCalls",
        "callHierarchy/outgoingCalls",
        "textDocument/prepareRename",
        "textDocument/rename",
        "textDocument/codeAction",
        "codeAction/resolve",
        "workspace/symbol",
    }
)


Move = Callable[[LineIndex, int, int], tuple[int, int]]  # a text, 0-based line and UTF-16 column


class Lines:
    """One request's moves: `texts` gives a file's text by its URI (None: not readable)."""

    def __init__(self, texts: Callable[[str], str | None], params: Any) -> None:
        self._texts = texts
        self._read: dict[str, LineIndex | None] = {}
        self.uri = _request_uri(params)

    def sent(self, params: Any) -> Any:
        """`params` with its positions in tsserver's lines."""
        return self._walk(params, self.uri, LineIndex.to_ecmascript)

    def answered(self, answer: Any) -> Any:
        """`answer` with its positions in LSP's lines (prepareRename's may be a bare Range)."""
        if isinstance(answer, dict) and answer.keys() == {"start", "end"}:
            return self._range(answer, self.uri, LineIndex.to_lsp)
        return self._walk(answer, self.uri, LineIndex.to_lsp)

    def _index(self, uri: str | None) -> LineIndex | None:
        """`uri`'s lines when its text holds a separator (else None: nothing moves there)."""
        if uri is None:
            return None
        if uri not in self._read:
            text = self._texts(uri)
            found = text is not None and has_separator(text)
            self._read[uri] = LineIndex(text) if text is not None and found else None
        return self._read[uri]

    def _walk(self, value: Any, uri: str | None, move: Move) -> Any:
        if isinstance(value, list):
            return [self._walk(item, uri, move) for item in value]
        if not isinstance(value, dict):
            return value
        own = value.get("uri") if isinstance(value.get("uri"), str) else uri
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key in ("range", "selectionRange"):
                out[key] = self._range(item, own, move)
            elif key == "position":
                out[key] = self._point(item, own, move)
            elif key in ("targetRange", "targetSelectionRange"):
                out[key] = self._range(item, value.get("targetUri"), move)
            elif key == "originSelectionRange":
                out[key] = self._range(item, uri, move)
            elif key == "fromRanges":  # an incoming call's are in its caller, else the asker's
                caller = value.get("from", {}).get("uri") if "from" in value else uri
                out[key] = [self._range(r, caller, move) for r in item]
            elif key == "changes" and isinstance(item, dict):
                out[key] = {u: self._walk(edits, u, move) for u, edits in item.items()}
            elif key == "edits" and isinstance(value.get("textDocument"), dict):
                out[key] = self._walk(item, value["textDocument"].get("uri"), move)
            else:
                out[key] = self._walk(item, own, move)
        return out

    def _range(self, span: Any, uri: str | None, move: Move) -> Any:
        if not isinstance(span, dict) or "start" not in span or "end" not in span:
            return span
        return {
            **span,
            "start": self._point(span["start"], uri, move),
            "end": self._point(span["end"], uri, move),
        }

    def _point(self, point: Any, uri: str | None, move: Move) -> Any:
        index = self._index(uri)
        if index is None or not isinstance(point, dict):
            return point
        line, character = point.get("line"), point.get("character")
        if not isinstance(line, int) or not isinstance(character, int):
            return point
        moved_line, moved_character = move(index, line, character)
        return {**point, "line": moved_line, "character": moved_character}


def of_request(
    definition: ServerDefinition, method: str, params: Any, held: Documents
) -> Lines | None:
    """The moves of a request's positions to tsserver's lines and back (None: another
    server's, or a request without positions in files); a file's text is the one `held`
    open, else the disk's."""
    if definition.diagnostics != "tsserver" or method not in METHODS:
        return None

    def text(uri: str) -> str | None:
        document = held.get(uri)
        return document.text if document is not None else disk_text(uri)

    return Lines(text, params)


def _request_uri(params: Any) -> str | None:
    """The file a request is about: its text document's, or its call hierarchy item's."""
    if not isinstance(params, dict):
        return None
    for key in ("textDocument", "item"):
        inner = params.get(key)
        if isinstance(inner, dict) and isinstance(inner.get("uri"), str):
            return str(inner["uri"])
    return None


def disk_text(uri: str) -> str | None:
    """A file's text on disk by its URI (None: not a file, or not readable)."""
    path: Path | None = uri_to_path(uri)
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
