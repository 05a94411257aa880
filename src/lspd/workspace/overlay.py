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
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Protocol


class Texts(Protocol):
    """What an overlay uses of the workspace: its file locks and the texts its servers hold
    (`Workspace`; a protocol, so that this module need not import the workspace)."""

    def file_lock(self, path: Path) -> AbstractAsyncContextManager[None]: ...
    async def open(self, raw_path: str, content: str | None = None) -> object: ...
    def close_document(self, path: Path) -> None: ...


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
async def overlaid(ws: Texts, texts: Mapping[Path, str | None]) -> AsyncIterator[None]:
    """The servers hold `texts` (None: the file gone, held as empty) until the block ends,
    then the disk's text again. Hold the gate exclusively around it."""
    async with contextlib.AsyncExitStack() as stack:
        for path in sorted(texts):  # the watcher leaves a locked file alone
            await stack.enter_async_context(ws.file_lock(path))
        try:
            for path, text in texts.items():
                await ws.open(str(path), "" if text is None else text)
            yield
        finally:
            # A cancelled call must still give the servers the disk back before it lets go.
            restore = asyncio.ensure_future(_restore(ws, list(texts)))
            try:
                await asyncio.shield(restore)
            except asyncio.CancelledError:
                await restore
                raise


async def _restore(ws: Texts, paths: list[Path]) -> None:
    for path in paths:
        if path.is_file():
            with contextlib.suppress(Exception):  # unreadable now: the next question says why
                await ws.open(str(path))
                continue
        ws.close_document(path)
