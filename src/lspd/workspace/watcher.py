"""Following file changes under the root: one watcher per workspace.

On Linux it is lspd's own inotify watcher (`inotify.py`), which never watches ignored
directories; elsewhere watchfiles. Events come in batches (20 ms of quiet, 300 ms at most),
are filtered by `Ignore`, folded to one event per path and handed to a callback that tells
the servers. When the system's watch limit is reached the watcher stops and says why
(`problem`, shown by `status`); answers then rely on re-checking open files.

`catch_up()` is a barrier: it writes a marker file into a folder watched by the same
watcher and returns once the batch holding the marker has been handled. inotify reports
events in order, so every change made before the call has then reached the servers —
freshness without guessing how long the watcher might take.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import anyio
import watchfiles

from lspd.workspace.inotify import Inotify, WatchLimit

log = logging.getLogger(__name__)
logging.getLogger("watchfiles.main").setLevel(logging.WARNING)  # not one line per batch

STEP_MS = 20  # a batch ends after this long without new events (idle: 50 wakeups/s)...
DEBOUNCE_MS = 300  # ...or after this long in all, so a long burst is handled in parts
RUST_TIMEOUT_MS = 5_000
CATCH_UP_TIMEOUT_S = 2.0


class Change(enum.IntEnum):
    """The LSP `FileChangeType` numbers."""

    created = 1
    changed = 2
    deleted = 3


@dataclass(frozen=True)
class FileEvent:
    """One change the watcher saw: created, changed or deleted, and the file; `transient`:
    created and gone again in one batch (a temporary file, `sed -i`'s `sedXXXXXX`)."""

    change: Change
    path: Path
    transient: bool = False


Deliver = Callable[[list[FileEvent]], Awaitable[None]]


class Watcher:
    """Watch `root` (minus what `ignored` says) and hand batches of events to `deliver`."""

    def __init__(
        self, root: Path, marker_dir: Path, ignored: Callable[[Path], bool], deliver: Deliver
    ) -> None:
        self.root = root
        self.marker = marker_dir / "catch-up"
        self._ignored = ignored
        self._deliver = deliver
        self._task: asyncio.Task[None] | None = None
        self._stop = anyio.Event()
        self._ready = False  # the watch is in place: a marker has come back
        self._placed = asyncio.Event()  # the watches are added (watchfiles: not known)
        self._started = asyncio.Event()  # `start` has ended, the watch in place or not
        self._finished = False  # the watch loop has ended
        self._written = 0  # the last number written to the marker
        self._seen = 0  # the last number read back after its batch was delivered
        self._progress = asyncio.Condition()
        self.watches: int | None = None  # directories watched (lspd's inotify watcher only)
        self.problem: str | None = None  # why not everything is watched

    @property
    def running(self) -> bool:
        return self._ready and self._task is not None and not self._task.done()

    @property
    def active(self) -> bool:
        """Running, or starting to: a server started now can leave file watching to lspd
        (the catch-up barrier waits for the watch to be in place). A server told otherwise
        keeps its own watching for good, tsserver by polling missing directories."""
        return self._task is not None and not self._task.done()

    async def start(self, timeout: float = 30.0) -> bool:
        """Start watching; True once the watch is in place (a marker came back)."""
        if self._task is not None:
            return self.running
        self.marker.parent.mkdir(parents=True, exist_ok=True)
        self._task = asyncio.create_task(self._run(), name="lspd-watcher")
        try:
            return await self._placed_in(self._task, timeout)
        finally:
            self._started.set()

    async def started(self, timeout: float) -> bool:
        """Whether the watch is in place, a start under way awaited for at most `timeout`
        seconds: a turn's start in a daemon's first seconds (`ops/turn_start.record`) is
        known only once the watcher runs."""
        if self._task is not None and not self._started.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._started.wait(), timeout)
        return self.running

    async def _placed_in(self, task: asyncio.Task[None], timeout: float) -> bool:
        """True once a marker came back within `timeout` seconds of the start."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        # lspd's inotify watcher says when its watches are in place: the first marker then
        # comes back (written earlier, it was lost and the next one waited 0.25 s more).
        placed = asyncio.ensure_future(self._placed.wait())
        await asyncio.wait({task, placed}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        placed.cancel()
        # A marker written before inotify is in place is never reported: write until one is.
        # (`stop` during the start cancels the task: this ends too.)
        while not task.done() and loop.time() < deadline:
            if await self._round_trip(timeout=0.25):
                self._ready = True
                log.info("watching %s for changes", self.root)
                return True
        log.warning("the file watcher did not start; answers still re-check open files")
        return False

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        self._ready = False

    def _stopped(self) -> bool:
        return self._finished or self._task is None or self._task.done()

    async def catch_up(self, timeout: float = CATCH_UP_TIMEOUT_S) -> bool:
        """Return once every change made before this call has been delivered.

        False (and a log line) when the watcher is not running or too slow; callers still
        hold the stat-checked open documents, only unopened files may then lag.
        """
        if not self.running:
            return False
        return await self._round_trip(timeout)

    async def _round_trip(self, timeout: float) -> bool:
        self._written += 1
        number = self._written
        try:  # in the loop, not a thread: numbers must reach the file in order
            self.marker.write_text(str(number))
        except OSError as exc:
            log.warning("cannot write the watcher's marker %s: %s", self.marker, exc)
            return False
        async with self._progress:
            try:
                await asyncio.wait_for(
                    self._progress.wait_for(lambda: self._seen >= number or self._stopped()),
                    timeout,
                )
            except TimeoutError:
                if self._ready:
                    log.warning("the file watcher did not catch up within %.1f s", timeout)
                return False
        return self._seen >= number

    async def _run(self) -> None:
        try:
            if sys.platform.startswith("linux") and os.environ.get("LSPD_WATCHER") != "watchfiles":
                await self._run_inotify()
            else:
                await self._run_watchfiles()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the file watcher stopped; answers still re-check open files")
        finally:
            self._ready = False
            self._finished = True
            async with self._progress:
                self._progress.notify_all()

    async def _run_inotify(self) -> None:
        limit = os.environ.get("LSPD_MAX_WATCHES")  # a cap of lspd's own, below the system's
        try:
            # Directories are judged as directories (`node_modules/` is no file name).
            notify = Inotify(self._ignored_dir(), int(limit) if limit and limit.isdigit() else None)
        except OSError as exc:
            log.warning("inotify is not available (%s); watching with watchfiles", exc)
            await self._run_watchfiles()
            return
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        try:
            try:
                notify.add_tree(self.root)
            except WatchLimit as exc:
                self.problem = f"{exc}: not following file changes; open files are re-read"
                log.warning("%s", self.problem)
                return
            notify.add_tree(self.marker.parent, ignore_rules=False)
            self.watches = notify.watches
            loop.add_reader(notify.fd, wake.set)
            self._placed.set()
            while True:
                await wake.wait()
                wake.clear()
                raw = set(notify.read())
                deadline = loop.time() + DEBOUNCE_MS / 1000
                while loop.time() < deadline:  # the batch ends after STEP_MS of quiet
                    try:
                        await asyncio.wait_for(wake.wait(), STEP_MS / 1000)
                    except TimeoutError:
                        break
                    wake.clear()
                    raw |= set(notify.read())
                self.watches, self.problem = notify.watches, notify.problem
                if raw:
                    await self._handle(raw)
        finally:
            with contextlib.suppress(Exception):
                loop.remove_reader(notify.fd)
            notify.close()

    async def _run_watchfiles(self) -> None:
        self._placed.set()  # not known when its watches are in place: markers find out
        async for raw in watchfiles.awatch(
            self.root,
            self.marker.parent,
            watch_filter=None,
            debounce=DEBOUNCE_MS,
            step=STEP_MS,
            stop_event=self._stop,
            rust_timeout=RUST_TIMEOUT_MS,
            yield_on_timeout=True,
            ignore_permission_denied=True,
        ):
            await self._handle(raw)

    async def _handle(self, raw: set[tuple[watchfiles.Change, str]]) -> None:
        marked = False
        changes: list[tuple[watchfiles.Change, Path]] = []
        for change, name in raw:
            path = Path(name)
            if path.parent == self.marker.parent:
                marked = True
            elif not (self._ignored_dir() if os.path.isdir(path) else self._ignored)(path):
                changes.append((change, path))
        events = fold(changes)
        if events:
            try:
                await self._deliver(events)
            except Exception:
                log.exception("telling the servers of %d file changes failed", len(events))
        number = self._read_marker() if marked else self._seen
        async with self._progress:
            self._seen = max(self._seen, number)
            self._progress.notify_all()

    def _ignored_dir(self) -> Callable[[Path], bool]:
        """The ignore rules that judge a directory as one (`node_modules/` is no file name)."""
        judge: Callable[[Path], bool] = getattr(self._ignored, "directory", self._ignored)
        return judge

    def _read_marker(self) -> int:
        try:
            return int(self.marker.read_text() or 0)
        except (OSError, ValueError):
            return self._seen


_CHANGES = {
    watchfiles.Change.added: Change.created,
    watchfiles.Change.modified: Change.changed,
    watchfiles.Change.deleted: Change.deleted,
}


def fold(changes: Iterable[tuple[watchfiles.Change, Path]]) -> list[FileEvent]:
    """One event per path. A path both added and deleted in one batch is judged by the disk."""
    seen: dict[Path, set[watchfiles.Change]] = {}
    for raw, path in changes:
        seen.setdefault(path, set()).add(raw)
    events = []
    for path, raws in sorted(seen.items()):
        kind: Change
        transient = False
        if len(raws) == 1:
            kind = _CHANGES[next(iter(raws))]
        elif os.path.lexists(path):
            kind = Change.created if watchfiles.Change.added in raws else Change.changed
        else:
            kind = Change.deleted
            transient = watchfiles.Change.added in raws
        if kind is Change.changed and os.path.isdir(path):
            continue  # its files' own events say what changed
        # A directory created is told too, before its files (sorted): tsserver 5.4's
        # configured project lists directories from a cache that only the directory's own
        # event updates, so a file written in a new directory stayed out of its project.
        events.append(FileEvent(kind, path, transient))
    return events
