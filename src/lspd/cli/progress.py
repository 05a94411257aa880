"""How far a long `lspd check` is, on stderr, so nobody waits on silence.

Nothing for the first 2 s (most checks are done by then). After that, on a terminal, one line
kept up to date (`lspd: checking 120/255 files, 12 s`) and wiped at the end; elsewhere (an
agent's tool call, a CI log) a line at 2 s and one every 10 s: a handful for a long check,
never one per file, and never mixed into stdout, which holds the answer.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

AFTER_S = 2.0
TERMINAL_EVERY_S = 0.5
LOG_EVERY_S = 10.0

Poll = Callable[[], tuple[int, int] | None]  # (files done, files in all), None: not known


class Progress:
    """A context: reports while its body runs. `update` sets the counts, or `poll` (asked
    from the reporting thread) fetches them, e.g. from the daemon running the check."""

    def __init__(
        self, what: str = "checking", poll: Poll | None = None, stream: TextIO | None = None
    ) -> None:
        self.what = what
        self._poll = poll
        self._counts: tuple[int, int] | None = None
        self._stream: TextIO = stream or sys.stderr
        self._terminal = self._stream.isatty()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="lspd-progress")
        self._began = time.monotonic()
        self._width = 0  # of the terminal line written last

    def __enter__(self) -> Progress:
        self._began = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()

    def update(self, done: int, total: int) -> None:
        self._counts = (done, total)

    def line(self) -> str:
        """What is said now: `lspd: checking 120/255 files, 12 s`."""
        seconds = time.monotonic() - self._began
        counts = f" {self._counts[0]}/{self._counts[1]} files," if self._counts else ","
        return f"lspd: {self.what}{counts} {seconds:.0f} s"

    def _run(self) -> None:
        if self._stop.wait(AFTER_S):
            return
        every = TERMINAL_EVERY_S if self._terminal else LOG_EVERY_S
        while True:
            if self._poll is not None:
                self._counts = self._poll() or self._counts
            text = self.line()
            if self._terminal:
                self._stream.write("\r" + text.ljust(self._width))
                self._width = max(self._width, len(text))
            else:
                self._stream.write(text + "\n")
            self._stream.flush()
            if self._stop.wait(every):
                return
