"""One running language server: start, initialize, documents, diagnostics, crash, shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lspd.errors import ServerCrashed, ServerError, ServerNotInstalled
from lspd.lsp import answers, diagnostics, requests, shapes, stall
from lspd.lsp.answers import P, Request, T
from lspd.lsp.capabilities import initialize_params
from lspd.lsp.configuration import Configuration
from lspd.lsp.document_diagnostics import of_document
from lspd.lsp.documents import Document, Documents
from lspd.lsp.folders import Folders
from lspd.lsp.positions import Encoding
from lspd.lsp.process import exited, kill_group, spawn
from lspd.lsp.progress import Progress
from lspd.lsp.rpc import ConnectionClosed, JsonRpcConnection, RequestTimeout, RpcError
from lspd.lsp.state import ServerState
from lspd.lsp.text import path_to_uri, uri_to_path
from lspd.servers.registry import ServerDefinition

log = logging.getLogger(__name__)

PROGRESS_GRACE_S = 0.3  # readiness by progress: ready if no progress begins this soon


class Session:
    """A language server process and the LSP conversation with it.

    A crashed session fails its pending requests at once and is started afresh by the
    next call to `start`. `prepare` runs before each start (to install a missing server),
    `settle` as the process starts: the server from `initialized` on, its toolchain's label.
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
        self.environment: str | None = None  # how to fix its unresolved imports, once seen
        self.log_path = log_dir / f"{definition.name}.log"
        self.request_timeout = request_timeout
        self.start_timeout = start_timeout
        self.state: ServerState = "stopped"
        self.pid: int | None = None
        self.encoding: Encoding = "utf-16"
        self.capabilities: dict[str, Any] = {}
        self.documents = Documents()
        self.registrations = requests.Registrations(root)
        self.configuration = Configuration(definition.settings, root)  # pushed if not pulled
        self.last_used = time.monotonic()
        self._prepare, self._settle = prepare, settle
        self._process: asyncio.subprocess.Process | None = None
        self._connection: JsonRpcConnection | None = None
        self._start_lock = asyncio.Lock()
        self._progress = Progress()
        self.inbox = diagnostics.Inbox(definition.name, self.log_path, self._progress, self._down)
        self._ready = asyncio.Event()
        self._ready_pattern = re.compile(definition.ready_pattern or "(?!)")  # (?!): never
        self._crash_reason: str | None = None
        self._watch_task: asyncio.Task[None] | None = None
        self.stall = watch or stall.Stall(definition.name)  # busy, then restarted

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def display_state(self) -> ServerState:
        if self.state in ("indexing", "ready") and self.busy() is not None:
            return "busy"
        if self.state == "ready" and not self._progress.idle.is_set():
            return "indexing"
        return self.state

    def busy(self, waiting: bool = True) -> stall.Busy | None:
        """What it is stuck on, when it has answered nothing for a while (`lsp/stall.py`)."""
        return stall.busy(self._connection, self.stall.busy_after, waiting)

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
        if self._process is not None:  # what is left of a crashed server: reap it
            await self._stop()
        self.state = "starting"
        self._reset()
        env = {**os.environ, **self.definition.env}
        command = self.definition.resolved_command()
        settling = asyncio.ensure_future(self._settle()) if self._settle else None
        log.info("starting %s: %s", self.name, " ".join(command))
        try:
            process = await spawn(command, self.root, env, self.log_path)
        except OSError as exc:
            self.state = "crashed"
            raise ServerNotInstalled(self.name, f"cannot start {self.name}: {exc}") from None
        assert process.stdout is not None and process.stdin is not None
        self._process = process
        self.pid = process.pid
        connection = JsonRpcConnection(
            process.stdout, process.stdin, self._on_request, self._on_notification
        )
        self._connection = connection
        connection.start()
        self._watch_task = asyncio.create_task(self._watch(process, connection))
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
        encoding = self.capabilities.get("positionEncoding", "utf-16")
        self.encoding = encoding if encoding in ("utf-8", "utf-16", "utf-32") else "utf-16"
        if settling is not None:
            self.definition, self.toolchain = await settling
        if self.state != "starting":  # it died meanwhile: `_watch` says why, start() again
            raise ServerCrashed(self.name, self._crash_reason or f"{self.name} stopped")
        connection.notify("initialized", {})
        self.configuration.initialized(self.definition.settings, connection.notify)
        self.state = "indexing"
        if self.definition.ready == "progress":
            asyncio.get_running_loop().call_later(PROGRESS_GRACE_S, self._ready_if_idle)

    def add_folder(self, folder: Path) -> None:
        """Serve another project too: a workspace folder, told at once to a running server
        that takes folder changes (the pyright family, gopls), else at its next start."""
        running = self.state in ("indexing", "ready") and self._connection is not None
        self._folders.add(folder, self.capabilities if running else None, self.notify)

    async def wait_loaded(self, path: Path, timeout: float | None = None) -> None:
        """Once a file of `path`'s project is open: wait until the server has loaded that
        project (its first diagnostics there), for servers whose readiness shows that way."""
        if self.definition.ready == "diagnostics":
            await self._folders.wait_loaded(path, timeout or self.start_timeout, self.name)

    @property
    def folders(self) -> list[Path]:
        """The projects it serves as workspace folders."""
        return self._folders.paths

    def _reset(self) -> None:
        self._folders.reset()
        self.documents.clear()
        self.registrations.clear()
        self.inbox.reset()
        self._progress.reset()
        self._ready.clear()
        self._crash_reason = None
        self.stall.killed = None

    async def _watch(
        self, process: asyncio.subprocess.Process, connection: JsonRpcConnection
    ) -> None:
        """Notice the server's death (or its connection's) and fail everything pending."""
        exit_wait = asyncio.create_task(exited(process))  # an event, never polled
        closed_wait = asyncio.create_task(connection.closed.wait())
        kill = lambda: kill_group(process.pid)  # noqa: E731 - stuck too long: restarted below
        stall_wait = asyncio.create_task(self.stall.watch(connection, kill))
        await asyncio.wait({exit_wait, closed_wait}, return_when=asyncio.FIRST_COMPLETED)
        if not exit_wait.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(exit_wait), 0.5)
        closed_wait.cancel()
        stall_wait.cancel()
        if self._process is not process or self.state == "stopped":
            exit_wait.cancel()
            return
        code = process.returncode
        kill_group(process.pid)  # also whatever it started, which may still hold its stdout
        if connection.protocol_error is not None:  # it may exit once we close its input
            why = f"it broke the protocol ({connection.protocol_error}) and was stopped"
        elif code is None:
            why = f"it stopped answering ({connection.close_reason}) and was stopped"
        else:
            why = f"it exited with code {code}"
        self._crash_reason = (
            f"language server {self.name} crashed: {why}. It restarts on the next request; "
            if self.stall.killed is None
            else f"language server {self.stall.killed}; "
        ) + f"its log is {self.log_path}"
        stall.note(self.log_path, self._crash_reason)
        self.state = "crashed"
        connection.close(self._crash_reason)
        self._progress.idle.set()
        self.inbox.event.set()  # wake whoever waits for diagnostics
        self._ready.set()
        if self.stall.killed is not None:  # started again at once: questions wait behind it
            stall.restart(self)

    def _ready_if_idle(self) -> None:
        if self.definition.ready == "progress" and self._progress.idle.is_set():
            self._ready.set()

    async def stop(self) -> None:
        """Shut the server down politely, then make sure nothing of it is left."""
        async with self._start_lock:  # a start waits for it: never a stop clearing a new process
            await self._stop()

    async def _stop(self) -> None:
        process, connection = self._process, self._connection
        was_running = self.state in ("indexing", "ready")
        self.state = "stopped"
        if process is None or connection is None:
            return
        if was_running and process.returncode is None:
            with contextlib.suppress(Exception):
                await connection.request("shutdown", None, timeout=2.0)
                connection.notify("exit")
                await asyncio.wait_for(exited(process), 1.0)
        connection.close("the session was stopped")
        kill_group(process.pid)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(exited(process), 2.0)
            if process.stdout is not None:  # until whatever else held it open is gone too
                await asyncio.wait_for(process.stdout.read(), 1.0)
        if self._watch_task is not None:
            self._watch_task.cancel()
        self._process = None
        self._connection = None
        self.pid = None
        self.documents.clear()

    # -- requests --------------------------------------------------------------------------

    async def request(self, method: Request[P, T], params: P, timeout: float | None = None) -> T:
        """Send a request once the server is ready; errors name the server and what to do.
        Asked again when it waited behind another file that got the server restarted."""
        self.last_used = time.monotonic()
        await self.start()
        await self.wait_ready()
        try:
            return await stall.asked(
                self,
                stall.path_of(params),
                lambda: self.send(method, params, timeout or self.request_timeout),
            )
        finally:
            self.last_used = time.monotonic()

    async def send(self, method: Request[P, T], params: P, timeout: float) -> T:
        """Send without waiting for readiness (for use once the caller has waited)."""
        connection = self._connection
        if connection is None or self.state in ("crashed", "stopped"):
            raise ServerCrashed(self.name, self._crash_reason or f"{self.name} is not running")
        try:
            answer = await connection.request(str(method), params, timeout)
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
        if self._connection is not None:
            self._connection.notify(method, params)

    def notify_watched_files(self, changes: list[dict[str, Any]]) -> None:
        """Send `workspace/didChangeWatchedFiles`; diagnostics then make sure it is taken in
        (waiting for a `watched_files_settle = "publish"` server: see `Inbox.settle`)."""
        self.notify("workspace/didChangeWatchedFiles", {"changes": changes})
        self.inbox.files_changed()
        if self.definition.watched_files_settle == "publish":
            self.inbox.watched_sent = time.monotonic()

    def supports(self, capability: str) -> bool:
        value = self.capabilities.get(capability)
        return value is not None and value is not False

    async def wait_ready(self, timeout: float | None = None) -> None:
        """Wait until the server answers completely, not partially while it loads the project.

        How a server shows it has loaded is data (`ready` in servers.toml): a log line, its
        first diagnostics, or the end of its work-done progress. Past `timeout` we go on and
        the answer is the server's best.
        """
        if self.state == "indexing":
            if self.definition.ready == "diagnostics" and not self.documents:
                return  # it loads a project only once a file is open
            try:
                await asyncio.wait_for(self._ready.wait(), timeout or self.start_timeout)
            except TimeoutError:
                log.warning("%s did not say it was ready; going on", self.name)
            if self.state == "indexing":
                self.state = "ready"
        if self.state == "crashed":
            raise ServerCrashed(self.name, self._crash_reason or f"{self.name} crashed")

    # -- documents -------------------------------------------------------------------------

    async def sync_document(self, path: Path, text: str, language_id: str) -> Document:
        """Make the server hold `text` for `path`: open it, or send the new full text."""
        await self.start()
        document, told = self.documents.sync(path, text, language_id, self.notify)
        if told:
            self.inbox.forget(document.uri)
        return document

    def touch(self, path: Path) -> None:
        """Make `path` the server's most recently opened document (closed and opened again,
        same text, next version): tsserver's workspace symbol search covers only the project
        of that document."""
        if self.documents.reopen(path, self.notify):
            self.inbox.forget(path_to_uri(path), changed=False)

    def close_document(self, path: Path) -> None:
        self.documents.close(path, self.notify)
        self.inbox.forget(path_to_uri(path))

    async def diagnostics(self, document: Document, timeout: float) -> list[shapes.Diagnostic]:
        """The diagnostics of exactly `document.version` (see `lspd.lsp.diagnostics`), checked
        (asked again of the new server when another file got it restarted meanwhile)."""
        await self.wait_ready()
        self.last_used = time.monotonic()
        held = self.documents.get
        return await stall.asked(
            self, document.path, lambda: of_document(self, held(document.uri, document), timeout)
        )

    # -- what the server sends us ----------------------------------------------------------

    async def _on_request(self, method: str, params: Any) -> Any:
        return requests.answer(method, params, self.configuration, self.registrations)

    def _on_notification(self, method: str, params: Any) -> None:
        if method == "textDocument/publishDiagnostics":
            uri = self.inbox.receive(params or {})
            if self.definition.ready == "diagnostics":
                self._ready.set()
                self._folders.published(uri_to_path(uri))
        elif method == "$/progress":
            value = params.get("value") or {}
            if self._progress.report(params.get("token"), value.get("kind")):
                self._ready_if_idle()
        elif method == "window/logMessage":
            message = str((params or {}).get("message", ""))
            log.debug("%s: %s", self.name, message)
            if self._ready_pattern.search(message):
                self._ready.set()
