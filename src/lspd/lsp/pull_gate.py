"""Changes told only between pulls, for a server whose every change drops its pulls in flight.

ty computes on a salsa database: a document opened, changed or closed is a new revision, and
every query running when it comes in is cancelled. Its pulled diagnostics then come back as
"server cancelled the request" (ty 0.0.63: FastAPI's `routing.py` was cancelled on every
retry while a check opened and closed the other files, and the whole check failed), or
worse as an empty report (ty 0.0.14 and 0.0.15: 34 of 40 errors told, the rest "0 errors").

So for such a server (servers.toml's `changes_cancel_pulls`) a change made while a pull is
in flight is held and sent once no pull is, in order; a pull (and any other request) made
after a held change waits until it is sent, so that it is answered of the state it was asked
of. Changes made while pulls run are sent together, and the pulls after them run together.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

Send = Callable[[str, Any], None]

# The notifications that change what the server holds (documents, files, folders,
# configuration); the others ($/cancelRequest, exit) go at once.
CHANGES = ("textDocument/did", "workspace/didChange")


class PullGate:
    """For one server: its pulls in flight, the changes held until none is, and when a request
    may go (`told`). An open gate (`holds` False) holds nothing and waits for nothing."""

    def __init__(self, holds: bool) -> None:
        self.holds = holds
        self._pulling = 0
        self._held: list[tuple[Send, str, Any]] = []
        self._quiet = asyncio.Event()
        self._quiet.set()

    @property
    def waiting(self) -> int:
        """How many changes are held: not yet sent, already made."""
        return len(self._held)

    def notify(self, send: Send, method: str, params: Any) -> None:
        """Send a notification, or hold it while a pull is in flight when it is a change.
        `send` is the connection's own: one that ended meanwhile sends nothing (a restarted
        server is told every document anew as it starts)."""
        if self._pulling and method.startswith(CHANGES):
            self._held.append((send, method, params))
        else:
            send(method, params)

    async def told(self) -> None:
        """Wait until the changes held are sent: a request asks about the state after them."""
        while self._held:
            await self._quiet.wait()

    @asynccontextmanager
    async def pulling(self) -> AsyncIterator[None]:
        """A pull in flight: the changes made meanwhile are held until none is."""
        if not self.holds:
            yield
            return
        await self.told()
        self._pulling += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._pulling -= 1
            if not self._pulling:
                held, self._held = self._held, []
                for send, method, params in held:
                    send(method, params)
                self._quiet.set()
