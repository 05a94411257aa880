"""A server's work-done progress: whether it is busy, and when it last finished."""

from __future__ import annotations

import asyncio
import time


class Progress:
    """The `$/progress` tokens a server has begun and not yet ended."""

    def __init__(self) -> None:
        self._tokens: set[str | int] = set()
        # created (`window/workDoneProgress/create`) and not yet begun: pyright creates its
        # analysis's token, checks a file, and only then reads lspd's reply and begins
        self._created: set[str | int] = set()
        self.idle = asyncio.Event()
        self.idle.set()
        self.ended = 0.0  # monotonic time the server last finished all its work

    def reset(self) -> None:
        self._tokens.clear()
        self._created.clear()
        self.idle.set()

    def created(self, token: object) -> None:
        """The server created a token for work it is about to do."""
        if isinstance(token, (str, int)):
            self._created.add(token)

    @property
    def working(self) -> bool:
        """Whether work is in progress, or about to be (a token created, not yet ended)."""
        return bool(self._tokens or self._created)

    def report(self, token: str | int, kind: str | None) -> bool:
        """Take in one `$/progress` value; True when it ended the last work in progress."""
        if kind == "begin":
            self._tokens.add(token)
            self._created.discard(token)
            self.idle.clear()
        elif kind == "end":
            self._tokens.discard(token)
            self._created.discard(token)
            if not self._tokens:
                self.ended = time.monotonic()
                self.idle.set()
                return True
        return False
