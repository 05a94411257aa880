"""When a server answers completely, not partially while it loads its project.

How a server shows it has loaded is data (`ready` in servers.toml): a log line matching
`ready_pattern`, its first diagnostics, or the end of its work-done progress (ready when no
progress has begun `PROGRESS_GRACE_S` after `initialized`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any

from lspd.lsp.progress import Progress

log = logging.getLogger(__name__)

PROGRESS_GRACE_S = 0.3  # readiness by progress: ready if no progress begins this soon


class Readiness:
    """Whether one server has said it is ready; `ready()` is its `ready` in servers.toml
    as it runs now (a settled toolchain may run another server)."""

    def __init__(self, name: str, ready: Callable[[], str], ready_pattern: str | None) -> None:
        self.name = name
        self._ready = ready
        self.progress = Progress()
        self.event = asyncio.Event()
        self.answered = False  # the process answered a file's diagnostics: it has loaded
        self._pattern = re.compile(ready_pattern or "(?!)")  # (?!): never

    def reset(self) -> None:
        """A new start: nothing said yet."""
        self.progress.reset()
        self.event.clear()
        self.answered = False

    def initialized(self) -> None:
        """The server was initialized: a server ready by progress that begins none soon is."""
        if self._ready() == "progress":
            asyncio.get_running_loop().call_later(PROGRESS_GRACE_S, self._if_idle)

    def _if_idle(self) -> None:
        if self._ready() == "progress" and self.progress.idle.is_set():
            self.event.set()

    def progressed(self, params: Any) -> None:
        """A `$/progress` notification."""
        value = params.get("value") or {}
        if self.progress.report(params.get("token"), value.get("kind")):
            self._if_idle()

    def logged(self, message: str) -> None:
        """A `window/logMessage` notification's message."""
        if self._pattern.search(message):
            self.event.set()

    def ended(self) -> None:
        """The server died: nobody waits for it any longer."""
        self.progress.idle.set()
        self.event.set()

    async def wait(self, timeout: float) -> None:
        """Until the server says it is ready, at most `timeout` s (then its answers are its
        best)."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            log.warning("%s did not say it was ready; going on", self.name)
