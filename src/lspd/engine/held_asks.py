"""The files a change can affect, asked while the servers hold texts never written (a
preview's proposal, the committed state's texts of the changed files): a few at a time, as a
whole check asks them, and shared with a second server of the project holding the same texts
when many are asked (`engine/second_server.py`).

Asked one after the other, the 2 files of an export changed in a core module of effect 4.1
(TypeScript 7) and the files naming it took 25.5 s to preview, where the whole check asked
the same files in 15.7 s, four at a time on two servers (bench/feedback.py, load 2).
TypeScript 7's files the servers do not hold are pulled without opening them, as the check
pulls them (`engine/native_check.py`): its server reads the disk and the texts it holds.
Until 7c6b933 they went to one server all the same (the server for `.ts` is tsserver, which
never shares; the one that runs, `tsc --lsp`, does): 20.55 s, the check 15.82 (quiet).
A state in which a Python file exists that the disk lacks, or not one it has, is asked of a
server rooted at a copy holding it (`engine/python_mirror.py`): basedpyright's imports
resolve from the disk only. A Python file held at another text is held too by the servers
asked for its importers, where another process answers it (`engine/python_across.py`).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.engine import check_files
from lspd.engine.check_files import CONCURRENCY, SCALE, Said
from lspd.engine.native_held import held_as_tsc
from lspd.engine.native_items import pulled
from lspd.engine.native_own import own_programs, program_of
from lspd.engine.native_reach import native_sessions
from lspd.engine.python_across import held_across
from lspd.engine.python_mirror import mirror_asked, mirrored
from lspd.engine.second_server import ask_all
from lspd.lsp import shapes
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri, split_lines
from lspd.workspace import Workspace
from lspd.workspace.files import read_source, read_text


@dataclass(frozen=True)
class Heard:
    """What a server said of one file in the held state: who said it, its items, and the
    file's lines as that server holds or reads them (for the positions and snippets)."""

    said: Said
    items: list[shapes.Diagnostic]
    lines: list[str]


async def held_asked(
    ws: Workspace, files: list[Path], texts: Mapping[Path, str | None]
) -> dict[Path, Heard]:
    """What the servers say of `files` (each present in the held state) while `texts` are
    held (the caller holds them: `workspace.overlay.overlaid`). Files opened here stay
    open: the caller closes what it opened."""
    # A file waits behind the others asked of its server (one thread): as a whole check's
    # files, it may take `SCALE` times the timeout (SQLAlchemy's schema.py, fourth in line
    # under load, passed 20 s in a signature change's preview).
    timeout = ws.diagnostics_timeout * SCALE
    heard: dict[Path, Heard] = {}
    if copied := mirrored(ws, files, texts):  # a Python file present here, not on disk or back
        asked = await mirror_asked(ws, copied, texts, timeout)
        heard = {path: Heard(*said) for path, said in asked.items()}
        files = [path for path in files if path not in heard]
    async with held_across(ws, files, texts):  # a module held in another server process
        return heard | await _asked_here(ws, files, texts, timeout)


async def _asked_here(
    ws: Workspace, files: list[Path], texts: Mapping[Path, str | None], timeout: float
) -> dict[Path, Heard]:
    """`held_asked`'s files asked of the workspace's own servers (not a copy's)."""
    heard: dict[Path, Heard] = {}
    gate = asyncio.Semaphore(CONCURRENCY)
    pulled = native_sessions(ws, files) if ws.changes_seen is not None else {}

    async def first(path: Path) -> Heard:
        async with gate:
            session = pulled.get(path)
            if session is not None and path_to_uri(path) not in session.documents:
                return await _pull(session, path, timeout)
            session, document = await ws.open(str(path), _held(texts, path))
            raw = await session.diagnostics(document, timeout)
            return Heard(Said.by(session), raw, document.lines)

    shared = check_files.shared_sessions(ws, files)

    async def ask(server: Session, path: Path, wait: float) -> Heard:
        if server is shared[path]:
            return await first(path)
        if path in pulled and path not in texts:  # the second server reads the disk too
            return await _pull(server, path, wait)
        text = _held(texts, path)
        if text is None:
            text = read_source(path, ws.display(path))
        language_id = server.definition.extensions[path.suffix.lower()]
        document = await server.sync_document(path, text, language_id, path not in texts)
        return Heard(Said.by(server), await server.diagnostics(document, wait), document.lines)

    alone = [p for p in files if p not in shared]
    # each program's first file alone: the server answers it from its own program
    own = {p: s for p in alone if (s := pulled.get(p)) and path_to_uri(p) not in s.documents}
    heard |= await own_programs(own, list(own), program_of(ws, own), _pull, timeout)
    alone = [p for p in alone if p not in heard]
    heard |= zip(alone, await asyncio.gather(*(first(p) for p in alone)), strict=True)
    if shared:  # a second server's first file waits for its load too
        # TypeScript 7's answers do not depend on the order: from both ends, as its check
        # (`native_check`); basedpyright's do: halves, each in the list's order.
        ends = all(p in pulled for p in shared)
        timeouts = (timeout, timeout)
        heard |= await ask_all(list(shared), shared, ask, timeouts, lambda: None, False, ends)
    # TypeScript 7's LSP says both kinds whatever the program's syntax: as tsc in this state
    natives = {p: (s, heard[p].items) for p, s in native_sessions(ws, list(heard)).items()}
    ruled = await held_as_tsc(ws, natives, texts) if natives else {}
    return heard | {p: dataclasses.replace(heard[p], items=items) for p, items in ruled.items()}


def _held(texts: Mapping[Path, str | None], path: Path) -> str | None:
    """The text held for `path` ("" for a file held gone), None for the disk's."""
    if path not in texts:
        return None
    return texts[path] or ""


async def _pull(session: Session, path: Path, timeout: float) -> Heard:
    """`path`'s diagnostics pulled from `session` without opening it (the disk's text)."""
    items = await pulled(session, path, timeout)
    return Heard(Said.by(session), items, split_lines(read_text(path) or ""))
