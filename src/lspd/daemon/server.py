"""uvicorn as the daemon runs it: a readiness hook, its own signal handling, and a main loop
that sleeps while idle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
from collections.abc import Callable, Generator
from typing import Any

import uvicorn

log = logging.getLogger(__name__)

# uvicorn wakes every 0.1 s to refresh its Date header and look at `should_exit`; ours wakes
# once a second for the header (its resolution) and at once when asked to exit.
TICK_S = 1.0
SHUTDOWN_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

# How uvicorn serves the daemon (bench/mcp.py serves the SDK alone the same way, to compare).
# httptools parses HTTP in C: measured ~0.1-0.2 ms less per call than h11 (pure Python).
# uvloop measured no better here (the loop is not where the time goes), so asyncio's loop.
UVICORN_OPTIONS: dict[str, Any] = {
    "http": "httptools",
    "loop": "asyncio",
    "ws": "none",
    "server_header": False,
}


class Server(uvicorn.Server):
    """uvicorn with a readiness hook, signal handling that never re-raises the signal, and
    a main loop that sleeps while idle.

    Stock uvicorn re-raises a caught SIGTERM after shutdown, which would kill the process
    with the default handler; we want a clean exit code after our own cleanup.
    """

    _loop: asyncio.AbstractEventLoop | None = None
    _exit: asyncio.Event | None = None
    _should_exit = False
    signalled: str | None = None  # the signal that stopped it (SIGTERM: `lspd stop`)

    def __init__(
        self, config: uvicorn.Config, on_ready: Callable[[], None], on_stop: Callable[[], None]
    ) -> None:
        super().__init__(config)
        self._on_ready = on_ready
        self._on_stop = on_stop

    @property
    def should_exit(self) -> bool:
        return self._should_exit

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        """Set from a signal handler, uvicorn itself or `Daemon.stop` in another thread."""
        self._should_exit = value
        loop, event = self._loop, self._exit
        if value and loop is not None and event is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing waits
                loop.call_soon_threadsafe(event.set)

    async def main_loop(self) -> None:
        self._loop, self._exit = asyncio.get_running_loop(), asyncio.Event()
        counter = 0  # uvicorn refreshes the Date header when counter % 10 == 0
        while not await self.on_tick(counter):
            counter = (counter + 10) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._exit.wait(), TICK_S)

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and not self.should_exit:
            self._on_ready()

    async def shutdown(self, sockets: Any = None) -> None:
        self._on_stop()  # before draining connections: no new client finds a dying daemon
        await super().shutdown(sockets=sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        loop = asyncio.get_running_loop()
        for sig in SHUTDOWN_SIGNALS:
            loop.add_signal_handler(sig, self._on_signal, sig)
        try:
            yield
        finally:
            for sig in SHUTDOWN_SIGNALS:
                loop.remove_signal_handler(sig)

    def _on_signal(self, sig: int) -> None:
        self.signalled = signal.Signals(sig).name
        log.info("received %s, shutting down", self.signalled)
        if self.should_exit and sig == signal.SIGINT:
            self.force_exit = True
        self.should_exit = True
