"""One check at a time in a project's mypy state, across lspd's processes.

The copy of the project (`mypy_copy`), its stamps and mypy's caches (`mypy_once`) live in
lspd's state directory, which a one-shot CLI check run in process shares with the daemon
(and two such checks with each other): two at once wrote their texts into one copy while
mypy read it, and one got the other's answer. So a check or a stop holds an advisory lock
(`fcntl.flock`) on a file of that state; the copy is trusted again only after checking that
no other process wrote it meanwhile (`Mirror`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
from collections.abc import AsyncIterator
from pathlib import Path

POLL_S = 0.05  # another process's check: asked again this often (never blocks the loop)


@contextlib.asynccontextmanager
async def exclusive(path: Path) -> AsyncIterator[None]:
    """Hold the lock on `path` (made if missing) while the block runs; a lock another
    process (or another open of it) holds is waited for. Released when the file closes, so
    a killed holder leaves nothing held."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                await asyncio.sleep(POLL_S)
        yield
    finally:
        os.close(fd)
