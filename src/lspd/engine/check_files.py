"""The files of a whole-workspace check that their servers answer one by one (no builder
checks them): a few at a time, and a file the server did not answer asked again alone.

A check is a gate, not an interactive answer: each file may take `SCALE` times the
workspace's diagnostics timeout (20 s -> 120 s). On a busy machine a cold basedpyright
answers SQLAlchemy's first files only once it has loaded most of the project, behind the
files asked before them, and a 20 s timeout failed every one of them (the check answered
nothing, or lspd restarted the server for a file it had given up on). A file that timed out,
whose server crashed under it or refused it, is asked again once the others are answered,
alone, with `RETRY_SCALE` times the timeout; still unanswered, it is named in the check's
`skipped` ("not answered") and the others' results stand (a server that refused one file
failed the whole check). A server that is silent for good is the
stall watch's to restart (`lsp/stall.py`, restart_after), its file set aside.

The results are the caller's (`Answers`: `ops` makes each file's answer model, reusing the
last one while its server answers "unchanged"); the engine decides which file is asked of
which server, when, how long it may take, and which stay open.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from lspd.engine import second_server
from lspd.engine.yielding import Turn, free
from lspd.errors import InvalidInput, ServerError, ServerNotInstalled
from lspd.lsp import shapes
from lspd.lsp.lifecycle import never_started
from lspd.lsp.positions import Encoding
from lspd.lsp.session import Session
from lspd.workspace import Workspace
from lspd.workspace.files import read_source

log = logging.getLogger(__name__)

CONCURRENCY = 4  # files asked about at once: more only queues at a single-threaded server
SCALE = 6.0  # a file's timeout in a check, times the workspace's diagnostics timeout
RETRY_SCALE = 30.0  # the same, asked again alone
NOT_ANSWERED = "not answered"  # the start of the reason a file is skipped for
# ... and where its server cannot run here (not installed, dead at start): not asked again,
# and no reason not to keep a result without it (`engine/committed.py`: HEAD's)
NOT_CHECKED = "not checked"
R = TypeVar("R")
# Per file: the server's answer (`answer_of` its items; None: convert the next one anew)
# and the result the caller made of it.
Known = dict[Path, tuple[object, R]]


@dataclass(frozen=True)
class Said:
    """Who said a file's items, in its own terms: the server's name, its toolchain's label
    (None: the server's default), and the position encoding of the items' ranges."""

    server: str
    toolchain: str | None
    encoding: Encoding

    @classmethod
    def by(cls, session: Session) -> Said:
        """What `session` says: its server, toolchain and encoding."""
        return cls(session.name, session.toolchain, session.encoding)


class Answers(Protocol[R]):
    """How the caller makes a file's result (`ops`: its answer model)."""

    async def of_file(self, path: Path, known: Known[R] | None, timeout: float) -> R:
        """`path`'s result from its server, once it holds every change made before; with
        `known`, last time's result when the server answers with the very same items (then
        the new one is put in `known`). Raises InvalidInput for a file that is no readable
        source file, ServerTimeout or ServerCrashed when its server did not answer."""
        ...

    def of_items(self, said: Said, path: Path, items: list[shapes.Diagnostic]) -> R:
        """The result of `items`, what a server (a builder, a second server) said of `path`."""
        ...


@dataclass(frozen=True)
class Skipped:
    """A file of the check left without a result, and why (`NOT_ANSWERED`: its server did
    not answer it, asked again alone; else why it was set aside meanwhile)."""

    path: Path
    reason: str


async def ask_each(
    ws: Workspace,
    paths: list[Path],
    known: Known[R] | None,
    answers: Answers[R],
    tick: Callable[[], None],
    skipped: list[Skipped],
    renewed: Callable[[R], None] = lambda result: None,
    turn: Turn = free,
) -> list[R]:
    """The results of `paths` by `answers`; a file not answered is named in `skipped`. With
    `known` (a watcher keeps open documents in step with the disk), a pull server's files
    stay open: it answers "unchanged" for what an edit did not affect, and last time's
    result is reused (`Answers.of_file`); tsserver answers everything anew, so its files are
    closed again, as every file is without `known`. `renewed(result)` is told of each result
    in `known` replaced, as it comes. Each file is asked in a `turn` (`engine/yielding.py`)."""
    gate = asyncio.Semaphore(CONCURRENCY)
    failed: dict[Path, ServerError] = {}

    async def one(path: Path, scale: float) -> R | None:
        async with gate, turn():
            old = None if known is None else known.get(path)
            try:
                result = await _asked(ws, path, known, answers, ws.diagnostics_timeout * scale)
                if known is not None and known.get(path) is not old:
                    renewed(result)
                return result
            except InvalidInput:
                return None  # not a readable source file (binary, not UTF-8, a link leading out)
            except ServerError as exc:  # timed out, crashed, not installed, refused it
                failed[path] = exc
                return None
            finally:
                if scale == SCALE:
                    tick()

    # The files of a server that checks on one thread, when a second one may share them;
    # progress is ticked where a file is answered (`one`, `ask`), not by `ask_all`.
    sessions = shared_sessions(ws, paths)
    alone = [p for p in paths if p not in sessions]

    async def ask(server: Session, path: Path, timeout: float) -> R | None:
        if server is sessions[path]:
            return await one(path, SCALE)
        async with turn():
            result = await _asked_second(ws, server, path, answers, timeout)
        if result is not None and known is not None:
            known[path] = (None, result)  # the first server's next answer is converted anew
            renewed(result)
        tick()
        return result

    asking = asyncio.gather(*(one(p, SCALE) for p in alone))
    if sessions:
        shared, answered = await asyncio.gather(_shared_asked(ws, sessions, ask, known), asking)
    else:  # as it always was: no task more (a check of nothing ends in one turn of the loop)
        shared, answered = {}, await asking
    found = {**shared, **dict(zip(alone, answered, strict=True))}
    await _again(ws, failed, found, lambda path: one(path, RETRY_SCALE), skipped)
    return [r for r in (found[p] for p in paths) if r is not None]


async def _shared_asked(
    ws: Workspace,
    sessions: dict[Path, Session],
    ask: second_server.Ask[R | None],
    known: Known[R] | None,
) -> dict[Path, R | None]:
    """The files of `sessions` shared with a second server of each (`second_server`)."""
    scale = ws.diagnostics_timeout * SCALE
    checked_before = known is not None and any(p in known for p in sessions)
    return await second_server.ask_all(
        list(sessions), sessions, ask, (scale, scale), lambda: None, checked_before
    )


async def _again(
    ws: Workspace,
    failed: dict[Path, ServerError],
    found: dict[Path, R | None],
    one: Callable[[Path], Awaitable[R | None]],
    skipped: list[Skipped],
) -> None:
    """The files not answered asked again, alone now (no other file's work ahead of them),
    into `found`; those still not answered, or set aside, named in `skipped`."""
    if failed:
        log.info(
            "asking again, alone, %d file(s) not answered: %s",
            len(failed),
            ", ".join(ws.display(p) for p in sorted(failed)),
        )
    for path in sorted(failed):
        if ws.left_out.reason(path) is not None:
            continue  # set aside by a restart it caused: named below
        if _cannot_run(failed[path]):
            continue  # asked again, it would say the same: named below, the others stand
        del failed[path]
        found[path] = await one(path)
    for path, exc in failed.items():
        said = f"{NOT_CHECKED if _cannot_run(exc) else NOT_ANSWERED}: {exc}"
        skipped.append(Skipped(path, ws.left_out.set_aside(path) or said))


def _cannot_run(error: ServerError) -> bool:
    """Whether `error` says its server cannot run here: not installed, dead at start."""
    return isinstance(error, ServerNotInstalled) or never_started(error)


async def _asked(
    ws: Workspace, path: Path, known: Known[R] | None, answers: Answers[R], timeout: float
) -> R:
    was_open = ws.holds(path)
    handler = ws.handler(path)
    kept = known is not None and handler is not None and handler.diagnostics != "tsserver"
    try:
        known = known if kept else None  # closed files answer anew
        return await answers.of_file(path, known, timeout)
    finally:
        if not (was_open or kept):
            ws.close_document(path)


def shared_sessions(ws: Workspace, paths: list[Path]) -> dict[Path, Session]:
    """The files of `paths` whose server may share a check with a second one
    (`engine/second_server.py`: servers.toml's `second_server`), by their session; none when no
    such server is asked `SPLIT_AT` files."""
    # The server as it runs decides, not the one chosen for the language: a project on
    # TypeScript 7 is answered by its `tsc --lsp` (second_server), its handler is tsserver (no).
    # Looked up once per folder and extension, as `native_sessions` does.
    by_folder: dict[tuple[Path, str], Session | None] = {}
    found: dict[Path, Session] = {}
    for path in paths:
        if (path.parent, path.suffix) not in by_folder:
            handler = ws.handler(path)
            session = None if handler is None else ws.session_for(path)
            by_folder[path.parent, path.suffix] = session
        session = by_folder[path.parent, path.suffix]
        if session is not None and session.definition.second_server:
            found[path] = session
    if max(Counter(found.values()).values(), default=0) < second_server.SPLIT_AT:
        return {}
    return found


async def _asked_second(
    ws: Workspace, second: Session, path: Path, answers: Answers[R], timeout: float
) -> R | None:
    """`path`'s diagnostics from a second server, given the disk's text (None: not a
    readable source file)."""
    try:
        text = read_source(path, ws.display(path))
    except InvalidInput:
        return None
    language_id = second.definition.extensions[path.suffix.lower()]
    document = await second.sync_document(path, text, language_id)
    return answers.of_items(Said.by(second), path, await second.diagnostics(document, timeout))
