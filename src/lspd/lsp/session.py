"""One running language server: start, initialize, documents, diagnostics, crash, shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lspd.errors import ServerCrashed, ServerError, ServerNotInstalled, ServerTimeout
from lspd.lsp import diagnostics
from lspd.lsp.capabilities import client_capabilities
from lspd.lsp.documents import Document
from lspd.lsp.globs import WATCH_CHANGE, WATCH_CREATE, WATCH_DELETE, FileWatcher, file_watchers
from lspd.lsp.positions import Encoding
from lspd.lsp.process import exited, kill_group, spawn
from lspd.lsp.rpc import ConnectionClosed, JsonRpcConnection, RequestTimeout, RpcError
from lspd.lsp.state import ServerState
from lspd.lsp.text import path_to_uri, uri_to_path
from lspd.servers.install import install
from lspd.servers.registry import ServerDefinition

log = logging.getLogger(__name__)

# A pushed diagnostics list may be followed by a completing one (a server may publish its
# syntax, then its semantic diagnostics); wait this long for silence after the last one.
PUSH_QUIET_S = 0.08
# How long diagnostics wait for a server to take in watched-file changes before answering.
WATCHED_FILES_SETTLE_S = 5.0
# How often a running server's exit is polled for (see `_watch`).
EXIT_POLL_S = 0.25
# A server whose readiness shows by progress is taken as ready if none begins this soon.
PROGRESS_GRACE_S = 0.3


@dataclass
class PublishedDiagnostics:
    version: int | None
    items: list[dict[str, Any]]
    received: float


class Session:
    """A language server process and the LSP conversation with it.

    A crashed session fails its pending requests at once and is started afresh by the
    next call to `start`.
    """

    def __init__(
        self,
        definition: ServerDefinition,
        root: Path,
        log_dir: Path,
        request_timeout: float = 30.0,
        start_timeout: float = 60.0,
        toolchain: str | None = None,
    ) -> None:
        self.definition = definition
        # The projects it serves as workspace folders (several when their toolchain is shared).
        self.folders: list[Path] = [root]
        # Per folder, set once the server has published diagnostics of a file in it: tsserver
        # loads a tsconfig's project when a file of it opens, and answers before that are
        # partial (`import Settings`). Only for servers whose readiness is "diagnostics".
        self._loaded: dict[Path, asyncio.Event] = {root: asyncio.Event()}
        # The project's toolchain it runs, as a user reads it: "typescript 5.4.5, project".
        self.toolchain = toolchain
        self.root = root
        self.log_path = log_dir / f"{definition.name}.log"
        self.request_timeout = request_timeout
        self.start_timeout = start_timeout
        self.state: ServerState = "stopped"
        self.pid: int | None = None
        self.encoding: Encoding = "utf-16"
        self.capabilities: dict[str, Any] = {}
        self.documents: dict[str, Document] = {}
        self.registrations: dict[str, dict[str, Any]] = {}
        self.file_watchers: list[FileWatcher] = []  # what it asked to hear of (by registration)
        self.last_used = time.monotonic()
        self._process: asyncio.subprocess.Process | None = None
        self._connection: JsonRpcConnection | None = None
        self._start_lock = asyncio.Lock()
        self._progress: set[str | int] = set()
        self._progress_idle = asyncio.Event()
        self._progress_idle.set()
        self._progress_ended = 0.0  # when the server last finished all its work in progress
        self._published: dict[str, PublishedDiagnostics] = {}
        self._publish_event = asyncio.Event()
        self._watched_sent: float | None = None  # when watched-file changes were last sent
        self._versioned = False  # it has sent a publishDiagnostics with a version
        self._ready = asyncio.Event()
        self._ready_pattern = (
            re.compile(definition.ready_pattern) if definition.ready_pattern else None
        )
        self._crash_reason: str | None = None
        self._watch_task: asyncio.Task[None] | None = None

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def display_state(self) -> ServerState:
        if self.state == "ready" and not self._progress_idle.is_set():
            return "indexing"
        return self.state

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Start and initialize the server unless it is already running."""
        async with self._start_lock:
            if self.state in ("starting", "indexing", "ready"):
                return
            await self._start()

    async def _start(self) -> None:
        missing = self.definition.missing()
        if missing is not None and self.definition.install.get("npm"):
            log.info("installing %s on first need", self.name)
            await asyncio.to_thread(install, self.definition)
            missing = self.definition.missing()
        if missing is not None:
            hint = self.definition.install_hint()
            how = f"install it with: {hint}" if hint else "install it and make it reachable"
            raise ServerNotInstalled(
                self.name, f"language server {self.name} is not available ({missing}); {how}"
            )
        if self._process is not None:  # what is left of a crashed server: reap it
            await self.stop()
        self.state = "starting"
        self._reset()
        env = {**os.environ, **self.definition.env}
        command = self.definition.resolved_command()
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
                "initialize", self._initialize_params(), timeout=self.start_timeout
            )
        except ServerError:
            await self.stop()
            self.state = "crashed"
            raise
        self.capabilities = dict(result.get("capabilities", {})) if result else {}
        encoding = self.capabilities.get("positionEncoding", "utf-16")
        self.encoding = encoding if encoding in ("utf-8", "utf-16", "utf-32") else "utf-16"
        connection.notify("initialized", {})
        if self.definition.settings:
            connection.notify(
                "workspace/didChangeConfiguration", {"settings": self.definition.settings}
            )
        self.state = "indexing"
        if self.definition.ready == "progress":
            asyncio.get_running_loop().call_later(PROGRESS_GRACE_S, self._ready_if_idle)

    def add_folder(self, folder: Path) -> None:
        """Serve another project too: a workspace folder, told at once to a running server
        that takes folder changes (the pyright family, gopls), else at its next start."""
        if folder in self.folders:
            return
        self.folders.append(folder)
        self._loaded[folder] = asyncio.Event()
        changes = self.capabilities.get("workspace", {}).get("workspaceFolders", {})
        running = self.state in ("indexing", "ready") and self._connection is not None
        if running and isinstance(changes, dict) and changes.get("changeNotifications"):
            assert self._connection is not None
            event = {"added": [_folder(folder)], "removed": []}
            self._connection.notify("workspace/didChangeWorkspaceFolders", {"event": event})

    async def wait_loaded(self, path: Path, timeout: float | None = None) -> None:
        """Once a file of `path`'s project is open: wait until the server has loaded that
        project (its first diagnostics there), for servers whose readiness shows that way."""
        if self.definition.ready != "diagnostics" or (folder := self._folder_of(path)) is None:
            return
        loaded = self._loaded[folder]
        if loaded.is_set():
            return
        try:
            await asyncio.wait_for(loaded.wait(), timeout or self.start_timeout)
        except TimeoutError:
            log.warning("%s did not load %s in time; going on", self.name, folder)
            loaded.set()

    def _folder_of(self, path: Path) -> Path | None:
        """The innermost folder holding `path`."""
        holding = [folder for folder in self.folders if path.is_relative_to(folder)]
        return max(holding, key=lambda folder: len(folder.parts)) if holding else None

    def _reset(self) -> None:
        self._loaded = {folder: asyncio.Event() for folder in self.folders}
        self.documents.clear()
        self.registrations.clear()
        self.file_watchers = []
        self._watched_sent = None
        self._published.clear()
        self._progress.clear()
        self._progress_idle.set()
        self._ready.clear()
        self._crash_reason = None

    def _initialize_params(self) -> dict[str, Any]:
        return {
            "processId": os.getpid(),
            "clientInfo": {"name": "lspd"},
            "rootUri": path_to_uri(self.root),
            "rootPath": str(self.root),
            "workspaceFolders": [_folder(folder) for folder in self.folders],
            "capabilities": client_capabilities(),
            "initializationOptions": self.definition.resolved_initialization_options(),
        }

    async def _watch(
        self, process: asyncio.subprocess.Process, connection: JsonRpcConnection
    ) -> None:
        """Notice the server's death (or its connection's) and fail everything pending."""
        # Polled for as long as the server lives: slowly, an idle daemon must stay idle. A
        # crash usually shows first as the end of its output, which wakes this at once.
        exit_wait = asyncio.create_task(exited(process, poll=EXIT_POLL_S))
        closed_wait = asyncio.create_task(connection.closed.wait())
        await asyncio.wait({exit_wait, closed_wait}, return_when=asyncio.FIRST_COMPLETED)
        if not exit_wait.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(exit_wait), 0.5)
        closed_wait.cancel()
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
            f"its log is {self.log_path}"
        )
        log.warning(self._crash_reason)
        self.state = "crashed"
        connection.close(self._crash_reason)
        self._progress_idle.set()
        self._publish_event.set()
        self._ready.set()

    def _ready_if_idle(self) -> None:
        if self.definition.ready == "progress" and self._progress_idle.is_set():
            self._ready.set()

    async def stop(self) -> None:
        """Shut the server down politely, then make sure nothing of it is left."""
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

    async def request(self, method: str, params: Any, timeout: float | None = None) -> Any:
        """Send a request once the server is ready; errors name the server and what to do."""
        self.last_used = time.monotonic()
        await self.start()
        await self.wait_ready()
        try:
            return await self.send(method, params, timeout or self.request_timeout)
        finally:
            self.last_used = time.monotonic()

    async def send(self, method: str, params: Any, timeout: float) -> Any:
        """Send without waiting for readiness (for use once the caller has waited)."""
        connection = self._connection
        if connection is None or self.state in ("crashed", "stopped"):
            raise ServerCrashed(self.name, self._crash_reason or f"{self.name} is not running")
        try:
            return await connection.request(method, params, timeout)
        except RequestTimeout as exc:
            raise ServerTimeout(
                self.name,
                f"language server {self.name} timed out: {exc}. It may still be indexing; "
                f"try again, or see its log {self.log_path}",
            ) from None
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

    def notify(self, method: str, params: Any) -> None:
        if self._connection is not None:
            self._connection.notify(method, params)

    def notify_watched_files(self, changes: list[dict[str, Any]]) -> None:
        """Send `workspace/didChangeWatchedFiles`; diagnostics then make sure it is taken in.

        A server that re-analyses in the background and then publishes
        (`watched_files_settle = "publish"`) is waited for (see `settle_watched_files`).
        """
        self.notify("workspace/didChangeWatchedFiles", {"changes": changes})
        if self.definition.watched_files_settle == "publish":
            self._watched_sent = time.monotonic()

    async def settle_watched_files(self, document: Document, timeout: float) -> None:
        """Wait until the server has taken in the watched-file changes sent to it.

        A server that re-analyses in the background after such changes (basedpyright: about
        100 ms for a change, 300 ms for a new or deleted file) would otherwise answer from
        before them. It shows it is done by publishing the diagnostics of its open files
        again, one by one: we wait for `document`'s. A publish made while the server reports
        work in progress (pyrefly's "Rechecking") can still be from before the changes, so
        then we wait for the work to end and a publish after it.
        """
        sent = self._watched_sent
        if sent is None:
            return

        def published_since() -> bool:
            entry = self._published.get(document.uri)
            after = max(sent, self._progress_ended)
            return entry is not None and entry.received > after and self._progress_idle.is_set()

        await self._await_publish(published_since, timeout, "did not take in file changes")

    async def _await_publish(self, done: Callable[[], bool], timeout: float, what: str) -> None:
        """Wait for publishDiagnostics until `done()`; past `timeout`, log `what` and go on."""
        deadline = time.monotonic() + timeout
        while not done() and self.state in ("indexing", "ready"):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                log.warning("%s %s within %g s", self.name, what, timeout)
                return
            self._publish_event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._publish_event.wait(), remaining)

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
        uri = path_to_uri(path)
        document = self.documents.get(uri)
        if document is None:
            document = Document(path, uri, language_id, 1, text)
            self.documents[uri] = document
            self.notify(
                "textDocument/didOpen",
                {
                    "textDocument": {
                        "uri": uri,
                        "languageId": language_id,
                        "version": 1,
                        "text": text,
                    }
                },
            )
        elif document.text != text:
            document.replace(text)
            self.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": document.version},
                    "contentChanges": [{"text": text}],
                },
            )
        else:
            return document
        self._published.pop(uri, None)
        return document

    def touch(self, path: Path) -> None:
        """Make `path` the server's most recently opened document (closed and opened again,
        same text, next version): tsserver's workspace symbol search covers only the project
        of that document."""
        uri = path_to_uri(path)
        document = self.documents.get(uri)
        if document is None:
            return
        document.version += 1
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        item = {
            "uri": uri,
            "languageId": document.language_id,
            "version": document.version,
            "text": document.text,
        }
        self.notify("textDocument/didOpen", {"textDocument": item})
        self._published.pop(uri, None)

    def close_document(self, path: Path) -> None:
        uri = path_to_uri(path)
        if self.documents.pop(uri, None) is not None:
            self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        self._published.pop(uri, None)

    # -- diagnostics -----------------------------------------------------------------------

    async def diagnostics(self, document: Document, timeout: float) -> list[dict[str, Any]]:
        """The diagnostics of exactly `document.version` (see `lspd.lsp.diagnostics`)."""
        await self.wait_ready()
        self.last_used = time.monotonic()
        await self.settle_watched_files(document, min(timeout, WATCHED_FILES_SETTLE_S))
        return await diagnostics.fetch(self, document, timeout)

    async def pushed_diagnostics(self, document: Document, timeout: float) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        version = document.version
        while True:
            entry = self._published.get(document.uri)
            unversioned = entry is not None and entry.version is None and not self._versioned
            if entry is not None and (unversioned or (entry.version or 0) >= version):
                quiet = entry.received + PUSH_QUIET_S - time.monotonic()
                if quiet <= 0:
                    return entry.items
                await asyncio.sleep(quiet)
                continue
            if self.state == "crashed":
                raise ServerCrashed(self.name, self._crash_reason or f"{self.name} crashed")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ServerTimeout(
                    self.name,
                    f"language server {self.name} sent no diagnostics for {document.path.name} "
                    f"(version {version}) within {timeout:g} s; the answer is unknown, not clean. "
                    f"Try again; its log is {self.log_path}",
                )
            self._publish_event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._publish_event.wait(), remaining)

    # -- what the server sends us ----------------------------------------------------------

    async def _on_request(self, method: str, params: Any) -> Any:
        if method == "workspace/configuration":
            return [self._setting(item.get("section")) for item in (params or {}).get("items", [])]
        if method == "client/registerCapability":
            for registration in (params or {}).get("registrations", []):
                self.registrations[registration["id"]] = _joined(
                    self.registrations.get(registration["id"]), registration
                )
            self._update_file_watchers()
            return None
        if method == "client/unregisterCapability":
            for registration in (params or {}).get("unregisterations", []):
                self.registrations.pop(registration.get("id"), None)
            self._update_file_watchers()
            return None
        if method == "window/workDoneProgress/create":
            return None
        if method == "workspace/workspaceFolders":
            return [{"uri": path_to_uri(self.root), "name": self.root.name}]
        if method == "workspace/applyEdit":
            return {"applied": False, "failureReason": "lspd is read-only"}
        if method == "window/showDocument":
            return {"success": False}
        # workspace/diagnostic/refresh, */refresh, window/showMessageRequest and anything
        # newer: an empty success. An error reply makes some servers exit (basedpyright).
        return None

    def _update_file_watchers(self) -> None:
        self.file_watchers = [
            watcher
            for registration in self.registrations.values()
            for watcher in file_watchers(registration, self.root)
        ]

    def watches(self, path: Path, change: int) -> bool:
        """Whether the server asked to hear of this change (`FileChangeType` 1, 2 or 3)."""
        kind = {1: WATCH_CREATE, 2: WATCH_CHANGE, 3: WATCH_DELETE}.get(change, 0)
        return any(watcher.matches(path, kind) for watcher in self.file_watchers)

    def _setting(self, section: str | None) -> Any:
        value: Any = self.definition.settings
        for key in (section or "").split(".") if section else ():
            if not isinstance(value, dict) or key not in value:
                return None
            value = value[key]
        return value

    def _on_notification(self, method: str, params: Any) -> None:
        if method == "textDocument/publishDiagnostics":
            uri = params.get("uri", "")
            if params.get("version") is not None:
                # It versions its diagnostics: one without a version (the empty list it
                # sends when a file closes) says nothing about a file reopened since.
                self._versioned = True
            self._published[uri] = PublishedDiagnostics(
                params.get("version"), list(params.get("diagnostics", [])), time.monotonic()
            )
            self._publish_event.set()
            if self.definition.ready == "diagnostics":
                self._ready.set()
                published = uri_to_path(uri)
                folder = None if published is None else self._folder_of(published)
                if folder is not None:
                    self._loaded[folder].set()
        elif method == "$/progress":
            token, value = params.get("token"), params.get("value") or {}
            kind = value.get("kind")
            if kind == "begin":
                self._progress.add(token)
                self._progress_idle.clear()
            elif kind == "end":
                self._progress.discard(token)
                if not self._progress:
                    self._progress_ended = time.monotonic()
                    self._progress_idle.set()
                    self._ready_if_idle()
        elif method == "window/logMessage":
            message = str((params or {}).get("message", ""))
            log.debug("%s: %s", self.name, message)
            if self._ready_pattern is not None and self._ready_pattern.search(message):
                self._ready.set()


def _folder(path: Path) -> dict[str, str]:
    return {"uri": path_to_uri(path), "name": path.name}


def _joined(earlier: dict[str, Any] | None, registration: dict[str, Any]) -> dict[str, Any]:
    """A file-watcher registration reusing a live id adds its watchers, as VS Code does:
    pyrefly registers its workspace's globs, then its library globs, under one id."""
    method = "workspace/didChangeWatchedFiles"
    if earlier is None or earlier.get("method") != method or registration.get("method") != method:
        return registration
    options = registration.get("registerOptions") or {}
    watchers = [*(earlier.get("registerOptions") or {}).get("watchers", [])]
    watchers += [w for w in options.get("watchers", []) if w not in watchers]
    return {**registration, "registerOptions": {**options, "watchers": watchers}}
