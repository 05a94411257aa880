"""The copy a held Python state is asked in (`engine/python_mirror.py`), kept warm in the
daemon between questions (`Workspace.kept_copy`): its servers too.

A preview deleting, adding or renaming a Python file is asked of a server rooted at a copy
holding the proposal (basedpyright resolves imports from the disk only). Made and started
for each question, that server's cold start and cold check of the files asked were most of
the preview: typing-inspection's stub deleted (basedpyright strict), 8-12 s against the
warm `check --baseline HEAD`'s 6.6-7.1 s once the deletion is written. So in a daemon (a
watcher says what changed) the copy and its servers stay after the question, for
`KEEP_S`: the next question brings the copy to its state (the disk's files whose size or
mtime moved read again, the held texts written, files no longer there removed), tells the
servers which files changed (`workspace/didChangeWatchedFiles`, as the daemon tells its own
servers of the disk's changes) and closes every document they held, so each reads the copy
as it is now. What a server reads at its start alone (the pyright configurations, the
baseline, the files they name, the linked environments) is compared too: where it differs,
the copy and its servers are made again, cold, as before. A change under a folder a link of
the copy leads to inside it (`lib -> real`: `python_mirror.wanted`) is told by both names.
A one-shot command's copy goes with its question, as before. The workspace's close ends it
(and the daemon's watchdog kills its servers with the others if the daemon dies).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.workspace.pyright_watch import included
from lspd.workspace.python_links import other_names

KEEP_S = 300.0  # a copy and its servers unused this long are stopped and removed
CREATED, CHANGED, DELETED = 1, 2, 3  # the LSP `FileChangeType` numbers

Stamp = tuple[int, int]  # a source file's size and mtime (ns): read again when it moves


@dataclass
class Wanted:
    """What a copy of a state holds: its files (`files`, relative path -> their source on
    disk, or their bytes where lspd makes them: a configuration, a held text), the folders
    linked (relative path -> where they lead) and the files a server reads at its start
    alone (`settings`: a difference makes the copy and its servers again)."""

    files: dict[Path, Path | bytes] = field(default_factory=dict)
    links: dict[Path, str] = field(default_factory=dict)
    settings: set[Path] = field(default_factory=set)
    folders: set[Path] = field(default_factory=set)  # made in the copy (a namespace package)


@dataclass
class Kept:
    """One workspace's kept copy (`Workspace.kept_copy`): what it holds (digests), the
    servers rooted in it; empty until a question makes it."""

    copy: Path
    digests: dict[Path, bytes] = field(default_factory=dict)
    stamps: dict[Path, tuple[Stamp, bytes]] = field(default_factory=dict)  # of the sources
    settings: bytes = b""
    helpers: dict[tuple[str, ...], Session] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.TimerHandle | None = None
    used: float = 0.0  # when a question last released it (monotonic)

    def taken(self) -> None:
        """A question uses it (holding `lock`): no idle end meanwhile."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def released(self) -> None:
        """The question is answered: the copy's servers stay for `KEEP_S`, then end."""
        self.taken()
        self.used = time.monotonic()
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(KEEP_S, lambda: loop.create_task(self._idle()))

    async def _idle(self) -> None:
        async with self.lock:
            if self.helpers and time.monotonic() - self.used >= KEEP_S:
                await self.dropped()

    async def end(self) -> None:
        """Its servers stopped, the copy removed (the workspace's close)."""
        async with self.lock:
            await self.dropped()

    async def dropped(self) -> None:
        """`end` for the holder of `lock` (a question failed in it: its state unknown): made
        again, cold, by the next question."""
        self.taken()
        helpers = list(self.helpers.values())
        self.helpers.clear()
        self.digests, self.stamps, self.settings = {}, {}, b""
        await asyncio.gather(*(h.stop() for h in helpers), return_exceptions=True)
        await asyncio.to_thread(shutil.rmtree, self.copy, True)


