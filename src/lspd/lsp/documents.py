"""The documents a session has opened on its server, with their versions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lspd.lsp.text import split_lines


@dataclass
class Document:
    path: Path
    uri: str
    language_id: str
    version: int
    text: str
    _lines: list[str] | None = field(default=None, repr=False)

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = split_lines(self.text)
        return self._lines

    def replace(self, text: str) -> None:
        self.text = text
        self.version += 1
        self._lines = None
