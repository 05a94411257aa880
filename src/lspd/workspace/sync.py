"""The text each server holds of the workspace's files, kept as the disk says: opened with
the file's current text (or unsaved content), sent again when the file changed (by its
stamp), closed when it is deleted and reopened when it comes back (`disk_changes`: how the
servers are told of the watcher's changes; `synced`: what they hold, by its stamp)."""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from lspd.servers.registry import ServerDefinition
from lspd.workspace import files, paths
from lspd.workspace.disk_changes import DiskChanges
from lspd.workspace.file_locks import FileLocks
from lspd.workspace.ignore import Ignore
from lspd.workspace.pool import SessionPool
from lspd.workspace.synced import Synced

log = logging.getLogger(__name__)


class DocumentSync:
    """The open documents of one workspace's sessions, and their stamps.

    Every answer is about the file as it is on disk now: each `open` re-reads the file and
    sends the server the new text when it changed.
    """

    def __init__(self, pool: SessionPool, ignore: Ignore) -> None:
        self.pool = pool
        self.root = pool.root
        self.ignore = ignore
        self._locks = FileLocks()
        self._synced = Synced(pool)
        # The text of each file when lspd first read it: the `session` baseline.
        self.first_seen: dict[Path, str] = {}
        self.changes = DiskChanges(pool, self._locks, self._synced)  # the watcher's, told

    async def open(self, raw_path: str, content: str | None = None) -> tuple[Session, Document]:
        """The session for `raw_path` holding the file's current text (or `content`)."""
        path, walked = paths.confined(self.root, raw_path)  # each part's lstat, the file's last
        shown = paths.display(self.root, path)
        stamp = (walked[-1].st_mtime_ns, walked[-1].st_size) if walked else files.stamp(path)
        limits = self.pool.left_out.limits
        unchanged = None if content is not None else self._synced.unchanged(path, stamp, limits)
        on_disk = None
        if unchanged is not None:  # what a read would give: the text held, as it was sent
            on_disk = unchanged[0].text
        elif content is None or path.exists():  # unsaved content may be a file still to come
            # A missing file, a directory, a binary: clear errors.
            like = functools.partial(ending_like, self.root, self.ignore, path)
            on_disk = files.read_source(path, shown, like)
            self.first_seen.setdefault(path, on_disk)
        definition = self.pool.definition_for(path)
        self.pool.left_out.refuse_aside(path, shown, definition.name)
        # A file over the size limits is asked of a server of its own, the other files'
        # questions never waiting behind it: for the servers that take a second process
        # (`second_server`: basedpyright, tsc --lsp; not tsserver, loading a project twice).
        text = content if content is not None else on_disk
        if unchanged is not None:
            heavy = unchanged[1]
        else:
            heavy = definition.second_server and text is not None and limits.exceeded_by(text)
        project = self.pool.project_root(path, definition, walked[-2::-1] if walked else None)
        session = self.pool.session(definition, project, heavy=heavy)
        held = self.pool.document(path)
        if held is not None and session.documents.get(held.uri) is not held:
            self.close_document(path)  # it grew over the limits, or shrank under them
        language_id = definition.extensions[path.suffix.lower()]
        if content is None:
            assert on_disk is not None
            document = await session.sync_document(path, on_disk, language_id)
            if stamp is not None:
                self._synced.opened(path, stamp, document, limits, heavy)
        else:
            same = content == on_disk
            document = await session.sync_document(path, content, language_id, on_disk=same)
            if on_disk is None:
                self._synced.absent.add(path)
            self._synced.forget(path)  # the server does not hold the disk text
        await session.wait_loaded(path)
        document.used = time.monotonic()
        return session, document

    @contextlib.asynccontextmanager
    async def visiting(self, path: Path) -> AsyncIterator[tuple[Session, Document]]:
        """`path` open in a session for a few questions about it: as it is when a server
        holds it already; else opened for them and closed again (the server frees it), once
        the server is ready (files opened before a cold basedpyright has set its project up
        are handled first and delay that: 0.3 s on click, 0.2 s on a TypeScript project,
        bench/symbols.py), not waiting for the project to load; in a running session of its
        server whose folders hold it already when there is one: a project new to the server
        would cost it a workspace folder to load (a second or more, and its memory for good).
        """
        shown = paths.display(self.root, path)
        if self.pool.document(path) is not None:
            yield await self.open(shown)
            return
        definition = self.pool.definition_for(path)
        text = files.read_source(path, shown)
        self.first_seen.setdefault(path, text)  # as `open` would: the `session` baseline
        host = _running_host(self.pool, definition, path) or self.pool.session_for(path)
        language = definition.extensions[path.suffix.lower()]
        await host.start()
        await host.wait_ready()
        document = await host.sync_document(path, text, language)
        opened = document.used
        try:
            yield host, document
        finally:
            if document.used == opened:  # else a question opened it meanwhile: it stays
                self.close_document(path)

    def close_document(self, path: Path) -> None:
        """Close `path` wherever it is open (the servers read it from disk again)."""
        for session in self.pool.sessions.values():
            session.close_document(path)
        self._synced.forget(path)
        self._synced.absent.discard(path)

    @contextlib.asynccontextmanager
    async def file_lock(self, path: Path, disk: bool = False) -> AsyncIterator[None]:
        """Serialize calls holding `path`'s text: other than the disk's (unsaved content: its
        changes kept back until that is restored) or, `disk`, the disk's (`file_locks`)."""
        try:
            async with self._locks.held(path, disk):
                yield
        finally:  # the disk's text is restored: the changes seen meanwhile now
            try:
                await self.changes.tell_kept_back()
            except Exception:  # as the watcher's delivery: said, not the caller's failure
                log.exception("telling the servers of the changes kept back failed")

    def locked(self, path: Path) -> bool:
        """Whether a call holds `path`'s lock (of either kind)."""
        return self._locks.locked(path)

    async def refresh(self) -> None:
        """Send every open document's current disk text, so cross-file answers are current.

        A `stat` per document; a file is read again only when its size or mtime changed, or
        when its mtime is too recent to tell two writes apart (see `files.settled`).
        """
        await self.changes.tell_kept_back()
        for session in list(self.pool.sessions.values()):
            for document in list(session.documents.values()):
                path = document.path
                if self._locks.other_text(path):
                    continue  # it holds unsaved content being checked, restored after
                stamp = files.stamp(path)
                if self._synced.current(path, stamp):
                    continue
                try:
                    await self._synced.from_disk(session, path, document.language_id, stamp)
                except InvalidInput:
                    session.close_document(path)
                    self._synced.forget(path)


def ending_like(root: Path, ignore: Ignore, path: Path) -> Iterable[str]:
    """Workspace files whose path ends like `path`'s part inside the root."""
    if not path.is_relative_to(root):
        return
    asked = path.relative_to(root)
    for directory, names in ignore.walk():
        for name in names:
            if name == asked.name and (directory / name).match(asked.as_posix()):
                yield paths.display(root, directory / name)


def _running_host(pool: SessionPool, definition: ServerDefinition, path: Path) -> Session | None:
    """A running session of `definition`'s server (one process for several projects) whose
    folders hold `path` already."""
    return next(
        (
            s
            for s in pool.regular()
            if definition.shared
            and s.definition.name == definition.name
            and s.state in ("starting", "indexing", "ready")
            and any(path.is_relative_to(folder) for folder in s.folders)
        ),
        None,
    )