def brought(kept: Kept, wanted: Wanted) -> list[tuple[Path, int]] | None:
    """The copy brought to `wanted`: the files written or removed where they differ, with
    each one's change (relative path, `FileChangeType`); None when what a server reads at
    its start differs (or the copy was new): then it is made anew and its servers must be
    started again."""
    read: dict[Path, bytes] = {}  # the sources read for this question
    digests = {rel: d for rel, s in wanted.files.items() if (d := _digest(kept, s, read))}
    settings = hashlib.blake2b(digest_size=16)
    for rel in sorted(wanted.settings):
        settings.update(f"{rel}\0".encode() + digests.get(rel, b"-") + b"\0")
    for rel, target in sorted(wanted.links.items()):
        settings.update(f"{rel}\0{target}\0".encode())
    for rel in sorted(wanted.folders):
        settings.update(f"{rel}/\0".encode())
    fresh = not kept.digests or settings.digest() != kept.settings  # also: a daemon's before
    if fresh:
        shutil.rmtree(kept.copy, ignore_errors=True)
        kept.digests = {}
        kept.copy.mkdir(parents=True)
        for rel in sorted(wanted.folders):
            (kept.copy / rel).mkdir(parents=True, exist_ok=True)
        for rel, target in wanted.links.items():
            os.symlink(target, kept.copy / rel)
    kept.settings = settings.digest()
    changes: list[tuple[Path, int]] = []
    for rel, digest in digests.items():
        if kept.digests.get(rel) == digest:
            continue
        source = wanted.files[rel]
        if isinstance(source, bytes):
            data = source
        else:  # read now, or before (its digest known)
            data = read[source] if source in read else source.read_bytes()
        (kept.copy / rel).write_bytes(data)
        changes.append((rel, CHANGED if rel in kept.digests else CREATED))
        kept.digests[rel] = digest
    for rel in [rel for rel in kept.digests if rel not in digests]:
        with suppress(OSError):
            (kept.copy / rel).unlink()
        del kept.digests[rel]
        changes.append((rel, DELETED))
    return None if fresh else changes + _through_links(changes, wanted.links)


def _through_links(
    changes: list[tuple[Path, int]], links: dict[Path, str]
) -> list[tuple[Path, int]]:
    """The `changes` again by their names through the copy's links into itself (`lib ->
    real`: real/helper.py's change is lib/helper.py's too): a server holds each name as a
    file of its own, and kept lib/helper.py's text of the question before."""
    inner = {link: Path(os.path.normpath(link.parent / to)) for link, to in links.items()}
    inner = {link: target for link, target in inner.items() if not target.is_absolute()}
    return [(other, kind) for rel, kind in changes for other in other_names(rel, inner)]


def _digest(kept: Kept, source: Path | bytes, read: dict[Path, bytes]) -> bytes | None:
    """A wanted file's digest: a source on disk read (into `read`) unless its size and
    mtime are those it had when read last; None when it is gone meanwhile (the copy made
    for the question would lack it)."""
    if isinstance(source, bytes):
        return hashlib.blake2b(source, digest_size=16).digest()
    try:
        found = source.stat()
        stamp = (found.st_size, found.st_mtime_ns)
        known = kept.stamps.get(source)
        if known is not None and known[0] == stamp:
            return known[1]
        data = read[source] = source.read_bytes()
    except OSError:
        return None
    digest = hashlib.blake2b(data, digest_size=16).digest()
    kept.stamps[source] = (stamp, digest)
    return digest


def told(helper: Session, copy: Path, changes: list[tuple[Path, int]]) -> None:
    """A kept server told of the copy's changes (every one: what its watchers would see,
    and the `include` folders a Python file's coming or going needs told: `pyright_watch`),
    its documents closed: it reads the copy as it is now."""
    for uri in list(helper.documents):
        helper.close_document(helper.documents[uri].path)
    moved = [(copy / rel, kind) for rel, kind in changes]
    folders = included(helper.name, helper.folders, moved)  # `pyright_watch`
    watched: list[dict[str, Any]] = [
        {"uri": path_to_uri(path), "type": kind}
        for path, kind in [*moved, *((folder, CREATED) for folder in folders)]
    ]
    if watched:
        helper.notify_watched_files(watched)
