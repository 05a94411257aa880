"""A server that answers nothing while callers wait: reported busy, then restarted.

basedpyright works through one file at a time on one thread: a generated module of 200,000
lines keeps it 1-2 minutes, and every question behind it waits; `$/cancelRequest` is not
read until it is done (measured, also with pyright's file-based cancellation). So lspd
watches each connection: silent for `busy_after` s while a caller waits, the server is
`busy`, stuck on the oldest request it owes (its file named in status and in timeouts);
silent for `restart_after` s, it is killed and started again, and that file is set aside
(the workspace's `on_wedged`) so that no workspace-wide work sends it again. Questions about
other files that were waiting are asked again of the new server (`Session.request`).

Nothing polls while nobody waits: the watch sleeps on the connection's `waiting` event; a
request unanswered for over a second has it look again each second (limits may change).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from lspd.errors import ServerCrashed, ServerTimeout
from lspd.lsp.documents import Documents
from lspd.lsp.rpc import JsonRpcConnection, Sent
from lspd.lsp.text import path_to_uri, uri_to_path

T = TypeVar("T")

log = logging.getLogger(__name__)

BUSY_AFTER_S = 10.0  # silent this long while a caller waits: reported busy
RESTART_AFTER_S = 60.0  # silent this long: restarted, its file set aside
_STARTING = {"initialize", "shutdown"}  # requests of a start or stop
ASKED = 3  # times a question is asked when restarts for other files' sake end its server


@dataclass(frozen=True)
class Busy:
    """What a silent server is stuck on, and for how long."""

    seconds: float
    method: str
    path: Path | None

    def on(self, display: Callable[[Path], str] = str) -> str:
        """The request it is stuck on, and its file."""
        return self.method if self.path is None else f"{self.method} {display(self.path)}"

    def describe(self, display: Callable[[Path], str] = str) -> str:
        return f"answering nothing for {self.seconds:.0f} s, working on {self.on(display)}"


def path_of(params: Any) -> Path | None:
    """The file a request is about: its `textDocument`, or the file of a tsserver request."""
    if not isinstance(params, dict):
        return None
    document = params.get("textDocument")
    if isinstance(document, dict) and isinstance(document.get("uri"), str):
        return uri_to_path(document["uri"])
    arguments = params.get("arguments")
    if isinstance(arguments, list) and len(arguments) > 1 and isinstance(arguments[1], dict):
        file = arguments[1].get("file")
        return Path(file) if isinstance(file, str) else None
    return None


def busy(
    connection: JsonRpcConnection | None, busy_after: float, waiting: bool = True
) -> Busy | None:
    """What the server is stuck on, once it has been silent `busy_after` s while a caller
    waits (or, not `waiting`, since it was sent what it owes); None otherwise."""
    oldest = None if connection is None else connection.oldest_owed()
    if connection is None or oldest is None:
        return None
    silent = connection.silent_for()
    if not waiting:
        silent = time.monotonic() - max(connection.last_answer, oldest.at)
    if silent is None or silent < busy_after:
        return None
    return _busy(silent, oldest)


def _busy(silent: float, sent: Sent) -> Busy:
    return Busy(silent, sent.method, path_of(sent.params))


class Stall:
    """The watch over one session's connections; `restarts` counts the restarts it made."""

    def __init__(
        self,
        name: str,
        busy_after: float = BUSY_AFTER_S,
        restart_after: float = RESTART_AFTER_S,
        on_wedged: Callable[[Path, str], None] | None = None,
        display: Callable[[Path], str] = str,
    ) -> None:
        self.name = name
        self.display = display  # a path as the user reads it
        self.busy_after = busy_after
        self.restart_after = restart_after
        self.on_wedged = on_wedged
        self.restarts = 0
        self.culprit: Path | None = None  # the file of the last restart
        self.reason: str | None = None  # why it was last restarted
        self.killed: str | None = None  # why the running server was killed (until it starts)

    def spared(self, since: int, path: Path | None) -> bool:
        """Whether a request about `path` that failed was waiting behind another file when
        a restart (after `since` restarts) ended the server: then it is asked again."""
        return self.restarts > since and path != self.culprit

    async def watch(self, connection: JsonRpcConnection, kill: Callable[[], None]) -> None:
        """Until the connection closes: kill the server (`kill()`, `killed` says why) once
        it has been silent `restart_after` s while a caller waits, or `busy_after` s when
        what it is stuck on was given up by its caller (a timeout: nobody wants that answer,
        and every question behind it waits)."""
        while connection.close_reason is None:
            await connection.waiting.wait()
            silent, oldest = connection.silent_for(), connection.oldest_owed()
            if connection.close_reason is not None:
                return
            if silent is None or oldest is None:  # answered meanwhile; never spin
                await asyncio.sleep(min(self.busy_after, 1.0))
                continue
            limit = self.busy_after if oldest.abandoned else self.restart_after
            # A start or a stop is never cut short here: its own timeout covers it.
            starting = any(sent.method in _STARTING for sent in connection.owed.values())
            if starting or silent < limit:
                connection.gave_up.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        connection.gave_up.wait(), min(max(limit - silent, 0.1), 1)
                    )
                continue
            self._restarted(_busy(silent, oldest), silent, kill)
            return

    def _restarted(self, stuck: Busy, silent: float, kill: Callable[[], None]) -> None:
        self.restarts += 1
        self.culprit = stuck.path
        self.reason = (
            f"{self.name} answered nothing for {silent:.0f} s, working on "
            f"{stuck.on(self.display)}; lspd restarted it "
            f"(busy_after = {self.busy_after:g} s, restart_after = {self.restart_after:g} s "
            "in lspd.toml)"
        )
        if self.culprit is not None and self.on_wedged is not None:
            self.on_wedged(self.culprit, self.reason)
        self.killed = self.reason
        kill()


