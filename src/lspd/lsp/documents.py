"""The documents a session has opened on its server, with their versions."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lspd.lsp.pragmas import configs_near, disk_pragmas, implied, rebuilt, scripted
from lspd.lsp.text import path_to_uri, split_lines

Notify = Callable[[str, Any], None]


@dataclass
class Document:
    """One open document: the text the server holds, and its version."""

    path: Path
    uri: str
    language_id: str
    version: int
    text: str
    _lines: list[str] | None = field(default=None, repr=False)
    used: float = field(default_factory=time.monotonic, repr=False)  # last asked about
    on_disk: bool = True  # its text is the disk's, as the server reads it for other files

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = split_lines(self.text)
        return self._lines

    def replace(self, text: str) -> None:
        self.text = text
        self.version += 1
        self._lines = None

    def resend(self, notify: Notify, reopen: bool = False) -> None:
        """Send its text again as its next version: a push server then publishes that
        version's diagnostics, made from everything it holds now. `reopen`: closed and
        opened again, for a server that answers a change to the same text with nothing
        (clangd: its inputs the same, even where a header it includes changed)."""
        if reopen:
            self.version += 1
            notify("textDocument/didClose", {"textDocument": {"uri": self.uri}})
            notify("textDocument/didOpen", {"textDocument": self.item()})
            return
        self.replace(self.text)
        _send_text(self, notify)

    def item(self) -> dict[str, Any]:
        """The `TextDocumentItem` that opens it."""
        return {
            "uri": self.uri,
            "languageId": self.language_id,
            "version": self.version,
            "text": self.text,
        }


class Documents(dict[str, Document]):
    """The open documents by URI; each method tells the server through `notify`. A text
    that changes a file's JSX pragmas, against the one the server had (the last text sent,
    or the disk's), is followed by its configuration's change (`lsp/pragmas.py`)."""

    def sync(
        self, path: Path, text: str, language_id: str, notify: Notify
    ) -> tuple[Document, bool]:
        """Make the server hold `text` for `path`: open it, or send the new full text.
        Returns the document and whether the server was told anything."""
        uri = path_to_uri(path)
        document = self.get(uri)
        if document is None:
            document = self[uri] = Document(path, uri, language_id, 1, text)
            notify("textDocument/didOpen", {"textDocument": document.item()})
            if scripted(path):  # against the disk's text, which the server had
                _repragma(path, disk_pragmas(path), implied(text), notify)
            return document, True
        if document.text == text:
            return document, False
        before = document.text
        document.replace(text)
        _send_text(document, notify)
        if scripted(path):
            _repragma(path, implied(before), implied(text), notify)
        return document, True

    def reopen(self, path: Path, notify: Notify) -> bool:
        """Close and open `path` again (same text, next version); False if it is not open."""
        document = self.get(path_to_uri(path))
        if document is None:
            return False
        document.resend(notify, reopen=True)
        return True

    def close(self, path: Path, notify: Notify) -> None:
        uri = path_to_uri(path)
        if (document := self.pop(uri, None)) is not None:
            notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            if scripted(path):  # the server has the disk's text again
                _repragma(path, implied(document.text), disk_pragmas(path), notify)


def _repragma(path: Path, before: tuple[str, ...], after: tuple[str, ...], notify: Notify) -> None:
    """When `path`'s pragmas go from `before` to `after`: its configuration's change."""
    if before != after and (configs := configs_near(path)):
        notify("workspace/didChangeWatchedFiles", {"changes": rebuilt(configs)})


def _send_text(document: Document, notify: Notify) -> None:
    """`didChange` with the document's whole text at its version."""
    notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": document.uri, "version": document.version},
            "contentChanges": [{"text": document.text}],
        },
    )
