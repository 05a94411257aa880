"""Asking the server where each use of a name is defined, for the unresolved scan: many at
once, within a deadline, remembered while nothing changes.

Each file is open only while its uses are asked (`DocumentSync.visiting`), `OPEN_FILES` at
once, `CONCURRENCY` definitions in flight: a single-threaded server then always has the
next question waiting. Most names cost a second or less (Django's `.filter`: 188 uses in 44
files), but a name as common as `get` (655 uses in 196 files) made basedpyright type
receiver after receiver for over a minute; past `DEADLINE_S` the questions left are not
asked, and the answer says how many (never a silently shorter list). In a daemon (a watcher
says when files change) the answers are kept until any file changes, so the next page, or
the same question again, asks only what was not answered yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from lspd.errors import LspdError
from lspd.lsp import answers, shapes
from lspd.lsp.documents import Document
from lspd.lsp.positions import to_units
from lspd.lsp.session import Session
from lspd.ops.convert import Converter
from lspd.ops.models import Location
from lspd.ops.uses import Use, dialect_for, find_uses
from lspd.workspace import Workspace

log = logging.getLogger(__name__)
_WORDS = re.compile(r"[\w$]+")

DEADLINE_S = 5.0  # for all the definitions of one question
CONCURRENCY = 16  # definitions asked at once: enough to keep a server busy between answers
OPEN_FILES = 8  # files held open for them at once
MAX_KEPT = 100_000  # answers remembered per workspace

Spot = tuple[Path, int, int]  # a use: file, line, column
Places = frozenset[tuple[str, int]]  # where a use is defined (path as shown, line)


@dataclass
class Answered:
    """Where each use asked is defined (empty: nowhere), with its source line."""

    places: dict[Spot, tuple[Places, str]] = field(default_factory=dict)
    unasked: int = 0  # uses left when the deadline came


@dataclass
class _Kept:
    changes: int
    places: dict[tuple[str, Spot], tuple[Places, str]] = field(default_factory=dict)


_kept: weakref.WeakKeyDictionary[Workspace, _Kept] = weakref.WeakKeyDictionary()


async def definitions(
    ws: Workspace, server: str, name: str, by_file: dict[Path, list[Use]], texts: dict[Path, str]
) -> Answered:
    """Where each use of `name` in `by_file` (found in `texts`) is defined, as far as the
    server answers within `DEADLINE_S`."""
    answered = Answered()
    changes = ws.changes_seen
    kept = _kept.get(ws)
    if changes is None or kept is None or kept.changes != changes or len(kept.places) > MAX_KEPT:
        kept = _Kept(-1 if changes is None else changes)
        if changes is not None:
            _kept[ws] = kept
    left: dict[Path, list[Use]] = {}
    for path, uses in by_file.items():
        for use in uses:
            known = kept.places.get((server, (path, use.line, use.column)))
            if known is not None:
                answered.places[(path, use.line, use.column)] = known
            else:
                left.setdefault(path, []).append(use)
    gates = (asyncio.Semaphore(OPEN_FILES), asyncio.Semaphore(CONCURRENCY))
    began = time.monotonic()
    tasks = [
        asyncio.create_task(_ask_file(ws, path, uses, texts[path], name, gates, answered))
        for path, uses in left.items()
    ]
    if tasks:
        _, pending = await asyncio.wait(tasks, timeout=DEADLINE_S)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                error = task.exception()
                if error is not None and not isinstance(error, LspdError):
                    raise error
                if error is not None:  # the file could not be opened (gone, unreadable)
                    log.warning("unresolved scan: %s", error)
    asked = sum(len(uses) for uses in left.values())
    answered.unasked = max(sum(len(u) for u in by_file.values()) - len(answered.places), 0)
    log.info(
        "unresolved: %d definitions of %s in %d files, %.2f s, %d not asked in time",
        asked,
        name,
        len(left),
        time.monotonic() - began,
        answered.unasked,
    )
    if changes is not None and kept.changes == changes:
        kept.places.update(((server, spot), found) for spot, found in answered.places.items())
    return answered


async def _ask_file(
    ws: Workspace,
    path: Path,
    uses: list[Use],
    text: str,
    name: str,
    gates: tuple[asyncio.Semaphore, asyncio.Semaphore],
    answered: Answered,
) -> None:
    """Ask the definitions of the file's uses, the file open meanwhile; each answer is
    recorded as it comes (the deadline may cut the rest)."""
    files, requests = gates
    async with files, ws.sync.visiting(path) as (session, document):
        if document.text != text:  # changed since the scan: where the uses are now
            dialect = dialect_for(document.language_id)
            wanted = {u.member for u in uses}
            found = find_uses(document.text, name, dialect) if dialect else []
            uses = [u for u in found if not (u.literal or u.keyword) and u.member in wanted]
        convert = Converter(ws, session.encoding)

        async def one(use: Use) -> None:
            async with requests:
                answer = await _definition(session, document, use)
            places = frozenset(
                (loc.path, loc.line)
                for loc in convert.locations(answer)
                if _declares(convert, loc, name)
            )
            line_text = document.lines[use.line - 1].strip()
            answered.places[(path, use.line, use.column)] = (places, line_text)

        await asyncio.gather(*(one(use) for use in uses))


def _declares(convert: Converter, location: Location, name: str) -> bool:
    """Whether the name stands in the definition's range (its first line): basedpyright
    answers a member of an unknown receiver inside a call's arguments with the function
    called (`{request.get_host()}` in `f(hosts=…)`: `def f`), or `__mod__` in a `%`
    operand; that ties the use to nothing."""
    ws = convert.ws
    full = Path(location.path) if location.path.startswith("/") else ws.root / location.path
    text = convert.line_text(full, location.line - 1)
    end = location.end_column - 1 if location.end_line == location.line else len(text)
    return name in _WORDS.findall(text[location.column - 1 : max(end, location.column)])


async def _definition(session: Session, document: Document, use: Use) -> shapes.Locations:
    """The server's definition of a use; None when it has none (or could not say: a use
    nobody can tie to a declaration is what the list is for)."""
    line_text = document.lines[use.line - 1]
    character = to_units(line_text, use.column - 1, session.encoding)
    params: shapes.PositionParams = {
        "textDocument": {"uri": document.uri},
        "position": {"line": use.line - 1, "character": character},
    }
    try:
        return await session.request(answers.DEFINITION, params)
    except LspdError as exc:
        log.warning("no definition for %s:%d:%d: %s", document.path, use.line, use.column, exc)
        return None
