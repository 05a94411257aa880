"""One workspace root: its sessions (`pool`: one per server and toolchain, or per project
for servers that take one project only; started on demand), the texts they hold of its
files (`sync`), its file watcher, symbol index and overlay gate."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from pathlib import Path

from lspd.dirs import state_dir
from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from lspd.servers.registry import ServerDefinition
from lspd.workspace import files, paths, prewarm
from lspd.workspace.config import Config, load_config, user_restricted
from lspd.workspace.followed import Followed
from lspd.workspace.ignore import Ignore
from lspd.workspace.kept_copy import Kept
from lspd.workspace.left_out import LeftOut
from lspd.workspace.overlay import Gate
from lspd.workspace.pool import SessionPool
from lspd.workspace.projects import Project
from lspd.workspace.symbols.index import SymbolIndex
from lspd.workspace.sync import DocumentSync
from lspd.workspace.ts_declarations import Declarations
from lspd.workspace.tsbuilder import Builder
from lspd.workspace.watcher import Change, FileEvent, Watcher

log = logging.getLogger(__name__)


class Workspace:
    """Language intelligence for the files under `root`.

    Sessions start on first need and stay warm; a crashed one is restarted by the next call.
    Every answer is about the file as it is on disk now: each call re-reads the file and
    sends the server the new text when it changed (`sync`). `session_for` is the way to the
    session answering a path (`session`: a project's); `pool` has the rest of what concerns
    sessions (`key`, `adapted`: which session and server without making one).
    """

    def __init__(
        self,
        root: Path,
        *,
        request_timeout: float = 30.0,
        diagnostics_timeout: float = 20.0,
        log_dir: Path | None = None,
        restricted: bool | None = None,
    ) -> None:
        self.root = root.resolve()
        if not self.root.is_dir():
            raise InvalidInput(f"workspace root {root} is not a directory")
        self.diagnostics_timeout = diagnostics_timeout
        self.log_dir = log_dir or state_dir(self.root) / "logs"
        self.config: Config = load_config(self.root)  # a bad lspd.toml fails here, at once
        # Restricted: nothing that came with the repository runs (its toolchain, lspd.toml's
        # servers and arguments); the user decides it, never the workspace.
        self.restricted = user_restricted() if restricted is None else restricted
        self.started = time.monotonic()
        self.ignore = Ignore(self.root, self.config.ignore)
        # Files too large, or set aside (see there); its limits hold in restricted mode too.
        self.left_out = LeftOut(self.config, self.display)
        self.pool = SessionPool(
            self.root,
            self.config,
            self.restricted,
            self.ignore,
            self.left_out,
            self.log_dir,
            request_timeout,
            lambda: self.watching,
        )
        self.sync = DocumentSync(self.pool, self.ignore)
        # The pool's, by their names of old (the same objects).
        self.definitions, self.sessions = self.pool.definitions, self.pool.sessions
        self.toolchains, self.projects = self.pool.toolchains, self.pool.projects
        self.first_seen = self.sync.first_seen  # each file's text when lspd first read it
        self.watcher: Watcher | None = None
        self._will_watch = False  # `watch` is on its way (see `will_watch`)
        self._unwatched_since: int | None = None  # wall clock (ns) at `will_watch`
        self._changes = 0  # batches of file changes the watcher has applied
        self.following = Followed()  # files the watcher does not see, with their stamps
        self.changed_at: dict[Path, int] = {}  # each file changed: at which batch, last
        self.gate = Gate()  # calls share the servers; an overlay has them alone
        # Symbols by name, from the servers' document symbols, fresh with the files.
        self.symbols = SymbolIndex(self.pool, self.sync, self)
        # The TypeScript builders of whole-project checks, by typescript package (`tsbuilder`).
        self.builders: dict[Path, Builder] = {}
        # What TypeScript files' importers see of them, read alone (`engine/native_declared`).
        self.declarations: Declarations | None = None
        # A held Python state's copy and its servers, kept warm between questions.
        self.kept_copy = Kept(state_dir(self.root) / "python-copy-kept")

    # -- paths -----------------------------------------------------------------------------

    def resolve(self, raw: str) -> Path:
        """The absolute path of a path as sent (relative to the root); outside it, an error."""
        return paths.confine(self.root, raw)

    def display(self, path: Path) -> str:
        """`path` as answers show it: relative to the root when inside it."""
        return paths.display(self.root, path)

    # -- sessions (`pool`) ------------------------------------------------------------------

    @property
    def request_timeout(self) -> float:
        """Seconds a request waits for its server: the pool's, given to each session it makes."""
        return self.pool.request_timeout

    @request_timeout.setter
    def request_timeout(self, seconds: float) -> None:
        self.pool.request_timeout = seconds
        for session in self.pool.sessions.values():  # the ones made already follow it too
            session.request_timeout = seconds

    def session_for(self, path: Path) -> Session:
        """The session answering `path` (made, not started, on first need)."""
        return self.pool.session_for(path)

    def handler(self, path: Path) -> ServerDefinition | None:
        """The server for `path` as this workspace runs it (lspd.toml's choice), or None."""
        return self.pool.handler(path)

    def definition_for(self, path: Path) -> ServerDefinition:
        """The server for `path`; a file no server handles is an error saying which do."""
        return self.pool.definition_for(path)

    def project_root(self, path: Path, definition: ServerDefinition) -> Path:
        """The nearest directory above `path` holding one of the server's project markers."""
        return self.pool.project_root(path, definition)

    def session(self, definition: ServerDefinition, project: Path | None = None) -> Session:
        """The session answering `project` (default: the root) for `definition`."""
        return self.pool.session(definition, project)

    def projects_present(self) -> list[Project]:
        """Each (server, project root) that files under the root need (see `Projects`)."""
        return self.projects.present()

    # -- documents (`sync`) -----------------------------------------------------------------

    async def open(self, raw_path: str, content: str | None = None) -> tuple[Session, Document]:
        """The session for `raw_path` holding the file's current text (or `content`)."""
        return await self.sync.open(raw_path, content)

    def holds(self, path: Path) -> bool:
        """Whether a server has `path` open."""
        return self.pool.document(path) is not None

    def document(self, path: Path) -> Document | None:
        """The open document of `path` (the text its server holds), if any."""
        return self.pool.document(path)

    def close_document(self, path: Path) -> None:
        """Close `path` wherever it is open (the servers read it from disk again)."""
        self.sync.close_document(path)

    def file_lock(
        self, path: Path, disk: bool = False
    ) -> contextlib.AbstractAsyncContextManager[None]:
        """Serialize calls that hold a file's text: other text (unsaved content), or `disk`,
        the disk's for a question (the watcher's changes of it go through meanwhile)."""
        return self.sync.file_lock(path, disk)

    async def refresh_open_documents(self, catch_up: bool = False) -> None:
        """Send every open document's current disk text (`DocumentSync.refresh`). With
        `catch_up`, first wait until the watcher has told the servers of every change made
        before this call (files they have not opened included)."""
        if catch_up and self.watcher is not None:
            await self.watcher.catch_up()
            self._retooled()
            await self._outside_changed()
        await self.sync.refresh()

    def follow(self, paths: Iterable[Path], read: bool = False) -> None:
        """Files outside the root whose changes count (a tsconfig's ../base.json), or in a
        folder the watcher leaves out (a package's config it extends, in node_modules): the
        watcher sees only the root's other files, so each question looks at their stamps.
        `read`: sources a program reads (a linked package's build), in `Followed.stamp`."""
        for path in paths:
            if self.root not in path.parents or self.ignore(path):
                self.following.add(path, read)

    async def _outside_changed(self) -> None:
        """The followed files outside the root that changed, told as the watcher tells a
        change (the servers reload a configuration told changed)."""
        if changed := self.following.changed():
            await self.apply_changes([FileEvent(Change.changed, p) for p in changed])

    def _retooled(self) -> None:
        """A toolchain in use changed on disk (`tool_stamps`: the watcher does not follow
        node_modules or environments): counted as a change, so nothing made before it is
        reused (the whole check, a baseline's comparison)."""
        interpreters = [daemon.interpreter for daemon in self.pool.mypy.values()]
        # mypy's `.pth` folders outside the root (../lib/src): an edit there, told as a change
        for path, was in self.toolchains.stamps.outside(interpreters):
            self.following.stamps.setdefault(path, was)
        if moved := self.toolchains.stamps.moved(self.toolchains.in_use(), interpreters):
            log.info("a toolchain changed on disk (%s): checked again", ", ".join(moved))
            self.toolchains.look_again()
            self._changes += 1

    # -- file changes ----------------------------------------------------------------------

    @property
    def changes_seen(self) -> int | None:
        """How many batches of file changes the watcher has applied; None when no watcher
        runs (then nothing about the disk may be assumed unchanged between calls)."""
        if self.watcher is None or not self.watcher.running:
            return None
        return self._changes

    def will_watch(self) -> None:
        """`watch` follows: servers the daemon starts before it leave file watching to lspd
        (else they watch for good, tsserver by polling every missing directory)."""
        self._will_watch = True
        self._unwatched_since = time.time_ns()

    @property
    def watching(self) -> bool:
        """Whether lspd follows file changes for the servers (or is about to)."""
        return self._will_watch if self.watcher is None else self.watcher.active

    async def watch(self) -> bool:
        """Follow changes under the root (the daemon does; a one-shot CLI call need not)."""
        if self.watcher is None:
            marker_dir = self.log_dir.parent / "watch"
            self.watcher = Watcher(self.root, marker_dir, self.ignore, self.apply_changes)
        self.symbols.start()  # read while the servers start, not at the first question
        started = await self.watcher.start()
        if started and self._unwatched_since is not None:
            await self._catch_up_unwatched(self._unwatched_since)
        return started

    async def _catch_up_unwatched(self, since_ns: int) -> None:
        """Files written between `will_watch` and the watcher's start: the servers started
        in that window may have read them before, and no event will tell them."""

        def written() -> list[Path]:
            stamps = ((path, files.stamp(path)) for path in self.projects.source_files())
            return [path for path, stamp in stamps if stamp is not None and stamp[0] >= since_ns]

        self._unwatched_since = None
        if paths := await asyncio.to_thread(written):
            await self.apply_changes([FileEvent(Change.changed, path) for path in paths])

    async def apply_changes(self, events: list[FileEvent]) -> None:
        """Tell each running server of changed files (`DiskChanges.apply`), and the symbol
        index and project scan."""
        self._changes += 1
        # A file come and gone in one batch (`sed -i`'s `sedXXXXXX`) changed nothing: kept,
        # it made the next check ask every file (trio: a server restarted, 30 s).
        self.changed_at.update((e.path, self._changes) for e in events if not e.transient)
        self.symbols.changed(events)
        if any(event.change is not Change.changed for event in events):
            self.projects.forget()  # files came or went: rescan the languages
        await self.sync.changes.apply(events)

    # -- lifecycle -------------------------------------------------------------------------

    async def prewarm(self) -> None:
        """Start the servers `workspace/prewarm.py` picks, together (see there)."""
        await asyncio.gather(*prewarm.start(self, prewarm.sessions(self)))

    async def close(self, polite: bool = True) -> None:
        """Stop the watcher, the index's scan, every server and builder. Not `polite` (a
        one-shot CLI's workspace, its answer made): the servers are ended without asking
        them to shut down first (clangd takes 0.9 s to exit after one file was open)."""
        if self.watcher is not None:
            await self.watcher.stop()
        await self.symbols.close()
        await self.pool.stop(polite)
        await asyncio.gather(*(builder.stop() for builder in self.builders.values()))
        if self.declarations is not None:
            await self.declarations.stop()
        await self.kept_copy.end()
