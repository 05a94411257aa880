"""One running language server and the conversation with it: its workspace folders, requests
(asked again after a restart), documents and their diagnostics, what it sends us. Starting,
watching and stopping its process: `lsp/lifecycle.py`."""

from __future__ import annotations

import logging
import time
from functools import cached_property
from pathlib import Path
from typing import Any

from lspd.lsp import shapes, stall
from lspd.lsp.answers import P, Request, T
from lspd.lsp.diagnostics import offers_pull
from lspd.lsp.document_diagnostics import of_document
from lspd.lsp.documents import Document
from lspd.lsp.lifecycle import ServerLifecycle
from lspd.lsp.pull_gate import PullGate
from lspd.lsp.state import ServerState
from lspd.lsp.text import path_to_uri, uri_to_path

log = logging.getLogger(__name__)


class Session(ServerLifecycle):
    """A language server process (`ServerLifecycle`) and the LSP conversation with it.

    A crashed session fails its pending requests at once and is started afresh by the
    next call to `start`.
    """

    @property
    def display_state(self) -> ServerState:
        """Its state as status shows it: `busy` while stuck, `indexing` while in progress;
        `ready` for a server that loads a project only once a file is open while none is
        (tsserver: it has nothing to load and is asked at once, `wait_ready`)."""
        if self.state in ("indexing", "ready") and self.busy() is not None:
            return "busy"
        if self.state == "indexing" and self.definition.ready == "diagnostics":
            return "indexing" if self.documents else "ready"
        if self.state == "ready" and not self._readiness.progress.idle.is_set():
            return "indexing"
        return self.state

    @property
    def answered(self) -> bool:
        """Whether its process has answered a file's diagnostics (it is through loading)."""
        return self._readiness.answered

    def pulled_answer(self) -> None:
        """Its process answered a file's diagnostics asked of it (pulled, as TypeScript 7's
        are, not through `diagnostics`): it is through loading, as after `diagnostics`."""
        self._readiness.answered = True

    @property
    def crash_reason(self) -> str | None:
        """Why it died, while it is crashed."""
        return self._crash_reason if self.state == "crashed" else None

    @property
    def told(self) -> tuple[object, int] | None:
        """What the running server has been told (its connection, the messages written that
        may change what it holds: `JsonRpcConnection.told`); None while it does not run. Two
        requests asked at the same value get the same answer from a server that reads no
        file of its own (`lspd.ops.kept_answers`)."""
        connection = None if self._server is None else self._server.connection
        if connection is None:
            return None
        return connection, connection.told + self._pull_gate.waiting  # the same once sent

    def working_on(self) -> tuple[int, stall.Busy | None]:
        """The requests it owes an answer to, and the oldest of them (what it works on)."""
        connection = None if self._server is None else self._server.connection
        if connection is None:
            return 0, None
        return len(connection.owed), stall.busy(connection, 0.0, waiting=False)

    def add_folder(self, folder: Path) -> None:
        """Serve another project too: a workspace folder, told at once to a running server
        that takes folder changes (the pyright family, gopls), else at its next start."""
        running = self.state in ("indexing", "ready") and self._server is not None
        self._folders.add(folder, self.capabilities if running else None, self.notify)

    async def wait_loaded(self, path: Path, timeout: float | None = None) -> None:
        """Once a file of `path`'s project is open: wait until the server has loaded that
        project (its first diagnostics there), for servers whose readiness shows that way."""
        if self.definition.ready == "diagnostics":
            await self._folders.wait_loaded(path, timeout or self.start_timeout, self.name)

    # -- requests --------------------------------------------------------------------------

    async def request(self, method: Request[P, T], params: P, timeout: float | None = None) -> T:
        """Send a request once the server is ready; errors name the server and what to do.
        Asked again when it waited behind another file that got the server restarted."""
        self.last_used = time.monotonic()
        await self.start()
        await self.wait_ready()
        await self._pull_gate.told()
        try:
            return await stall.asked(
                self,
                stall.path_of(params),
                lambda: self.send(method, params, timeout or self.request_timeout),
            )
        finally:
            self.last_used = time.monotonic()

    @cached_property
    def _pull_gate(self) -> PullGate:
        """Where its changes wait while a pull is in flight, for a server that drops its
        pulls on any change (`lsp/pull_gate.py`)."""
        return PullGate(self.definition.changes_cancel_pulls)

    def notify(self, method: str, params: Any) -> None:
        """Send a notification while it runs; a change waits for the pulls in flight of a
        server that would drop them for it (`lsp/pull_gate.py`)."""
        if self._server is not None:
            self._pull_gate.notify(self._server.connection.notify, method, params)

    def notify_watched_files(self, changes: list[dict[str, Any]]) -> None:
        """Send `workspace/didChangeWatchedFiles`; diagnostics then make sure it is taken in
        (waiting for a `watched_files_settle = "publish"` server: see `Inbox.settle`)."""
        self.notify("workspace/didChangeWatchedFiles", {"changes": changes})
        self.inbox.files_changed()
        if self.definition.watched_files_settle == "publish":
            self.inbox.watched_sent = time.monotonic()

    def reloading(self, folders: list[Path]) -> None:
        """It was told of changes that make these of its folders reload their configuration:
        questions wait until it says it has (`Readiness.reloading`)."""
        self._readiness.reloading(folders)

    async def wait_ready(self, timeout: float | None = None) -> None:
        """`ServerLifecycle.wait_ready`, and until it has reloaded the configurations it was
        told changed."""
        await super().wait_ready(timeout)
        await self._readiness.wait_reloaded()

    def supports(self, capability: str) -> bool:
        """Whether the server offers `capability` (present and not false in its answer)."""
        value = self.capabilities.get(capability)
        return value is not None and value is not False

    # -- documents -------------------------------------------------------------------------

    async def sync_document(
        self, path: Path, text: str, language_id: str, on_disk: bool = True
    ) -> Document:
        """Make the server hold `text` for `path`: open it, or send the new full text.
        `on_disk`: whether `text` is the file's text on disk, as the server read it for the
        files importing it."""
        await self.start()
        uri = path_to_uri(path)
        opened = uri not in self.documents
        held = self.documents.get(uri)
        if held is not None and held.text != text and self._cut_short(held.text):
            held.replace(text)  # opened anew with the text: see `_cut_short`
            document, told = held, self.documents.reopen(path, self.notify)
        else:
            document, told = self.documents.sync(path, text, language_id, self.notify)
        # an open of the disk's text changes nothing the server reads for other files (the
        # check of a second C file waited out its timeout: told of a change, it was sent
        # again, and clangd publishes nothing for a text it holds already)
        if told:
            self.inbox.forget(document.uri, changed=not (opened and on_disk))
        document.on_disk = on_disk
        if opened and not on_disk and offers_pull(self.capabilities, self.registrations.by_id):
            # basedpyright's didOpen of other text than the disk's marks that file alone to
            # be checked again, not the files importing it (they kept their old lists: a
            # baseline's text held for an imported file); its didChange marks them too.
            document.resend(self.notify)
        return document

    def _cut_short(self, held: str) -> bool:
        """Whether a full-text change of `held` would reach tsserver cut short:
        typescript-language-server sends it on as a change ending at the old text's end in
        LSP's lines, which tsserver reads in its own (ECMAScript's: U+2028 and U+2029 end a
        line too), so the old text's tail stayed after the new one (a HEAD text held over a
        file holding U+2028: TS1128 "Declaration or statement expected" at its end). Such a
        document is closed and opened with the new text instead."""
        if self.definition.diagnostics != "tsserver":
            return False
        return "\u2028" in held or "\u2029" in held

    def touch(self, path: Path) -> None:
        """Make `path` the server's most recently opened document (closed and opened again,
        same text, next version): tsserver's workspace symbol search covers only the project
        of that document."""
        if self.documents.reopen(path, self.notify):
            self.inbox.forget(path_to_uri(path), changed=False)

    def close_document(self, path: Path) -> None:
        """Close `path` (the server reads it from disk again); its diagnostics are forgotten,
        and where it held other text than the disk's, others' lists are from before (not
        open here, nothing changes: the workspace closes a file in every session)."""
        held = self.documents.get(path_to_uri(path))
        self.documents.close(path, self.notify)
        self.inbox.forget(path_to_uri(path), changed=held is not None and not held.on_disk)

    async def diagnostics(
        self, document: Document, timeout: float, held: object = None
    ) -> list[shapes.Diagnostic]:
        """The diagnostics of exactly `document.version` (see `lspd.lsp.diagnostics`), checked
        (asked again of the new server when another file got it restarted meanwhile); `held`:
        the answer whose result the caller keeps (`of_document`)."""
        await self.wait_ready()
        self.last_used = time.monotonic()
        found = await stall.asked(
            self, document.path, lambda: self._pulled(document, timeout, held)
        )
        self._readiness.answered = True
        return found

    async def _pulled(
        self, document: Document, timeout: float, held: object
    ) -> list[shapes.Diagnostic]:
        """`of_document`, of the document as it is held once no change of it waits."""
        async with self._pull_gate.pulling():
            return await of_document(
                self, self.documents.get(document.uri, document), timeout, held
            )

    # -- what the server sends us ----------------------------------------------------------

    def _on_notification(self, method: str, params: Any) -> None:
        if method == "textDocument/publishDiagnostics":
            uri = self.inbox.receive(params or {})
            if self.definition.ready == "diagnostics":
                self._readiness.event.set()
                self._folders.published(uri_to_path(uri))
        elif method == "$/progress":
            self._readiness.progressed(params)
            if not self._readiness.progress.working:
                self.inbox.progress_ended()
        elif method == "window/logMessage":
            message = str((params or {}).get("message", ""))
            log.debug("%s: %s", self.name, message)
            self._readiness.logged(message)
