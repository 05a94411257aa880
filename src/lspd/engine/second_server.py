"""Asking many files of a server that checks on one thread: a second server of the same
project for the length of one check, on the other core.

TypeScript 7.0.2's LSP checks every pulled file on one checker (its pool keeps a single
"diagnostics checker" per project), and basedpyright checks on its one JavaScript thread, so
however many pulls are out at once a server uses one core: effect 4.1's cold check took 21
CPU seconds in 21 s of wall time where `tsc -p` spreads 4 checkers over both cores; a check
of SQLAlchemy after a signature change asks 245 files of basedpyright and took as long as
its whole CLI run. So when a check asks many files of a server whose definition says
`second_server` (servers.toml), and a second core is there, a second server of the same
project, with the same settings, answers part of them, dealt as pyright's own `--threads`
deals files to its workers: the first half of the list to the first server, the second half
to the second, each in the list's order, and a server done with its half takes the next
file of the other's; the second is stopped when both are empty, so nothing of it outlives
the check. Neighbours share imports, so each checker resolves fewer of the types the other
does (effect's 572 files in halves cost 25 CPU s in all, one file each in turn 33). Both load the
same program, and each takes its files in the list's order, as the project's checker does:
pyright's answers can depend on what it evaluated before (SQLAlchemy's orm/session.py:3694,
a reportArgumentType of its CLI, was lost when the second server took files from the end of
the list backwards; halves in order give the CLI's errors). TypeScript 7's answers do not
depend on it, and there the first server takes files from the front, the second from the
end backwards, until they meet (`from_ends`): effect 4.1's cold check took 0.98x `tsc -p`
so, 1.18-1.31x in halves (quiet runs; `tsc -p` itself varied 10.6-15.4 s between them).
Where lspd holds files of the session open with text that is not on disk (a preview's
proposal, the committed state's texts: `engine/held_asks.py`), the second server is given
those texts too before it is asked anything: it reads the disk for the rest, as the first.

A first server that has checked before is started afresh for such a check: until its new
checker has checked everything it would hold the old checked state too (TypeScript 7: the
old program's, ~1.7 GB on effect 4.1, and the Go heap's goal twice the live heap;
basedpyright drops its type cache on any edit, but V8 keeps the pages: 1.3 -> 2.0 GB on
SQLAlchemy), where a fresh one holds what a cold check does. Loading again costs a few CPU
seconds (basedpyright parses and binds SQLAlchemy's 480 files in ~5 s), on the core the
second server's load leaves free.

Keeping the warm server for such a check instead pays only where it checked every file
itself, in one pass, and that a shared cold check never leaves: on mcp 2.3.0 one server's
re-check of a signature change (101 files) took 12.5 CPU s, its RSS flat, where the first
server of a shared cold check asked alone took 55.8 CPU s and grew 1.65x even after it had
checked the second's files too, and the restart beside a second server 69.1; on SQLAlchemy
a re-check in its import cycle answers every file anew, warm or not (docs/design.md,
docs/benchmarks.md: measured, not adopted).
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from lspd.errors import ServerError
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.servers.install import install_on_need
from lspd.workspace.files import read_text

SPLIT_AT = 100  # files asked of one session from which a second server pays for its load
CONCURRENCY = 4  # files asked of each server at once
RUNNING = ("indexing", "ready")
R = TypeVar("R")
Ask = Callable[[Session, Path, float], Awaitable[R]]


async def ask_all(
    paths: list[Path],
    sessions: dict[Path, Session],
    ask: Ask[R],
    timeouts: tuple[float, float],
    answered: Callable[[], None],
    checked_before: bool,
    from_ends: bool = False,
) -> dict[Path, R]:
    """Each of `paths` asked of its session (`ask(session, path, timeout)`), or of that
    session's second server (a `ServerError` of the second: the first asks that file);
    `timeouts`: (a file's, the first file's of a server, which waits for its project to
    load); `checked_before`: whether the sessions have checked (then restarted, above);
    `from_ends`: the first server takes files from the front, the second from the end
    backwards, until they meet (for a server whose answers do not depend on the order)."""
    helpers = _helpers(paths, sessions)  # none outlives the check, cut short or not
    try:
        await _held_helpers(helpers)
        if checked_before:
            await asyncio.gather(*(s.stop() for s in helpers if s.state in RUNNING and not s.owes))
        await _open_all(paths, sessions, helpers)
        return await _dealt(paths, sessions, helpers, ask, timeouts, answered, from_ends)
    finally:
        await asyncio.gather(*(helper.stop() for helper in helpers.values()))


async def _dealt(
    paths: list[Path],
    sessions: dict[Path, Session],
    helpers: dict[Session, Session],
    ask: Ask[R],
    timeouts: tuple[float, float],
    answered: Callable[[], None],
    from_ends: bool,
) -> dict[Path, R]:
    """`ask_all`'s answers, its servers and their seconds started."""
    # Two queues, as pyright's own `--threads` deals files to its workers: the first half for
    # the first server, the second half for the second, each in the list's order; a server
    # whose queue is empty takes the other's next file. `from_ends`: one, the second from its end.
    middle = len(paths) // 2 if helpers and not from_ends else len(paths)
    queues = deque(paths[:middle]), deque(paths[middle:])

    def next_path(second: bool) -> Path:
        if second and from_ends:
            return queues[0].pop()
        return (queues[second] or queues[not second]).popleft()

    results: dict[Path, R] = {}
    answering: set[Session] = set()  # servers that have answered: their project is loaded

    async def worker(second: bool) -> None:
        while queues[0] or queues[1]:
            path = next_path(second)
            session = sessions[path]
            server = helpers.get(session, session) if second else session
            timeout = timeouts[0] if server in answering else timeouts[1]
            try:
                results[path] = await ask(server, path, timeout)
            except ServerError:
                if server is session:
                    raise
                queues[0].appendleft(path)  # the second server failed: the first asks it
                return
            answering.add(server)
            answered()

    # side by side: each worker takes its first file at once, the second server's too
    kinds = (False, True) if helpers else (False,)
    workers = [worker(second) for _ in range(CONCURRENCY) for second in kinds]
    await asyncio.gather(*workers)
    # what a failed second server had taken, once the first's workers had finished
    left = queues[0] or queues[1]
    await asyncio.gather(*(worker(False) for _ in range(CONCURRENCY if left else 0)))
    return results


