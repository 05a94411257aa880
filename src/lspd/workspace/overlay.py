"""Text the servers hold for a while instead of the disk's: previews and baselines.

An overlay makes the servers hold other text for some files (a proposed change, or the text
at a git revision) while diagnostics are asked of them and of the files depending on them,
then restores what the disk says, also when the call is cancelled or times out. The `Gate`
makes it exclusive: while an overlay is applied no other call runs, so no answer to anyone
ever comes from a text that is not on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from lspd.workspace import new_files
from lspd.workspace.new_files import TSSERVER

TIMEOUT_S = 30.0  # tsserver's answer to which project holds a file


class Named(Protocol):
    """A session, by the server it runs."""

    @property
    def name(self) -> str: ...
    async def send(self, method: str, params: Any, timeout: float) -> Any: ...


class Texts(Protocol):
    """What an overlay uses of the workspace: its file locks and the texts its servers hold
    (`Workspace`; a protocol, so that this module need not import the workspace)."""

    def file_lock(self, path: Path) -> AbstractAsyncContextManager[None]: ...
    async def open(self, raw_path: str, content: str | None = None) -> object: ...
    def close_document(self, path: Path) -> None: ...
    def holds(self, path: Path) -> bool: ...
    def session_for(self, path: Path) -> Named: ...
    @property
    def root(self) -> Path: ...


class Gate:
    """Calls share the workspace; an overlay has it alone (waiting overlays go first)."""

    def __init__(self) -> None:
        self._condition = asyncio.Condition()
        self._sharing = 0
        self._exclusive = False
        self._waiting = 0  # overlays waiting: new calls queue behind them

    @contextlib.asynccontextmanager
    async def shared(self) -> AsyncIterator[None]:
        async with self._condition:
            await self._condition.wait_for(lambda: not self._exclusive and not self._waiting)
            self._sharing += 1
        try:
            yield
        finally:
            async with self._condition:
                self._sharing -= 1
                self._condition.notify_all()

    @contextlib.asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        async with self._condition:
            self._waiting += 1
            try:
                await self._condition.wait_for(lambda: not self._exclusive and not self._sharing)
            finally:
                self._waiting -= 1
            self._exclusive = True
        try:
            yield
        finally:
            async with self._condition:
                self._exclusive = False
                self._condition.notify_all()


@contextlib.asynccontextmanager
async def overlaid(
    ws: Texts, texts: Mapping[Path, str | None], checked: Collection[Path] = ()
) -> AsyncIterator[None]:
    """The servers hold `texts` (None: the file gone, held as empty, or left absent when it
    is not on disk) until the block ends, then the disk's text again (a file still to come:
    no document). A new file is held in the project that will own it on disk (see
    `lspd.workspace.new_files`), through a host file outside `checked` (the files whose
    diagnostics will be asked). Hold the gate exclusively around it."""
    hosts: dict[Path, bool] = {}  # held for a new file: whether it was open before
    async with contextlib.AsyncExitStack() as stack:
        for path in sorted(texts):  # the watcher tells of a locked file once it is let go
            await stack.enter_async_context(ws.file_lock(path))
        try:
            # New files first: a file importing one then resolves it at once (tsserver keeps
            # a failed resolution until a watcher event, which a file not written never has).
            for path, text in sorted(texts.items(), key=lambda item: item[0].exists()):
                if text is not None or path.exists():  # a file still to come stays absent
                    await ws.open(str(path), "" if text is None else text)
            # After the new files are open: tsserver then takes them into the host's project.
            for host, text in (await _hosts(ws, texts, set(checked))).items():
                await stack.enter_async_context(ws.file_lock(host))
                hosts[host] = ws.holds(host)
                await ws.open(str(host), text)
            yield
        finally:
            # A cancelled call must still give the servers the disk back before it lets go.
            restore = asyncio.ensure_future(_restore(ws, list(texts), hosts))
            try:
                await asyncio.shield(restore)
            except asyncio.CancelledError:
                await restore
                raise


async def _hosts(
    ws: Texts, texts: Mapping[Path, str | None], checked: set[Path]
) -> dict[Path, str]:
    """The host files to hold for the new files tsserver would place in no project of
    theirs, with their texts (a reference to each new file first)."""
    by_host: dict[Path, list[Path]] = {}
    avoid = checked | set(texts)
    for path, text in texts.items():
        session = ws.session_for(path)
        if text is None or session.name != TSSERVER:
            continue
        if path.exists() and not await new_files.unplaced(session.send, path, TIMEOUT_S):
            continue  # in its tsconfig's project already
        package = new_files.reader(path, ws.root)
        found = await asyncio.to_thread(new_files.owner, path, ws.root, package)
        host = None if found is None else new_files.choose_host(found.files, avoid)
        if host is not None:
            by_host.setdefault(host, []).append(path)
    made = {}
    for host, new in by_host.items():
        with contextlib.suppress(OSError, UnicodeDecodeError):  # then no host: as before
            made[host] = new_files.referencing(host, host.read_text("utf-8-sig"), new)
    return made


async def _restore(ws: Texts, paths: list[Path], hosts: Mapping[Path, bool]) -> None:
    for host, was_open in hosts.items():  # first: the new files leave their project
        await _back_to_disk(ws, host, was_open)
    for path in paths:
        await _back_to_disk(ws, path, True)


async def _back_to_disk(ws: Texts, path: Path, keep_open: bool) -> None:
    """The disk's text for `path` (left open when `keep_open`), or no document when the
    file is not on disk."""
    if keep_open and path.is_file():
        with contextlib.suppress(Exception):  # unreadable now: the next question says why
            await ws.open(str(path))
            return
    ws.close_document(path)