class Named(Protocol):
    """A server as an error names it: its name and its log."""

    @property
    def name(self) -> str: ...
    @property
    def log_path(self) -> Path: ...


class Stuck(Named, Protocol):
    """What `timed_out` uses of a session's server (`lsp/lifecycle.py`): a protocol, so
    that this module need not import it, which imports this one."""

    @property
    def stall(self) -> Stall: ...
    def busy(self, waiting: bool = True) -> Busy | None: ...


class Watched(Stuck, Protocol):
    """What `asked` uses of a session (`lsp/session.py`)."""

    @property
    def documents(self) -> Documents: ...
    async def start(self) -> None: ...
    async def sync_document(
        self, path: Path, text: str, language_id: str, on_disk: bool = True
    ) -> object: ...
    async def wait_ready(self, timeout: float | None = None) -> None: ...


async def asked(session: Watched, path: Path | None, ask: Callable[[], Awaitable[T]]) -> T:
    """`ask()`; asked again of the new server, holding `path`'s document again, when it was
    waiting behind another file that got the server restarted (up to `ASKED` times: each
    restart sets another heavy file aside)."""
    held = None if path is None else session.documents.get(path_to_uri(path))
    for attempt in range(1, ASKED + 1):
        restarts = session.stall.restarts
        try:
            return await ask()
        except ServerCrashed:
            if attempt == ASKED or not session.stall.spared(restarts, path):
                raise
        await session.start()
        if held is not None:
            await session.sync_document(held.path, held.text, held.language_id, held.on_disk)
        await session.wait_ready()
    raise AssertionError("unreachable")  # the last attempt returned or raised


_STARTS: set[asyncio.Task[None]] = set()  # restarts under way (a task needs a reference)


def restart(start: Callable[[], Awaitable[None]]) -> None:
    """`start` a session again, in the background (a start that fails is told by the next
    call)."""

    async def started() -> None:
        with contextlib.suppress(Exception):
            await start()

    task = asyncio.create_task(started())
    _STARTS.add(task)
    task.add_done_callback(_STARTS.discard)


def timed_out(session: Stuck, exc: Exception) -> ServerTimeout:
    """The error of a request that got no answer in time: what the server is stuck on, and
    its log (which holds this line too)."""
    stuck = session.busy(waiting=False)  # its caller has just given up
    why = "It may still be indexing; try again"
    if stuck is not None:
        why = (
            f"It has been {stuck.describe(session.stall.display)} (busy; lspd restarts it past "
            f"restart_after = {session.stall.restart_after:g} s)"
        )
    message = f"language server {session.name} timed out: {exc}. {why}"
    note(session.log_path, message, logging.INFO)  # the caller hears of it: no warning
    return ServerTimeout(session.name, f"{message}; its log is {session.log_path}")


def note(log_path: Path, line: str, level: int = logging.WARNING) -> None:
    """Log `line` in lspd's log and in the server's (beside what the server writes there)."""
    log.log(level, line)
    with contextlib.suppress(OSError):
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with log_path.open("a", encoding="utf-8") as out:
            out.write(f"[lspd {time.strftime('%H:%M:%S')}] {line}\n")
