"""The committed state's results as the engine keeps them (`engine/committed.py`): each
file's diagnostics with the lines they point at, read from the texts the results were made
of (`engine/seen.py`)."""

from __future__ import annotations

from pathlib import Path

from lspd.engine.results import FileResult
from lspd.engine.seen import FileSeen, seen_of
from lspd.lsp.text import split_lines
from lspd.workspace import Workspace
from lspd.workspace.files import read_text


def seen_all(
    ws: Workspace, results: list[FileResult], texts: dict[str, str | None]
) -> dict[str, FileSeen]:
    """Each result as the engine keeps it (its snippets read from `texts`, or the disk)."""
    kept: dict[str, FileSeen] = {}
    for result in results:
        lines: list[str] = []
        if result.diagnostics:
            path = result.path
            text = texts[path] if path in texts else read_text(absolute(ws, path))
            lines = split_lines(text or "")
        kept[result.path] = seen_of(result, lines)
    return kept


def absolute(ws: Workspace, shown: str) -> Path:
    """The file an answer's path names (relative to the root, or absolute outside it)."""
    path = Path(shown)
    return path if path.is_absolute() else ws.root / path
