"""The text each server holds of the workspace's files, kept as the disk says: opened with
the file's current text (or unsaved content), sent again when the file changed (by its
stamp), closed when it is deleted and reopened when it comes back.

A file that appears where a server may have looked for it in vain (lspd saw it deleted, or
held it open while it was not on disk) is told to the servers as created while none holds it
open (closed first if one did, opened again after): tsserver drops a watcher event of a file
open in it (`ResolutionCache.scheduleInvalidateResolutionOfFailedLookupLocation`: "prevent
saving an open file from over-eagerly triggering invalidation"), so an importer's failed
resolution of a module renamed away and back (`Cannot find module './shapes'`) stayed for
good once lspd had opened the file before telling of it. A file replaced in place (there
all along for the server) gets its new text alone. The events of a file whose lock holds
other text (unsaved content or a baseline's text being checked) are told once the lock is let
go; a question's lock of the disk's text lets them through (`file_locks`)."""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.servers.registry import ServerDefinition
from lspd.workspace import files, paths
from lspd.workspace.file_locks import FileLocks, KeptBack
from lspd.workspace.ignore import Ignore
from lspd.workspace.pool import SessionPool
from lspd.workspace.pyright_restart import restart_reason
from lspd.workspace.pyright_watch import included, outside, reloads
from lspd.workspace.toolchain import NATIVE
from lspd.workspace.watcher import Change, FileEvent

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
        # (mtime_ns, size) of the disk text each open document was last synced from.
        self._stamps: dict[Path, tuple[int, int]] = {}
        # The document `open` last synced from the disk, its version then, and whether it was
        # over the size limits (`_unchanged`).
        self._synced: dict[Path, tuple[Document, int, files.Limits, bool]] = {}
        # The text of each file when lspd first read it: the `session` baseline.
        self.first_seen: dict[Path, str] = {}
        # Open documents whose file was deleted: reopened if the file comes back.
        self._deleted: dict[Path, tuple[Session, str]] = {}
        # Documents opened with unsaved content while no file was there (a file still to come).
        self._absent: set[Path] = set()
        self._kept_back = KeptBack()

    async def open(self, raw_path: str, content: str | None = None) -> tuple[Session, Document]:
        """The session for `raw_path` holding the file's current text (or `content`)."""
        path, walked = paths.confined(self.root, raw_path)  # each part's lstat, the file's last
        shown = paths.display(self.root, path)
        stamp = (walked[-1].st_mtime_ns, walked[-1].st_size) if walked else files.stamp(path)
        limits = self.pool.left_out.limits
        unchanged = None if content is not None else self._unchanged(path, stamp, limits)
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
                self._stamps[path] = stamp
                self._synced[path] = (document, document.version, limits, heavy)
        else:
            same = content == on_disk
            document = await session.sync_document(path, content, language_id, on_disk=same)
            if on_disk is None:
                self._absent.add(path)
            self._forget(path)  # the server does not hold the disk text
        await session.wait_loaded(path)
        document.used = time.monotonic()
        return session, document

    def _unchanged(
        self, path: Path, stamp: tuple[int, int] | None, limits: files.Limits
    ) -> tuple[Document, bool] | None:
        """The document `open` synced from the disk and whether it is heavy, when the file
        is as it was then (its stamp, settled: `files.settled`) and the document as it was
        sent (the same one, its version unchanged: nothing replaced its text since); None
        otherwise: the file is read again. A warm question's read of its file and count of
        its lines (`Limits.exceeded_by`) cost more than the server's hover of it."""
        synced = self._synced.get(path)
        if synced is None or stamp is None or stamp != self._stamps.get(path):
            return None
        document, version, held_limits, heavy = synced
        if (
            not files.settled(stamp)
            or document.version != version
            or self.pool.document(path) is not document
            or held_limits != limits
        ):
            return None
        return document, heavy

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
        self._forget(path)
        self._absent.discard(path)

    def _forget(self, path: Path) -> None:
        """Drop what `open` remembers of `path` as synced: no server holds its disk text."""
        self._stamps.pop(path, None)
        self._synced.pop(path, None)

    @contextlib.asynccontextmanager
    async def file_lock(self, path: Path, disk: bool = False) -> AsyncIterator[None]:
        """Serialize calls holding `path`'s text: other than the disk's (unsaved content: its
        changes kept back until that is restored) or, `disk`, the disk's (`file_locks`)."""
        try:
            async with self._locks.held(path, disk):
                yield
        finally:  # the disk's text is restored: the changes seen meanwhile now
            try:
                await self._kept_back.tell(self.apply, self._locks.other_text)
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
        await self._kept_back.tell(self.apply, self._locks.other_text)
        for session in list(self.pool.sessions.values()):
            for document in list(session.documents.values()):
                path = document.path
                if self._locks.other_text(path):
                    continue  # it holds unsaved content being checked, restored after
                stamp = files.stamp(path)
                if stamp is not None and stamp == self._stamps.get(path) and files.settled(stamp):
                    continue
                try:
                    await self._sync_from_disk(session, path, document.language_id, stamp)
                except InvalidInput:
                    session.close_document(path)
                    self._forget(path)

    async def _sync_from_disk(
        self, session: Session, path: Path, language_id: str, stamp: tuple[int, int] | None
    ) -> None:
        """Send the server `path`'s text on disk (nothing when it holds it already) and
        remember `stamp`, taken before the read. Raises `InvalidInput` for an unreadable file."""
        text = files.read_source(path, paths.display(self.root, path))
        await session.sync_document(path, text, language_id)
        if stamp is not None:
            self._stamps[path] = stamp

    async def apply(self, events: list[FileEvent]) -> None:
        """Tell each running server of changed files as an editor would: open documents get
        their new text (`didChange`), closed when deleted, reopened when back; the rest (and
        deletions) as `workspace/didChangeWatchedFiles` (the module's doc); a pyright server
        whose stub came or went restarts. A locked file's wait until its text is restored."""
        events = self._kept_back.keep(events, self._locks.other_text)
        for key, session in list(self.pool.sessions.items()):
            if session.state not in ("indexing", "ready") or not events:
                continue
            if not _restarted(self.root, self.pool, key, session, events):
                await self._tell(session, events)
            else:  # its documents go with it
                self._deleted = {p: d for p, d in self._deleted.items() if d[0] is not session}
        self._absent.difference_update(e.path for e in events if e.change is Change.created)

    async def _tell(self, session: Session, events: list[FileEvent]) -> None:
        watched = []
        reopen: list[tuple[Path, str]] = []
        for event in events:
            language_id = self._let_go(session, event)
            if language_id is not None:
                reopen.append((event.path, language_id))
                watched += told(session, event)
                continue
            held = path_to_uri(event.path) in session.documents
            await self._apply_to_document(session, event)
            if not held or event.change is Change.deleted:
                watched += told(session, event)
        _notify(session, watched + _beside(session, events), events)
        for at, (path, language_id) in enumerate(reopen):  # after the server heard of it
            try:
                with contextlib.suppress(InvalidInput):  # unreadable: the next question says why
                    await self._sync_from_disk(session, path, language_id, files.stamp(path))
            except BaseException:  # cut short: reopened when told again (`KeptBack.tell`)
                self._deleted.update((p, (session, language)) for p, language in reopen[at:])
                raise

    def _let_go(self, session: Session, event: FileEvent) -> str | None:
        """A file created where the server may have looked for it in vain (lspd saw it deleted,
        or held it while absent): closed, the language to open it with once told. None for a
        file replaced in place: its new text is enough (a checkout took twice as long)."""
        path = event.path
        if event.change is not Change.created:
            return None
        document = session.documents.get(path_to_uri(path))
        if document is not None and path in self._absent:
            session.close_document(path)
            self._forget(path)
            self._deleted.pop(path, None)
            return document.language_id
        return None if document is not None else _reopening(self._deleted, session, path)

    async def _apply_to_document(self, session: Session, event: FileEvent) -> None:
        path = event.path
        document = session.documents.get(path_to_uri(path))
        if event.change is Change.deleted:
            if document is not None:
                session.close_document(path)
                self._forget(path)
                self._deleted[path] = (session, document.language_id)
            return
        language_id = document.language_id if document else _reopening(self._deleted, session, path)
        if language_id is None:
            return
        with contextlib.suppress(InvalidInput):  # unreadable now: the next question says why
            await self._sync_from_disk(session, path, language_id, files.stamp(path))


