"""Each file's lock, and the watcher's changes kept back while one holds other text.

A call holds a file's lock for one of two things: the servers hold other text than the
disk's for it (an overlay: unsaved content, a baseline's text), or a question asks about the
disk's text (`diagnostics FILE`, a whole check's pull), serialized with the first. Only the
first keeps the watcher's changes of the file back (told once it is let go) and is left
alone by `DocumentSync.refresh`: a question holding the disk's text wants the disk's change
through (another file's question answered meanwhile read the old text of it, issue 40)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from lspd.workspace.watcher import Change, FileEvent


class FileLocks:
    """One lock a file, and which files' holders hold other text than the disk's."""

    def __init__(self) -> None:
        self._locks: dict[Path, asyncio.Lock] = {}
        self._other: set[Path] = set()

    @contextlib.asynccontextmanager
    async def held(self, path: Path, disk: bool) -> AsyncIterator[None]:
        """`path`'s lock, for the disk's text (`disk`) or other text."""
        async with self._locks.setdefault(path, asyncio.Lock()):
            if not disk:
                self._other.add(path)
            try:
                yield
            finally:
                self._other.discard(path)

    def locked(self, path: Path) -> bool:
        """Whether a call holds `path`'s lock, of either kind."""
        lock = self._locks.get(path)
        return lock is not None and lock.locked()

    def other_text(self, path: Path) -> bool:
        """Whether a call holds `path`'s lock with other text than the disk's."""
        return path in self._other


class KeptBack:
    """The changes seen of files whose lock was held, to tell once it is let go: each file
    once, judged by the disk as `watcher.fold` judges a batch (there now, it was created if
    it came or went meanwhile)."""

    def __init__(self) -> None:
        self._changes: dict[Path, set[Change]] = {}

    def keep(self, events: list[FileEvent], locked: Callable[[Path], bool]) -> list[FileEvent]:
        """The events to tell now; those of locked files are kept back."""
        for event in events:
            if locked(event.path):
                self._changes.setdefault(event.path, set()).add(event.change)
        return [event for event in events if not locked(event.path)]

    def free(self, locked: Callable[[Path], bool]) -> list[FileEvent]:
        """The events kept back of files no longer locked, forgotten here."""
        free = [path for path in self._changes if not locked(path)]
        return [FileEvent(_kind(self._changes.pop(path), path), path) for path in free]

    async def tell(
        self, apply: Callable[[list[FileEvent]], Awaitable[None]], locked: Callable[[Path], bool]
    ) -> None:
        """`apply` the events kept back of files no longer locked; kept back again when it is
        cut short (a question cancelled while its refresh tells them): all told later."""
        if events := self.free(locked):
            try:
                await apply(events)
            except BaseException:
                self.keep(events, lambda _: True)
                raise


def _kind(changes: set[Change], path: Path) -> Change:
    if len(changes) == 1:
        return next(iter(changes))
    return Change.created if os.path.lexists(path) else Change.deleted
