"""What the servers hold of each file against the disk: the stamp of the disk text each open
document was last synced from, the document `open` sent then, and the documents held with
unsaved content while no file was there.

Shared by the questions' side (`sync.DocumentSync`: a warm question reads nothing when its
file is as it was synced) and the watcher's (`disk_changes.DiskChanges`: a change read again
is stamped, a deletion forgotten)."""

from __future__ import annotations

from pathlib import Path

from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from lspd.workspace import files, paths
from lspd.workspace.pool import SessionPool


class Synced:
    """The disk texts the servers hold, by their stamps, and the files held while absent."""

    def __init__(self, pool: SessionPool) -> None:
        self.pool = pool
        self.root = pool.root
        # (mtime_ns, size) of the disk text each open document was last synced from.
        self._stamps: dict[Path, tuple[int, int]] = {}
        # The document `open` last synced from the disk, its version then, and whether it was
        # over the size limits (`unchanged`).
        self._documents: dict[Path, tuple[Document, int, files.Limits, bool]] = {}
        # Documents opened with unsaved content while no file was there (a file still to come).
        self.absent: set[Path] = set()

    def opened(
        self,
        path: Path,
        stamp: tuple[int, int],
        document: Document,
        limits: files.Limits,
        heavy: bool,
    ) -> None:
        """Remember the document `open` synced from the disk text of `stamp`, as sent now,
        and whether it was over the size `limits` (`heavy`)."""
        self._stamps[path] = stamp
        self._documents[path] = (document, document.version, limits, heavy)

    def unchanged(
        self, path: Path, stamp: tuple[int, int] | None, limits: files.Limits
    ) -> tuple[Document, bool] | None:
        """The document `open` synced from the disk and whether it is heavy, when the file
        is as it was then (its stamp, settled: `files.settled`) and the document as it was
        sent (the same one, its version unchanged: nothing replaced its text since); None
        otherwise: the file is read again. A warm question's read of its file and count of
        its lines (`Limits.exceeded_by`) cost more than the server's hover of it."""
        synced = self._documents.get(path)
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

    def current(self, path: Path, stamp: tuple[int, int] | None) -> bool:
        """Whether the server holds the disk text of `stamp`, settled (nothing to read)."""
        return stamp is not None and stamp == self._stamps.get(path) and files.settled(stamp)

    def forget(self, path: Path) -> None:
        """Drop what `open` remembers of `path` as synced: no server holds its disk text."""
        self._stamps.pop(path, None)
        self._documents.pop(path, None)

    async def from_disk(
        self, session: Session, path: Path, language_id: str, stamp: tuple[int, int] | None
    ) -> None:
        """Send the server `path`'s text on disk (nothing when it holds it already) and
        remember `stamp`, taken before the read. Raises `InvalidInput` for an unreadable file."""
        text = files.read_source(path, paths.display(self.root, path))
        await session.sync_document(path, text, language_id)
        if stamp is not None:
            self._stamps[path] = stamp
