"""How the running servers are told of the disk's changes: as an editor would.

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
from pathlib import Path
from typing import Any

from lspd.errors import InvalidInput
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.workspace import files
from lspd.workspace.file_locks import FileLocks, KeptBack
from lspd.workspace.pool import SessionPool
from lspd.workspace.pyright_restart import restart_reason
from lspd.workspace.pyright_watch import included, outside, reloads
from lspd.workspace.synced import Synced
from lspd.workspace.toolchain import NATIVE
from lspd.workspace.watcher import Change, FileEvent


class DiskChanges:
    """The watcher's changes told to each running server, and those kept back meanwhile:
    of files whose lock holds other text than the disk's, told once it is let go."""

    def __init__(self, pool: SessionPool, locks: FileLocks, synced: Synced) -> None:
        self.pool = pool
        self.root = pool.root
        self._locks = locks
        self._synced = synced
        # Open documents whose file was deleted: reopened if the file comes back.
        self._deleted: dict[Path, tuple[Session, str]] = {}
        self._kept_back = KeptBack()

    async def tell_kept_back(self) -> None:
        """Tell the changes kept back of the files whose lock was let go since."""
        await self._kept_back.tell(self.apply, self._locks.other_text)

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
        self._synced.absent.difference_update(e.path for e in events if e.change is Change.created)

    async def _tell(self, session: Session, events: list[FileEvent]) -> None:
        watched = []
        reopen: list[tuple[Path, str]] = []
        # A file the server holds, that lspd never saw absent, told created was replaced
        # (`sed -i`, an atomic save, `git checkout`): no module came, none went (`_beside`).
        replaced = {
            e.path
            for e in events
            if e.change is Change.created
            and path_to_uri(e.path) in session.documents
            and e.path not in self._synced.absent
        }
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
        _notify(session, watched + _beside(session, events, replaced), events)
        for at, (path, language_id) in enumerate(reopen):  # after the server heard of it
            try:
                with contextlib.suppress(InvalidInput):  # unreadable: the next question says why
                    await self._synced.from_disk(session, path, language_id, files.stamp(path))
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
        if document is not None and path in self._synced.absent:
            session.close_document(path)
            self._synced.forget(path)
            self._deleted.pop(path, None)
            return document.language_id
        return None if document is not None else _reopening(self._deleted, session, path)

    async def _apply_to_document(self, session: Session, event: FileEvent) -> None:
        path = event.path
        document = session.documents.get(path_to_uri(path))
        if event.change is Change.deleted:
            if document is not None:
                session.close_document(path)
                self._synced.forget(path)
                self._deleted[path] = (session, document.language_id)
            return
        language_id = document.language_id if document else _reopening(self._deleted, session, path)
        if language_id is None:
            return
        with contextlib.suppress(InvalidInput):  # unreadable now: the next question says why
            await self._synced.from_disk(session, path, language_id, files.stamp(path))


def _restarted(
    root: Path, pool: SessionPool, key: Any, session: Session, events: list[FileEvent]
) -> bool:
    """Whether a pyright server restarts for `events` (`pyright_restart`: a change its
    running server does not follow)."""
    if why := restart_reason(root, session.name, session.folders, events):
        pool.toolchains.restart(key, why)
    return bool(why)


def _beside(session: Session, events: list[FileEvent], replaced: set[Path]) -> list[dict[str, Any]]:
    """What a pyright server is told beside `events` (`pyright_watch`: it drops the events
    of files it does not track, and watches sources in its `include` folders alone): the
    files changed outside those read again at once (`_reread`), and the `include` folders
    told created, so that it resolves imports again, where a file or folder came or went.
    A file `replaced` (held, never absent) is a change in place, and a transient one (come
    and gone in one batch: `sed -i`'s suffixless `sedXXXXXX`, taken for a folder gone) no
    change: told its folders created for them, basedpyright checked the whole project again
    (trio: 26-41 s after a `sed -i` that changed nothing; 0.5 s for it written in place)."""
    changes = [
        (event.path, int(Change.changed if event.path in replaced else event.change))
        for event in events
        if not event.transient
    ]
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
