"""A file's diagnostics as the engine sees them: small frozen records, no answer models.

A diagnostic is the same one in two states when its file, severity, code, message and the
source text it points at (its snippet) agree, so lines shifted by an edit above it do not
make it new (`key`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from lspd.engine.results import FileResult

Key = tuple[str, str, str | None, str, str]  # path, severity, code, message, snippet


@dataclass(frozen=True, slots=True)  # one per diagnostic of a kept state: 350,000 on SQLAlchemy
class Seen:
    """One diagnostic: where, what, and the source text it points at."""

    severity: str
    code: str | None
    message: str
    line: int
    column: int
    end_line: int
    end_column: int
    source: str | None
    snippet: str


@dataclass(frozen=True, slots=True)
class FileSeen:
    """One file's diagnostics in one state (`path` as an answer shows it)."""

    path: str
    diagnostics: tuple[Seen, ...]

    def keys(self) -> list[Key]:
        """Each diagnostic's identity across states, in order."""
        return [key(self.path, d) for d in self.diagnostics]


def key(path: str, seen: Seen) -> Key:
    """What identifies `seen` in `path` across two states of the files."""
    return (path, seen.severity, seen.code, seen.message, seen.snippet)


def snippet(lines: list[str], line: int, column: int, end_column: int) -> str:
    """The source text a diagnostic points at (its whole line when it spans none)."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return text[column - 1 : end_column - 1].strip() or text.strip()


def seen_of(result: FileResult, lines: list[str]) -> FileSeen:
    """A file's result as the engine keeps it, its snippets read from `lines` (one object
    per distinct text: SQLAlchemy's 352,004 diagnostics point at 49,858 snippets)."""
    return FileSeen(
        result.path,
        tuple(
            Seen(
                d.severity,
                d.code,
                d.message,
                d.line,
                d.column,
                d.end_line,
                d.end_column,
                d.source,
                sys.intern(snippet(lines, d.line, d.column, d.end_column)),
            )
            for d in result.diagnostics
        ),
    )
