"""A server's work-done progress: whether it is busy, and when it last finished."""

from __future__ import annotations

import asyncio
import time


class Progress:
    """The `$/progress` tokens a server has begun and not yet ended."""

    def __init__(self) -> None:
        self._tokens: set[str | int] = set()
        self.idle = asyncio.Event()
        self.idle.set()
        self.ended = 0.0  # monotonic time the server last finished all its work

    def reset(self) -> None:
        self._tokens.clear()
        self.idle.set()

    def report(self, token: str | int, kind: str | None) -> bool:
        """Take in one `$/progress` value; True when it ended the last work in progress."""
        if kind == "begin":
            self._tokens.add(token)
            self.idle.clear()
        elif kind == "end":
            self._tokens.discard(token)
            if not self._tokens:
                self.ended = time.monotonic()
                self.idle.set()
                return True
        return False