async def _open_all(
    paths: list[Path], sessions: dict[Path, Session], helpers: dict[Session, Session]
) -> None:
    """Every file in each server, the first and its second, before any is asked (`_opened`);
    a second that fails to start is stopped and left out of `helpers`, as in `ask_all`."""
    firsts = dict.fromkeys(sessions[p] for p in paths)
    servers = [(s, [p for p in paths if sessions[p] is s]) for s in firsts]
    seconds = [(s, helpers[s], files) for s, files in servers if s in helpers]
    opened = [_opened(server, files) for server, files in servers]
    opened += [_opened(helper, files) for _, helper, files in seconds]
    done = await asyncio.gather(*opened, return_exceptions=True)
    failures = [f for f in done[: len(servers)] if isinstance(f, BaseException)]
    for (first, helper, _), failed in zip(seconds, done[len(servers) :], strict=True):
        if isinstance(failed, ServerError):
            await helper.stop()
            del helpers[first]
        elif isinstance(failed, BaseException):
            failures.append(failed)
    if failures:  # (the seconds left are stopped by `ask_all`)
        raise failures[0]


async def _opened(server: Session, paths: list[Path]) -> None:
    """Each of `paths` a Python server does not hold opened at the disk's text before any
    is asked, as basedpyright's CLI makes every included file before it checks one. Its LSP
    (openFilesOnly) tracks no file: one it first makes for another file's import stays as
    made when opened later (`setFileOpened`: not tracked, a library's file where the import
    went through site-packages), and such files' errors went unreported, by the order and
    timing of the asks. mcp 2.3.0 (its editable install's .pth, extraPaths set, 11
    sub-projects as workspace folders): after a signature change was undone, the second
    server answered stdio.py and the four files importing it with their hints and none of
    their 6 errors (`diagnostics` of the file, asked alone, had them): 6 "fixed" on a clean
    tree, then the change's 2 new errors unseen."""
    if server.definition.language != "python":
        return
    for path in paths:
        language_id = server.definition.extensions.get(path.suffix.lower())
        if path_to_uri(path) in server.documents or language_id is None:
            continue
        if (text := read_text(path)) is not None:  # an unreadable file: left to its ask
            await server.sync_document(path, text, language_id)


def _helpers(paths: list[Path], sessions: dict[Path, Session]) -> dict[Session, Session]:
    """A second server for each session with `SPLIT_AT` files or more that can share them."""
    per_session = Counter(sessions[path] for path in paths)
    return {s: second_of(s) for s, n in per_session.items() if n >= SPLIT_AT and can_split(s)}


def can_split(session: Session) -> bool:
    """A server that checks on one thread, and a second core."""
    return session.definition.second_server and (os.cpu_count() or 1) >= 2


async def _held_helpers(helpers: dict[Session, Session]) -> dict[Session, Session]:
    """`helpers` started, each holding what its first server holds (`_hold_as`); one that
    fails to start is stopped and left out: its first server asks its files."""
    held = await asyncio.gather(
        *(_hold_as(first, helper) for first, helper in helpers.items()), return_exceptions=True
    )
    for (first, helper), failed in zip(list(helpers.items()), held, strict=True):
        if isinstance(failed, BaseException):
            if not isinstance(failed, ServerError):
                await asyncio.gather(*(h.stop() for h in helpers.values()))
                raise failed
            await helper.stop()
            del helpers[first]
    return helpers


async def _hold_as(first: Session, helper: Session) -> None:
    """The texts `first` holds that the disk does not have, held by `helper` too."""
    for document in list(first.documents.values()):
        if read_text(document.path) != document.text:
            await helper.sync_document(
                document.path, document.text, document.language_id, on_disk=False
            )


def second_of(session: Session) -> Session:
    """A second server of `session`'s projects, as it runs (its settings, its toolchain),
    logging beside it."""
    helper = Session(
        session.definition,
        session.root,
        session.log_path.parent / "second",
        request_timeout=session.request_timeout,
        toolchain=session.toolchain,
        prepare=install_on_need,  # started beside its first: waits for the first's install
    )
    for folder in session.folders:
        helper.add_folder(folder)
    return helper
