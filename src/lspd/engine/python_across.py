"""A Python file's held text where another server process reads it: the servers that answer
its importers hold it too, while they are asked.

An overlay holds each file's text in the server that answers that file (`ws.session_for`),
and no text at all in basedpyright for a file mypy alone judges. A server reads every file
it does not hold from the disk. So where a script at the root (the root's basedpyright)
imports a module of a project under api/ with a server of its own (api/pyrightconfig.json,
api/.venv: another interpreter), or of a project mypy judges (api/pyproject.toml's
[tool.mypy]), HEAD's state and a preview held api/app/core.py's old text only in api's
process (or in mypy's copy): the script's error was read against the disk's new text, and
`check --baseline HEAD` said "0 new, 1 unchanged" where basedpyright's CLI says 0 errors at
HEAD and 1 now. Each server asked for a file importing such a module (by the import
statements of the files asked, transitively: `python_imports.importers`) now holds the
module's text too; its own document, if it had one, is given back afterwards. A file the
state makes exist or not is not this module's: the copy's (`engine/python_mirror.py`).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

from lspd.engine.python_affected import PYTHON
from lspd.engine.python_imports import importers, touched
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.workspace import Workspace
from lspd.workspace.files import read_text

Across = dict[Session, dict[Path, str]]  # a server -> the files it holds too, their texts


def across(ws: Workspace, files: list[Path], texts: Mapping[Path, str | None]) -> Across:
    """For each server answering a Python file of `files`, the Python files of `texts` held
    at another text than the disk's (both present) that it does not hold at that text and
    that one of its files of `files` imports, transitively: to hold there too."""
    changed = {
        path: text
        for path, text in texts.items()
        if path.suffix in PYTHON
        and text is not None
        and path.is_relative_to(ws.root)
        and (disk := read_text(path)) is not None
        and disk != text
    }
    if not changed:
        return {}
    by_session: dict[Session, list[Path]] = {}
    for path in files:
        if path.suffix in PYTHON and ws.handler(path) is not None:
            by_session.setdefault(ws.session_for(path), []).append(path)
    # One server process (the common case) holds each text already: no import is read (the
    # parse costs ~1-3 ms a file: 0.6-3 s for SQLAlchemy's 255, each held question).
    lacking = {p: t for p, t in changed.items() if not all(_holds(s, p, t) for s in by_session)}
    if not lacking:
        return {}
    names = {}
    for path in (p for asked in by_session.values() for p in asked):
        text = texts[path] if path in texts else read_text(path)
        names[path] = touched(ws.root, path, text or "")
    found: Across = {}
    for changed_path, text in lacking.items():
        seeing = importers(ws.root, [changed_path], names)
        for session, asked in by_session.items():
            if not seeing.intersection(asked) or _holds(session, changed_path, text):
                continue
            found.setdefault(session, {})[changed_path] = text
    return found


@contextlib.asynccontextmanager
async def held_across(
    ws: Workspace, files: list[Path], texts: Mapping[Path, str | None]
) -> AsyncIterator[None]:
    """While the block runs, the servers answering `files` hold the texts of `across`; then
    each such document is closed, or given its text before back (the server's own)."""
    before: list[tuple[Session, Path, str | None, str]] = []  # its own text then, if any
    try:
        for session, held in across(ws, files, texts).items():
            for path, text in held.items():
                document = session.documents.get(path_to_uri(path))
                language = session.definition.extensions[path.suffix.lower()]
                before.append((session, path, document.text if document else None, language))
                await session.sync_document(path, text, language, on_disk=False)
        yield
    finally:
        for session, path, then, language in reversed(before):
            if then is None:
                session.close_document(path)
            else:
                with contextlib.suppress(Exception):  # a server gone: nothing to give back
                    await session.sync_document(path, then, language, read_text(path) == then)


def _holds(session: Session, path: Path, text: str) -> bool:
    """Whether `session` holds `path` at `text`, or cannot (another language's server)."""
    if path.suffix.lower() not in session.definition.extensions:
        return True
    document = session.documents.get(path_to_uri(path))
    return document is not None and document.text == text
