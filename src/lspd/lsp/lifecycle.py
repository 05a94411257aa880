"""A language server's process as a session runs it: started (installed if need be,
spawned, initialized, its toolchain settled), watched until it dies, stopped; its requests
sent as they are (their positions moved where tsserver counts lines otherwise). `Session`
(`lsp/session.py`) adds the conversation: documents, their diagnostics, and questions asked
again after a restart."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lspd.errors import ServerCrashed, ServerError, ServerNotInstalled
from lspd.lsp import answers, diagnostics, ecmascript_lines, requests, stall
from lspd.lsp.answers import P, Request, T
from lspd.lsp.capabilities import initialize_params
from lspd.lsp.configuration import Configuration
from lspd.lsp.documents import Documents
from lspd.lsp.folders import Folders
from lspd.lsp.positions import Encoding
from lspd.lsp.process import server_env
from lspd.lsp.readiness import Readiness
from lspd.lsp.rpc import ConnectionClosed, RequestTimeout, RpcError
from lspd.lsp.server_process import ServerProcess
from lspd.lsp.state import ServerState
from lspd.servers.registry import ServerDefinition

log = logging.getLogger(__name__)


class ServerLifecycle:
    """A language server process, started again after a crash by the next `start`.

    `prepare` runs before each start (to install a missing server), `settle` as the process
    starts: the server from `initialized` on, its toolchain's label.
    """

    def __init__(
        self,
        definition: ServerDefinition,
        root: Path,
        log_dir: Path,
        request_timeout: float = 30.0,
        start_timeout: float = 60.0,
        toolchain: str | None = None,
        prepare: Callable[[ServerDefinition], Awaitable[None]] | None = None,
        settle: Callable[[], Awaitable[tuple[ServerDefinition, str]]] | None = None,
        watch: stall.Stall | None = None,
    ) -> None:
        self.definition = definition
        self._folders = Folders(root)
        # The project's toolchain it runs, as a user reads it: "typescript 5.4.5, project".
        self.toolchain, self.root = toolchain, root
        self.log_path = log_dir / f"{definition.name}.log"
        self.request_timeout = request_timeout
        self.start_timeout = start_timeout
        self.state: ServerState = "stopped"
        self.encoding: Encoding = "utf-16"
        self.capabilities: dict[str, Any] = {}
        self.info: dict[str, Any] = {}  # its `serverInfo` (name, version), if it sends one
        self.documents = Documents()  # what it holds open: gone with its process
        self.registrations = requests.Registrations(root)
        self.configuration = Configuration(definition.settings, root)  # pushed if not pulled
        self._prepare, self._settle = prepare, settle
        self._server: ServerProcess | None = None  # while it runs (or what is left of it)
        self._start_lock = asyncio.Lock()
        # Ready when the server says so, the way its definition (as it runs) says it does.
        self._readiness = Readiness(
            definition.name, lambda: self.definition.ready, definition.ready_pattern
        )
        progress = self._readiness.progress  # what it has sent: diagnostics, and its progress
        self.inbox = diagnostics.Inbox(definition, self.log_path, progress, self._down)
        self.environment: str | None = None  # how to fix its unresolved imports, once seen
        self.last_used = time.monotonic()
        self._crash_reason: str | None = None
        self._warned: str | None = None  # the last end warned of: the same again is told once
        self.starts, self.started_at = 0, time.monotonic()  # processes started, the last when
        self._watch_task: asyncio.Task[None] | None = None
        self.stall = watch or stall.Stall(definition.name)  # busy, then restarted

    @property
    def name(self) -> str:
        """The server's name (servers.toml), as it runs now."""
        return self.definition.name

    @property
    def pid(self) -> int | None:
        """Its process's id while it runs."""
        return None if self._server is None else self._server.pid

    @property
    def owes(self) -> bool:
        """Whether it owes an answer to a request (stopping it now would fail that)."""
        connection = None if self._server is None else self._server.connection
        return connection is not None and connection.oldest_owed() is not None

    def busy(self, waiting: bool = True) -> stall.Busy | None:
        """What it is stuck on, when it has answered nothing for a while (`lsp/stall.py`)."""
        connection = None if self._server is None else self._server.connection
        return stall.busy(connection, self.stall.busy_after, waiting)

    def _down(self) -> str | None:
        """Why the server is not running (None while it is)."""
        if self.state in ("indexing", "ready"):
            return None
        return self._crash_reason or f"{self.name} is not running"

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Start and initialize the server unless it is already running."""
        async with self._start_lock:
            if self.state in ("starting", "indexing", "ready"):
                return
            try:
                await self._start()
            except asyncio.CancelledError:  # cut short: never a server left un-`initialized`
                await self._stop()  # the next call starts it afresh
                raise

    async def _start(self) -> None:
        if self._prepare is not None:
            await self._prepare(self.definition)
        missing = self.definition.missing()
        if missing is not None:
            hint = self.definition.install_hint()
            how = f"install it with: {hint}" if hint else "install it and make it reachable"
            raise ServerNotInstalled(
                self.name, f"language server {self.name} is not available ({missing}); {how}"
            )
        if self._server is not None:  # what is left of a crashed server: reap it
            await self._stop()
        self.state = "starting"
        self.starts, self.started_at = self.starts + 1, time.monotonic()
        self._reset()
        env = server_env(self.definition.resolved_env())
        command = self.definition.resolved_command()
        settling = asyncio.ensure_future(self._settle()) if self._settle else None
        log.info("starting %s: %s", self.name, " ".join(command))
        try:
            server = await ServerProcess.spawn(
                self.name,
                command,
                self.root,
                env,
                self.log_path,
                self._on_request,
                self._on_notification,
            )
        except ServerNotInstalled:
            self.state = "crashed"
            raise
        self._server, connection = server, server.connection
        self._watch_task = asyncio.create_task(self._watch(server))
        try:
            result = await self.send(
                "initialize",
                initialize_params(
                    self.root, self.folders, self.definition.resolved_initialization_options()
                ),
                timeout=self.start_timeout,
            )
        except ServerError:
            await self._stop()
            self.state = "crashed"
            raise
        self.capabilities = dict(result.get("capabilities", {})) if result else {}
        self.info = dict(result.get("serverInfo") or {}) if result else {}
        encoding = self.capabilities.get("positionEncoding", "utf-16")
        self.encoding = encoding if encoding in ("utf-8", "utf-16", "utf-32") else "utf-16"
        if settling is not None:
            self.definition, self.toolchain = await settling
        if self.state != "starting":  # it died meanwhile: `_watch` says why, start() again
            raise ServerCrashed(self.name, self._crash_reason or f"{self.name} stopped")
        connection.notify("initialized", {})
        self.configuration.initialized(self.definition.settings, connection.notify, connection)
        self.state = "indexing"
        self._readiness.initialized()

    @property
    def folders(self) -> list[Path]:
        """The projects it serves as workspace folders."""
        return self._folders.paths

    def _reset(self) -> None:
        """A new start: nothing of the last one holds."""
        self._folders.reset()
        self.documents.clear()
        self.registrations.clear()
        self.inbox.reset()
        self._readiness.reset()
        self._crash_reason = None
        self.stall.killed = None

    async def _watch(self, server: ServerProcess) -> None:
        """Notice the server's death (or its connection's) and fail everything pending."""
        exit_wait = await server.ended(self.stall)
        if self._server is not server or self.state == "stopped":
            exit_wait.cancel()
            return
        starting = self.state == "starting"
        self._crash_reason = _ended(server, self.definition, self.stall.killed, starting)
        self._crash_reason += f"its log is {self.log_path}"
        again, self._warned = self._crash_reason == self._warned, self._crash_reason
        stall.note(self.log_path, self._crash_reason, logging.INFO if again else logging.WARNING)
        self.state = "crashed"
        server.connection.close(self._crash_reason)
        self._readiness.ended()
        self.inbox.event.set()  # wake whoever waits for diagnostics
        if self.stall.killed is not None:  # started again at once: questions wait behind it
            stall.restart(self.start)

    async def stop(self, polite: bool = True) -> None:
        """Shut the server down (`polite`: asked first), then make sure nothing is left."""
        async with self._start_lock:  # a start waits for it: never a stop clearing a new process
            await self._stop(polite)

    async def _stop(self, polite: bool = True) -> None:
        server = self._server
        was_running = polite and self.state in ("indexing", "ready")
        self.state = "stopped"
        if server is None:
            return
        await server.stop(polite=was_running)
        if self._watch_task is not None:
            self._watch_task.cancel()
        self._server = None
        self.documents.clear()

    async def send(self, method: Request[P, T], params: P, timeout: float) -> T:
        """Send without waiting for readiness (for use once the caller has waited)."""
        connection = None if self._server is None else self._server.connection
        if connection is None or self.state in ("crashed", "stopped"):
            raise ServerCrashed(self.name, self._crash_reason or f"{self.name} is not running")
        try:
            answer = await _asked(connection, str(method), params, timeout, self)
        except RequestTimeout as exc:
            raise stall.timed_out(self, exc) from None
        except ConnectionClosed as exc:
            # The connection notices first (end of output, garbage); let the watcher find out
            # why (exit code) and mark the session crashed, so that the next call restarts it.
            if self._watch_task is not None and not self._watch_task.done():
                await asyncio.wait({self._watch_task}, timeout=2.0)
            raise ServerCrashed(
                self.name, self._crash_reason or f"language server {self.name} stopped: {exc}"
            ) from None
        except RpcError as exc:
            raise ServerError(self.name, f"{self.name} refused {method}: {exc.message}") from None
        return answers.checked(self.name, method, answer, self.log_path)

    def notify(self, method: str, params: Any) -> None:
        """Send a notification while it runs (nothing otherwise: a start tells it all)."""
        if self._server is not None:
            self._server.connection.notify(method, params)

    async def wait_ready(self, timeout: float | None = None) -> None:
        """Wait until the server answers completely, not partially while it loads the project.

        How a server shows it has loaded is data (`ready` in servers.toml): a log line, its
        first diagnostics, or the end of its work-done progress. Past `timeout` we go on and
        the answer is the server's best.
        """
        if self.state == "indexing":
            if self.definition.ready == "diagnostics" and not self.documents:
                return  # it loads a project only once a file is open
            await self._readiness.wait(timeout or self.start_timeout)
            if self.state == "indexing":
                self.state = "ready"
        if self.state == "crashed":
            raise ServerCrashed(self.name, self._crash_reason or f"{self.name} crashed")

    # -- what the server sends us ----------------------------------------------------------

    async def _on_request(self, method: str, params: Any) -> Any:
        """Answer the server's request: its configuration, its registrations (`requests`)."""
        self._readiness.requested(method, params)
        return requests.answer(method, params, self.configuration, self.registrations)

    def _on_notification(self, method: str, params: Any) -> None:
        """Take in a notification: the session does (`Session._on_notification`)."""