def _restarted(
    root: Path, pool: SessionPool, key: Any, session: Session, events: list[FileEvent]
) -> bool:
    """Whether a pyright server restarts for `events` (`pyright_restart`: a change its
    running server does not follow)."""
    if why := restart_reason(root, session.name, session.folders, events):
        pool.toolchains.restart(key, why)
    return bool(why)


def _beside(session: Session, events: list[FileEvent]) -> list[dict[str, Any]]:
    """What a pyright server is told beside `events` (`pyright_watch`: it drops the events
    of files it does not track, and watches sources in its `include` folders alone): the
    files changed outside those read again at once (`_reread`), and the `include` folders
    told created, so that it resolves imports again, where a file or folder came or went."""
    changes = [(event.path, int(event.change)) for event in events]
    _reread(session, changes)
    folders = included(session.name, session.folders, changes)
    return [item for folder in folders for item in told(session, FileEvent(Change.created, folder))]


def _notify(session: Session, watched: list[dict[str, Any]], events: list[FileEvent]) -> None:
    """Tell `session` of `watched` (when any), and of the configurations they make it
    reload (`pyright_watch.reloads`: questions wait for it)."""
    if watched:
        session.notify_watched_files(watched)
        changes = [(event.path, int(event.change)) for event in events]
        session.reloading(reloads(session.name, session.folders, changes))


