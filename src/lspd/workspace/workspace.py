"""One workspace root: its sessions (one per server and toolchain, or per project for servers
that take one project only; started on demand), files and paths."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from lspd.dirs import state_dir
from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.servers.install import install_on_need
from lspd.servers.registry import (
    ServerDefinition,
    definitions,
    known_extensions,
)
from lspd.workspace import files, paths, prewarm
from lspd.workspace.config import Config, load_config, merge, user_restricted
from lspd.workspace.ignore import Ignore
from lspd.workspace.left_out import LeftOut
from lspd.workspace.overlay import Gate
from lspd.workspace.projects import Project, Projects
from lspd.workspace.retool import Toolchains
from lspd.workspace.symbols.index import SymbolIndex
from lspd.workspace.toolchain import Toolchain, settler
from lspd.workspace.tsbuilder import Builder
from lspd.workspace.watcher import Change, FileEvent, Watcher

log = logging.getLogger(__name__)


class Workspace:
    """Language intelligence for the files under `root`.

    Sessions start on first need and stay warm; a crashed one is restarted by the next call.
    Every answer is about the file as it is on disk now: each call re-reads the file and
    sends the server the new text when it changed.
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
        self.request_timeout = request_timeout
        self.diagnostics_timeout = diagnostics_timeout
        self.log_dir = log_dir or state_dir(self.root) / "logs"
        self.config: Config = load_config(self.root)  # a bad lspd.toml fails here, at once
        # Restricted: nothing that came with the repository runs (its toolchain, lspd.toml's
        # servers and arguments); the user decides it, never the workspace.
        self.restricted = user_restricted() if restricted is None else restricted
        # The servers as this workspace runs them: lspd.toml's arguments and settings applied.
        apply = (lambda d: d) if self.restricted else self.config.apply
        self.definitions = {name: apply(d) for name, d in definitions().items()}
        self.chosen = {} if self.restricted else self.config.chosen
        self.started = time.monotonic()
        # One session per (server, project root): nested projects each get their own.
        # By (server, toolchain) for servers taking several projects, else (server, project).
        self.sessions: dict[tuple[str, str], Session] = {}
        self.toolchains = Toolchains(
            self.root, self.config, self.restricted, self.definitions, self.sessions
        )
        self._file_locks: dict[Path, asyncio.Lock] = {}
        # (mtime_ns, size) of the disk text each open document was last synced from.
        self._stamps: dict[Path, tuple[int, int]] = {}
        self.ignore = Ignore(self.root, self.config.ignore)
        # Files too large, or set aside (see there); its limits hold in restricted mode too.
        self.left_out = LeftOut(self.config, self.display)
        self.projects = Projects(self.root, self.definitions, self.chosen, self.ignore)
        self.watcher: Watcher | None = None
        self._will_watch = False  # `watch` is on its way (see `will_watch`)
        self._unwatched_since: int | None = None  # wall clock (ns) at `will_watch`
        self._changes = 0  # batches of file changes the watcher has applied
        self.changed_at: dict[Path, int] = {}  # each file changed: at which batch, last
        # The text of each file when lspd first read it: the `session` baseline.
        self.first_seen: dict[Path, str] = {}
        self.gate = Gate()  # calls share the servers; an overlay has them alone
        # Open documents whose file was deleted: reopened if the file comes back.
        self._deleted: dict[Path, tuple[Session, str]] = {}
        # Symbols by name, from the servers' document symbols, fresh with the files.
        self.symbols = SymbolIndex(self)
        # The TypeScript builders of whole-project checks, by typescript package (`tsbuilder`).
        self.builders: dict[Path, Builder] = {}

    # -- paths -----------------------------------------------------------------------------

    def resolve(self, raw: str) -> Path:
        return paths.confine(self.root, raw)

    def display(self, path: Path) -> str:
        return paths.display(self.root, path)

    # -- sessions --------------------------------------------------------------------------

    def handler(self, path: Path) -> ServerDefinition | None:
        """The server for `path` as this workspace runs it (lspd.toml's choice), or None."""
        return self.projects.handler(path)

    def definition_for(self, path: Path) -> ServerDefinition:
        definition = self.handler(path)
        if definition is None:
            suffix = path.suffix or "no extension"
            raise InvalidInput(
                f"no language server handles {self.display(path)} ({suffix}); "
                f"lspd knows these extensions: {', '.join(known_extensions())}"
            )
        return definition

    def project_root(self, path: Path, definition: ServerDefinition) -> Path:
        """The nearest directory above `path` holding one of the server's project markers."""
        return self.projects.project_root(path, definition)

    def session(self, definition: ServerDefinition, project: Path | None = None) -> Session:
        """The session answering `project` (default: the workspace root) for `definition`.

        A server that takes several projects (`shared` in servers.toml: workspace folders, or
        its own project discovery as tsserver's) runs once per toolchain: projects with the
        same TypeScript or interpreter share its process. Others run once per project.
        """
        project = project or self.root
        key, adapted, toolchain = self._adapted(definition, project)
        session = self.sessions.get(key)
        if session is None:
            logs = self.log_dir
            if project != self.root:
                logs = logs / "projects" / project.relative_to(self.root)
            if self.watching and adapted.watching_options:
                options = merge(adapted.initialization_options, adapted.watching_options)
                adapted = dataclasses.replace(adapted, initialization_options=options)
            session = Session(
                adapted,
                project,
                logs,
                request_timeout=self.request_timeout,
                toolchain=None if toolchain is None else toolchain.label(),
                prepare=install_on_need,
                settle=settler(adapted, toolchain, project),
                watch=self.left_out.watch(adapted.name),
            )
            session.stall.reason = self.toolchains.announced.pop(key, None)
            self.sessions[key] = session
        else:
            session.add_folder(project)
        return session

    def _adapted(
        self, definition: ServerDefinition, project: Path
    ) -> tuple[tuple[str, str], ServerDefinition, Toolchain | None]:
        """The key of the session answering `project`, and the server as it runs there."""
        # Looked up again now and then: a new .venv restarts the server (`retool`). Its
        # TypeScript 7 may run another server (`tsc --lsp`).
        return self.toolchains.key(definition, project)

    def adapted(
        self, definition: ServerDefinition, project: Path
    ) -> tuple[ServerDefinition, Toolchain | None]:
        """The server as it runs for `project`, and the project's TypeScript or Python."""
        return self._adapted(definition, project)[1:]

    def session_key(self, definition: ServerDefinition, project: Path) -> tuple[str, str]:
        """Which session answers `project` for `definition` (see `session`)."""
        return self._adapted(definition, project)[0]

    def _ending_like(self, path: Path) -> Iterable[str]:
        """Workspace files whose path ends like `path`'s part inside the root."""
        if not path.is_relative_to(self.root):
            return
        asked = path.relative_to(self.root)
        for directory, names in self.ignore.walk():
            for name in names:
                if name == asked.name and (directory / name).match(asked.as_posix()):
                    yield self.display(directory / name)

    def session_for(self, path: Path) -> Session:
        definition = self.definition_for(path)
        return self.session(definition, self.project_root(path, definition))

    async def open(self, raw_path: str, content: str | None = None) -> tuple[Session, Document]:
        """The session for `raw_path` holding the file's current text (or `content`)."""
        path = self.resolve(raw_path)
        shown = self.display(path)
        stamp = files.stamp(path)
        on_disk = None
        if content is None or path.exists():  # unsaved content may be a file still to come
            # A missing file, a directory, a binary: clear errors.
            on_disk = files.read_source(path, shown, lambda: self._ending_like(path))
            self.first_seen.setdefault(path, on_disk)
        definition = self.definition_for(path)
        self.left_out.refuse_aside(path, shown, definition.name)
        session = self.session(definition, self.project_root(path, definition))
        language_id = definition.extensions[path.suffix.lower()]
        if content is None:
            assert on_disk is not None
            document = await session.sync_document(path, on_disk, language_id)
            if stamp is not None:
                self._stamps[path] = stamp
        else:
            document = await session.sync_document(path, content, language_id)
            self._stamps.pop(path, None)  # the server does not hold the disk text
        await session.wait_loaded(path)
        document.used = time.monotonic()
        return session, document

    def holds(self, path: Path) -> bool:
        """Whether a server has `path` open."""
        return self.document(path) is not None

    def document(self, path: Path) -> Document | None:
        """The open document of `path` (the text its server holds), if any."""
        uri = path_to_uri(path)
        for session in self.sessions.values():
            if (document := session.documents.get(uri)) is not None:
                return document
        return None

    def close_document(self, path: Path) -> None:
        """Close `path` wherever it is open (the servers read it from disk again)."""
        for session in self.sessions.values():
            session.close_document(path)
        self._stamps.pop(path, None)

    @contextlib.asynccontextmanager
    async def file_lock(self, path: Path) -> AsyncIterator[None]:
        """Serialize calls that temporarily replace a file's text (unsaved content)."""
        lock = self._file_locks.setdefault(path, asyncio.Lock())
        async with lock:
            yield

    async def refresh_open_documents(self, catch_up: bool = False) -> None:
        """Send every open document's current disk text, so cross-file answers are current.

        A `stat` per document; a file is read again only when its size or mtime changed, or
        when its mtime is too recent to tell two writes apart (see `_settled`). With
        `catch_up`, first wait until the watcher has told the servers of every change made
        before this call (files they have not opened included).
        """
        if catch_up and self.watcher is not None:
            await self.watcher.catch_up()
        for session in list(self.sessions.values()):
            for document in list(session.documents.values()):
                path = document.path
                if self._locked(path):
                    continue  # it holds unsaved content being checked, restored after
                stamp = files.stamp(path)
                if stamp is not None and stamp == self._stamps.get(path) and files.settled(stamp):
                    continue
                try:
                    await self._sync_from_disk(session, path, document.language_id, stamp)
                except InvalidInput:
                    session.close_document(path)
                    self._stamps.pop(path, None)

    async def _sync_from_disk(
        self, session: Session, path: Path, language_id: str, stamp: tuple[int, int] | None
    ) -> None:
        """Send the server `path`'s text on disk (nothing when it holds it already) and
        remember `stamp`, taken before the read. Raises `InvalidInput` for an unreadable file."""
        text = files.read_source(path, self.display(path))
        await session.sync_document(path, text, language_id)
        if stamp is not None:
            self._stamps[path] = stamp

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
        """Tell each running server of changed files, the way an editor would.

        Open documents get their new full text (`didChange`), are closed when deleted and
        reopened when they come back; the rest (and deletions) go to the servers that
        registered for them as `workspace/didChangeWatchedFiles`. A file whose lock is held
        (unsaved content being checked) is left alone: its check restores the disk text.
        """
        self._changes += 1
        self.changed_at.update((event.path, self._changes) for event in events)
        self.symbols.changed(events)
        if any(event.change is not Change.changed for event in events):
            self.projects.forget()  # files came or went: rescan the languages
        for session in list(self.sessions.values()):
            if session.state not in ("indexing", "ready"):
                continue
            watched = []
            for event in events:
                if self._locked(event.path):
                    continue
                uri = path_to_uri(event.path)
                held = uri in session.documents and event.change is not Change.deleted
                await self._apply_to_document(session, event)
                if not held and session.registrations.watches(event.path, event.change):
                    watched.append({"uri": uri, "type": int(event.change)})
            if watched:
                session.notify_watched_files(watched)

    async def _apply_to_document(self, session: Session, event: FileEvent) -> None:
        path = event.path
        document = session.documents.get(path_to_uri(path))
        if event.change is Change.deleted:
            if document is not None:
                session.close_document(path)
                self._stamps.pop(path, None)
                self._deleted[path] = (session, document.language_id)
            return
        if document is None:
            reopen = self._deleted.get(path)
            if reopen is None or reopen[0] is not session:
                return
            del self._deleted[path]
            language_id = reopen[1]
        else:
            language_id = document.language_id
        with contextlib.suppress(InvalidInput):  # unreadable now: the next question says why
            await self._sync_from_disk(session, path, language_id, files.stamp(path))

    def _locked(self, path: Path) -> bool:
        lock = self._file_locks.get(path)
        return lock is not None and lock.locked()

    # -- lifecycle -------------------------------------------------------------------------

    def projects_present(self) -> list[Project]:
        """Each (server, project root) that files under the root need (see `Projects`)."""
        return self.projects.present()

    async def prewarm(self) -> None:
        """Start the servers `workspace/prewarm.py` picks, together (see there)."""
        await asyncio.gather(*prewarm.start(self, prewarm.sessions(self)))

    async def close(self) -> None:
        if self.watcher is not None:
            await self.watcher.stop()
        await self.symbols.close()
        await asyncio.gather(*(session.stop() for session in self.sessions.values()))
        await asyncio.gather(*(builder.stop() for builder in self.builders.values()))
