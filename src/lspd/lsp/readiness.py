"""When a server answers completely, not partially while it loads its project.

How a server shows it has loaded is data (`ready` in servers.toml): a log line matching
`ready_pattern`, its first diagnostics, or the end of its work-done progress (ready when no
progress has begun `PROGRESS_GRACE_S` after `initialized`).

A server told its configuration changed that reloads it after a timer of its own (basedpyright:
100 ms after the watched-file event, later while it is busy; its files then listed again,
`ready_pattern` once more) answers by the old configuration until then: questions wait for
that line (`reloading`), as for its first. Its timer starts again at each event, so changes
told before it says it began a folder's reload (`RELOAD_BEGUN`, naming the configuration) are
one reload of that folder: the folders whose reload has not begun are waited for, each once
(two writes 50 ms apart, two watcher batches, were counted two and one line came: 21 s held
where 1.2 s do; a count capped by the number of folders still held 20 s in a server of two).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from lspd.lsp.progress import Progress

log = logging.getLogger(__name__)

PROGRESS_GRACE_S = 0.3  # readiness by progress: ready if no progress begins this soon
RELOAD_TIMEOUT_S = 20.0  # a reload said and not seen: its answers are its best after this
RELOAD_BEGUN = re.compile(r"Reloading configuration file at (.+)")  # basedpyright's, as it begins


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
        self._said = ready_pattern is not None
        self._pending: set[Path] = set()  # folders told to reload whose beginning it has not said
        self._begun = 0  # reloads it said it began and has not said it ended (`ready_pattern`)
        self.reloaded = asyncio.Event()
        self.reloaded.set()

    def reset(self) -> None:
        """A new start: nothing said yet (it reads its configurations anew)."""
        self.progress.reset()
        self.event.clear()
        self.answered = False
        self._settled()

    def reloading(self, folders: Iterable[Path]) -> None:
        """It was told of changes that make each of its workspace `folders` reload its
        configuration: until it has said `ready_pattern` once per folder more, its answers are
        the old configurations' (a server saying no such line is not waited for). A folder's
        reload told and not begun takes the change in."""
        told = set(folders)
        if told and self._said:
            self._pending |= told
            self.reloaded.clear()

    async def wait_reloaded(self) -> None:
        """Until it has reloaded the configurations it was told changed (at once when none
        is); at most `RELOAD_TIMEOUT_S` (then its answers are its best)."""
        if self.reloaded.is_set():
            return
        try:
            await asyncio.wait_for(self.reloaded.wait(), RELOAD_TIMEOUT_S)
        except TimeoutError:
            log.warning("%s did not say it reloaded its configuration; going on", self.name)
            self._settled()

    def _settled(self) -> None:
        self._pending.clear()
        self._begun = 0
        self.reloaded.set()

    def initialized(self) -> None:
        """The server was initialized: a server ready by progress that begins none soon is."""
        if self._ready() == "progress":
            asyncio.get_running_loop().call_later(PROGRESS_GRACE_S, self._if_idle)

    def _if_idle(self) -> None:
        if self._ready() == "progress" and self.progress.idle.is_set():
            self.event.set()

    def requested(self, method: str, params: Any) -> None:
        """A request of the server's: a work-done progress token it creates is work to come."""
        if method == "window/workDoneProgress/create" and isinstance(params, dict):
            self.progress.created(params.get("token"))

    def progressed(self, params: Any) -> None:
        """A `$/progress` notification."""
        value = params.get("value") or {}
        if self.progress.report(params.get("token"), value.get("kind")):
            self._if_idle()

    def logged(self, message: str) -> None:
        """A `window/logMessage` notification's message."""
        if self._said and (begun := RELOAD_BEGUN.search(message)):
            self._begin(Path(begun.group(1).strip()))
        elif self._pattern.search(message):
            self.event.set()
            if self._begun:
                self._begun -= 1
            elif self._pending:  # a reload said only by its end
                self._pending.pop()
            if not self._pending and not self._begun:
                self.reloaded.set()

    def _begin(self, config: Path) -> None:
        """It began reloading `config`: its folder's (the nearest pending one holding it;
        another's where none does, an `extends` chain's file elsewhere) reload is under way."""
        holding = [f for f in self._pending if config.is_relative_to(f)]
        if holding:
            self._pending.discard(max(holding, key=lambda f: len(f.parts)))
        elif self._pending:
            self._pending.pop()
        self._begun += 1
        self.reloaded.clear()

    def ended(self) -> None:
        """The server died: nobody waits for it any longer."""
        self.progress.idle.set()
        self.event.set()
        self._settled()

    async def wait(self, timeout: float) -> None:
        """Until the server says it is ready, at most `timeout` s (then its answers are its
        best)."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            log.warning("%s did not say it was ready; going on", self.name)