# LSP's ServerCancelled and ContentModified: the server dropped the request for a newer state
# of its documents (ty cancels a pulled diagnostic so): the answer is asked again.
DROPPED = (-32802, -32801)
RETRIES = 5  # after 0.1, 0.2, 0.4, 0.8, 1.6 s: a server busy loading cancels for a while


async def _asked(
    connection: Any, method: str, params: Any, timeout: float | None, server: ServerLifecycle
) -> Any:
    """`connection.request`, asked again (at most `RETRIES` times) when the server dropped it;
    its positions moved to tsserver's lines and back where it counts lines otherwise."""
    lines = ecmascript_lines.of_request(server.definition, method, params, server.documents)
    if lines is not None:
        params = lines.sent(params)
    for attempt in range(RETRIES + 1):
        try:
            answer = await connection.request(method, params, timeout)
            return answer if lines is None else lines.answered(answer)
        except RpcError as exc:
            if exc.code not in DROPPED or attempt == RETRIES:
                raise
        await asyncio.sleep(0.1 * 2**attempt)
    raise AssertionError("unreachable")


COULD_NOT_START = "could not start"  # how `_ended` tells a server dead before `initialize`


def never_started(error: Exception) -> bool:
    """Whether `error` is a server's that ended before it answered `initialize` (its
    executable missing behind rustup's proxy, a crash at start): asked again, the same."""
    return isinstance(error, ServerCrashed) and f" {COULD_NOT_START}: " in str(error)


def _ended(
    server: ServerProcess, definition: ServerDefinition, killed: str | None, starting: bool
) -> str:
    """Why `server` ended, as a user reads it: `killed` by the stall watch, dead before it
    answered `initialize` (`starting`: what it said says why, and how to install it), or
    crashed."""
    why, name = server.why_ended(), definition.name
    if killed is not None:
        return f"language server {killed}; "
    if starting:
        said, hint = server.said(), definition.install_hint()
        return (
            f"language server {name} {COULD_NOT_START}: {why} before answering `initialize`"
            f"{f' ({said})' if said else ''}"
            f"{f'; is it installed? install it with: {hint}' if hint else ''}; "
        )
    return f"language server {name} crashed: {why}. It restarts on the next request; "
