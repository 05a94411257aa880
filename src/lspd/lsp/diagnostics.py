"""Getting the diagnostics of one exact document version, by the server's best means.

- pull: `textDocument/diagnostic`, when the server offers it (statically or by registration);
- tsserver: typescript-language-server's `typescript.tsserverRequest` command asking
  tsserver (lspd's plugin's command) for the diagnostics synchronously, as tsc reports
  them. Its pushed diagnostics cannot prove freshness: it publishes nothing when a clean
  file stays clean;
- push: wait for `publishDiagnostics` of this version (or, when the server sends no version,
  one received after the change), then for a short silence (`Inbox`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import marshal
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lspd.errors import ServerCrashed, ServerError, ServerTimeout
from lspd.lsp.documents import Document, Notify
from lspd.lsp.progress import Progress
from lspd.servers.registry import ServerDefinition

log = logging.getLogger(__name__)

# A pushed diagnostics list may be followed by a completing one (a server may publish its
# syntax, then its semantic diagnostics); wait this long for silence after the last one.
PUSH_QUIET_S = 0.08
# A version still without its list this long is sent again once (same text, next version):
# in CI gopls sent nothing for a freshly opened main.go for 20 s, twice, while it answered
# its other files; the likely cause, a list it had published before the file was opened and
# does not send again unchanged, leaves a new version as the way to have it said.
NUDGE_AFTER_S = 5.0

Send = Callable[[str, Any, float], Awaitable[Any]]
Items = list[dict[str, Any]]

_TSSERVER_SEVERITY = {"error": 1, "warning": 2, "suggestion": 4, "message": 3}
ERROR, WARNING = 1, 2  # LSP's DiagnosticSeverity
TSC_DIAGNOSTICS = "lspdDiagnosticsSync"  # lspd's tsserver plugin's command: a file's, as tsc


def offers_pull(capabilities: dict[str, Any], registrations: dict[str, dict[str, Any]]) -> bool:
    """Whether the server answers `textDocument/diagnostic` (statically or by registration)."""
    provider = capabilities.get("diagnosticProvider")
    if provider is not None and provider is not False:
        return True
    return any(r.get("method") == "textDocument/diagnostic" for r in registrations.values())


class Pulled(list[dict[str, Any]]):
    """A pulled answer's items, and `answer`: the same object for an "unchanged" reply as
    for the answer it repeats, so a caller holding what it made of them can reuse that."""

    answer: object


@dataclass(frozen=True)
class Kept:
    """The last pulled answer of a document, compact: its items zlib-compressed (marshal:
    JSON took 5x as long to write, on the loop, for every answer of SQLAlchemy's check),
    decoded again only when the server answers "unchanged" to a caller that does not hold
    what it made of them (`pull`'s `held`). Kept as the dicts themselves,
    SQLAlchemy's 84,000 diagnostics held 123 MB of the daemon (compressed: a few MB)."""

    result_id: str
    packed: bytes
    answer: object


def answer_of(items: list[Any]) -> object:
    """What stands for one answer of a server: a pulled answer's `answer` (the same when it
    is repeated as "unchanged"), otherwise the list itself (a push server's is kept)."""
    return items.answer if isinstance(items, Pulled) else items


async def pull(
    send: Send, uri: str, timeout: float, results: dict[str, Kept], held: object = None
) -> Items:
    """`textDocument/diagnostic`, naming the last answer of the document (`results`: the
    server's `resultId` and its items), so the server may answer "unchanged" instead of
    sending them all again; then the same items are returned, with the same `answer`.
    `held`: an answer whose result the caller keeps (`answer_of`); repeated, it comes back
    without its items, not decoded again for a caller that reuses what it made of them."""
    params: dict[str, Any] = {"textDocument": {"uri": uri}}
    last = results.get(uri)
    if last is not None:
        params["previousResultId"] = last.result_id
    report = await send("textDocument/diagnostic", params, timeout) or {}
    if last is not None and report.get("kind") == "unchanged":
        repeated = last.answer is held
        items = Pulled([] if repeated else marshal.loads(zlib.decompress(last.packed)))
        items.answer = last.answer
        return items
    items = Pulled(report.get("items", []))
    items.answer = object()
    if isinstance(report.get("resultId"), str):
        packed = zlib.compress(marshal.dumps(list(items)), 1)
        results[uri] = Kept(report["resultId"], packed, items.answer)
    else:
        results.pop(uri, None)
    return items


async def tsserver(
    send: Send, path: Path, timeout: float, unknown: set[str] | None = None
) -> Items:
    """A file's diagnostics asked of tsserver directly (typescript-language-server publishes
    nothing for a file that stays clean), as tsc reports them: lspd's plugin's command
    (servers/tsplugin) says the file's syntax errors alone, none when another file of its
    program has one (either: `Stopped`, where tsc stopped), else its semantic diagnostics.
    Without the plugin (a server lspd.toml configures otherwise), its syntactic diagnostics
    (`Stopped` at the first), else its semantic ones. `unknown`: the commands this server
    said it does not know (the session's, `Inbox.unknown`): the plugin's, once it said so,
    is not asked again (each file paid a failed request first)."""

    async def ask(command: str) -> Items:
        arguments = [command, {"file": str(path), "includeLinePosition": False}]
        params = {"command": "typescript.tsserverRequest", "arguments": arguments}
        response = await send("workspace/executeCommand", params, timeout)
        body = (response or {}).get("body") or []
        if isinstance(body, dict) and isinstance(at := body.get("stoppedAt"), dict):
            items = [from_tsserver(entry) for entry in body.get("diagnostics") or []]
            return Stopped(Path(str(at.get("file"))), int(at.get("line") or 1), items)
        return [from_tsserver(entry) for entry in body]

    if unknown is None or TSC_DIAGNOSTICS not in unknown:
        try:
            return await ask(TSC_DIAGNOSTICS)
        except ServerError as exc:
            if type(exc) is not ServerError:  # crashed, timed out: not a command unknown
                raise
            if unknown is not None and unknown_command(str(exc)):
                unknown.add(TSC_DIAGNOSTICS)
    if syntactic := await ask("syntacticDiagnosticsSync"):
        return Stopped(
            path, min(int(i["range"]["start"]["line"]) + 1 for i in syntactic), syntactic
        )
    return await ask("semanticDiagnosticsSync")


def unknown_command(error: str) -> bool:
    """Whether typescript-language-server's error says tsserver knows no such command:
    tsserver answers `Unrecognized JSON command: …`, which typescript-language-server (6.0)
    says as `TypeScript Server Error (5.9.3)` with an undefined message and stack (an error
    thrown by a handler, the plugin's "No Project." for a file outside every project,
    comes as `Error processing request. …` with its message and stack)."""
    return "Unrecognized JSON command" in error or error.endswith("\nundefined\nundefined")


class Stopped(list[dict[str, Any]]):
    """tsc's answer of a file whose program has a syntax error: the file's own syntax errors
    (none when they are another file's: tsc reports a program's syntax errors alone while it
    has any), and where tsc stopped (`file`, `line`: the file's first, or the program's)."""

    def __init__(self, file: Path, line: int, items: Iterable[dict[str, Any]] = ()) -> None:
        super().__init__(items)
        self.file, self.line = file, line


@dataclass
class Published:
    """The last `publishDiagnostics` of one document."""

    version: int | None
    items: Items
    received: float
    # Unversioned, from a server that had sent no versioned publish yet: it stands for the
    # document's current text (until the document changes), even once the server versions
    # later ones. gopls 0.5 sends a just-opened file's first publish either way.
    current: bool = False


class Inbox:
    """The diagnostics a server pushes, and waiting for the ones of a document version.

    `crashed()` gives the session's crash reason while it is crashed (None otherwise), so a
    wait ends at once when the server dies.
    """

    def __init__(
        self,
        server: ServerDefinition,
        log_path: Path,
        progress: Progress,
        crashed: Callable[[], str | None],
    ) -> None:
        self.server = server.name
        # The project's gate fails on a warning (ty's `error-on-warning`): its warnings are
        # told as errors, as they enter.
        self.warnings_are_errors = server.warnings_are_errors
        self.waits_for_progress = server.push_waits_for_progress  # (`pushed`)
        self.log_path = log_path
        self.progress = progress
        self.crashed = crashed
        self.published: dict[str, Published] = {}
        self.event = asyncio.Event()
        self.versioned = False  # the server has sent a publishDiagnostics with a version
        self.watched_sent: float | None = None  # when watched-file changes were last sent
        # The last pulled answer per open document (`pull`): a server re-checks only what
        # an edit affects, and answers "unchanged" for the rest instead of sending them all
        # again (SQLAlchemy: 84,000 diagnostics in 255 files, most of a warm check's time).
        self.pulled: dict[str, Kept] = {}
        # The commands the server said it does not know (`tsserver`: lspd's plugin's, where
        # the plugin is not loaded), until it restarts.
        self.unknown: set[str] = set()

        # Changes the server was told of (documents and files on disk), and their count
        # when each document was last sent: a push server re-publishes the documents a change
        # affects in its own time, gopls even without a version, so a list published before
        # another change cannot prove it answers for what the server holds now (`outdated`).
        self.changes = 0
        self.sent_at: dict[str, int] = {}

    def reset(self) -> None:
        self.published.clear()
        self.pulled.clear()
        self.sent_at.clear()
        self.watched_sent = None
        self.unknown.clear()

    async def pull(self, send: Send, uri: str, timeout: float, held: object = None) -> Items:
        """The document's diagnostics by pull, "unchanged" when they are (see `pull`)."""
        return self._gated(await pull(send, uri, timeout, self.pulled, held))

    def _gated(self, items: Items) -> Items:
        """`items` with each warning an error where the project's gate says so."""
        if self.warnings_are_errors:
            for item in items:
                if item.get("severity") == WARNING:
                    item["severity"] = ERROR
        return items

    def receive(self, params: dict[str, Any]) -> str:
        """Take in a `publishDiagnostics`; returns its document's URI."""
        uri = str(params.get("uri", ""))
        version = params.get("version")
        if version is not None:
            # It versions its diagnostics: one without a version (the empty list it sends
            # when a file closes) says nothing about a file reopened since.
            self.versioned = True
        items = self._gated(list(params.get("diagnostics", [])))
        current = version is None and not self.versioned
        self.published[uri] = Published(version, items, time.monotonic(), current)
        self.event.set()
        return uri

    def progress_ended(self) -> None:
        """The server's work in progress ended: a list `pushed` holds back until then may
        now be taken (pyright 1.1.358 publishes a file's list before checking it)."""
        self.event.set()

    def forget(self, uri: str, changed: bool = True) -> None:
        """The document changed, opened or closed (or, not `changed`, was sent again with the
        same text): what it published no longer holds (and a result id of the closed
        document's diagnostics may come back for other ones)."""
        self.published.pop(uri, None)
        self.pulled.pop(uri, None)
        if changed:
            self.changes += 1
        self.sent_at[uri] = self.changes

    def files_changed(self) -> None:
        """The server was told that files on disk changed."""
        self.changes += 1

    def outdated(self, uri: str) -> bool:
        """Whether the server was told of another change since the document was last sent."""
        return self.sent_at.get(uri, 0) < self.changes

    def catch_up(self, document: Document, notify: Notify, reopen: bool = False) -> None:
        """Send the document again (same text, next version; `reopen`: closed and opened)
        when the server was told of another change since it was sent: its next list is then
        made from everything the server holds now, not answered from before."""
        if self.outdated(document.uri):
            document.resend(notify, reopen)
            self.forget(document.uri, changed=False)

    async def pushed(
        self, document: Document, timeout: float, notify: Notify, republishes: bool = True
    ) -> Items:
        """The published diagnostics of the document's version, once the server is quiet.
        When the server was told of another change since the document was sent, or sends
        nothing for `NUDGE_AFTER_S`, it is sent again (same text, next version) and that
        version's list is waited for; closed and opened again for a server that does not
        `republishes` (clangd answers nothing for the same text)."""
        uri, name = document.uri, document.path.name
        self.catch_up(document, notify, reopen=not republishes)
        version = document.version
        deadline = time.monotonic() + timeout
        nudge: float | None = time.monotonic() + min(NUDGE_AFTER_S, timeout / 2)
        while True:
            # a didChange meanwhile (a question's disk-text lock lets the watcher's edit
            # through): the newer version's list, positions being read in its text
            version = max(version, document.version)
            entry = self.published.get(uri)
            unversioned = entry is not None and entry.version is None and entry.current
            if entry is not None and (unversioned or (entry.version or 0) >= version):
                quiet = entry.received + PUSH_QUIET_S - time.monotonic()
                if quiet > 0:
                    await asyncio.sleep(quiet)
                    continue
                remaining = deadline - time.monotonic()
                if not self.waits_for_progress or not self.progress.working or remaining <= 0:
                    return entry.items
                if (reason := self.crashed()) is not None:  # its work ends with it, unsaid
                    raise ServerCrashed(self.server, reason)
                await self._next(remaining)  # its check of it may come (`progress_ended`)
                continue
            if (reason := self.crashed()) is not None:
                raise ServerCrashed(self.server, reason)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ServerTimeout(
                    self.server,
                    f"language server {self.server} sent no diagnostics for {name} "
                    f"(version {version}) within {timeout:g} s; the answer is unknown, not "
                    f"clean. Try again; its log is {self.log_path}",
                )
            if nudge is not None and time.monotonic() >= nudge:
                nudge = None
                document.resend(notify, reopen=not republishes)
                self.forget(uri, changed=False)
                version = document.version
                continue
            await self._next(
                remaining if nudge is None else min(remaining, nudge - time.monotonic())
            )

    async def settle(self, uri: str, timeout: float) -> None:
        """Wait until the server has taken in the watched-file changes sent to it.

        A server that re-analyses in the background after such changes (basedpyright: about
        100 ms for a change, 300 ms for a new or deleted file) would otherwise answer from
        before them. It shows it is done by publishing the diagnostics of its open files
        again, one by one: we wait for this document's. A publish made while the server
        reports work in progress (pyrefly's "Rechecking") can still be from before the
        changes, so then we wait for the work to end and a publish after it.
        """
        sent = self.watched_sent
        if sent is None:
            return
        deadline = time.monotonic() + timeout
        while self.crashed() is None:
            entry = self.published.get(uri)
            after = max(sent, self.progress.ended)
            if entry is not None and entry.received > after and self.progress.idle.is_set():
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                log.warning("%s did not take in file changes within %g s", self.server, timeout)
                return
            await self._next(remaining)

    async def _next(self, timeout: float) -> None:
        """Until the next publish (or a crash), at most `timeout` seconds."""
        self.event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.event.wait(), timeout)


def from_tsserver(entry: dict[str, Any]) -> dict[str, Any]:
    """A tsserver diagnostic (1-based line and offset) as an LSP one."""
    start, end = entry["start"], entry["end"]
    return {
        "range": {
            "start": {"line": start["line"] - 1, "character": start["offset"] - 1},
            "end": {"line": end["line"] - 1, "character": end["offset"] - 1},
        },
        "severity": _TSSERVER_SEVERITY.get(entry.get("category", "error"), 1),
        "code": entry.get("code"),
        "source": "typescript",
        "message": entry.get("text", ""),
    }