def _reread(session: Session, changes: list[tuple[Path, int]]) -> None:
    """The Python files changed in place that a pyright server watches no source of
    (`pyright_watch.outside`) and does not hold open: opened with the disk's text, sent again
    (its importers marked to be checked again) and closed, so it takes them in at once."""
    for path in outside(session.name, session.folders, changes):
        if path_to_uri(path) in session.documents:
            continue
        text = files.read_text(path)
        if text is None:
            continue
        language = session.definition.extensions[path.suffix.lower()]
        document, _ = session.documents.sync(path, text, language, session.notify)
        document.resend(session.notify)
        session.close_document(path)


def _reopening(
    deleted: dict[Path, tuple[Session, str]], session: Session, path: Path
) -> str | None:
    """The language of `path`'s document in `session` when its file was deleted (`deleted`:
    the documents closed so), if so; forgotten there."""
    reopen = deleted.get(path)
    if reopen is None or reopen[0] is not session:
        return None
    del deleted[path]
    return reopen[1]


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


def told(session: Session, event: FileEvent) -> list[dict[str, Any]]:
    """The watched-file changes `session` is told of for `event`, by what it registered for.

    A file created may be one replaced: written beside and moved over (an editor's atomic
    save, `sed -i`), or deleted and written again (`git apply`, `git checkout`), which
    inotify reports as created, never as changed. A server keeping the text it read of a
    file (TypeScript 7's `tsc --lsp` rereads only a file told changed or deleted) kept the
    old text of a replaced one for good: it is told changed first, then created (in that
    order: a change after a create in one notification is dropped by it as the create's).
    Only TypeScript 7's: ty, told a new file changed then created, never read it (a caller
    of a function whose file was just written kept its error)."""
    uri = path_to_uri(event.path)
    replaced = event.change is Change.created and session.name == NATIVE
    kinds = [Change.changed, Change.created] if replaced else [event.change]
    return [
        {"uri": uri, "type": int(kind)}
        for kind in kinds
        if session.registrations.watches(event.path, kind, session.folders)
    ]
