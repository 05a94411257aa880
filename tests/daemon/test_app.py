"""The daemon's own routes (`lspd.daemon.app.own_routes`): `lspd check`'s GET /check counts
as a call in flight while it waits and runs, as a tool call does."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.daemon.support import ThreadDaemon, thread_daemon


def _hold_gate(daemon: ThreadDaemon) -> Callable[[], None]:
    """Take the workspace's gate exclusively on the daemon's loop (as an edit's overlay
    does); the function returned lets it go."""
    ws, loop = daemon.daemon.ws, daemon.loop
    assert ws is not None and loop is not None
    taken, release = threading.Event(), asyncio.Event()

    async def hold() -> None:
        async with ws.gate.exclusive():
            taken.set()
            await release.wait()

    held = asyncio.run_coroutine_threadsafe(hold(), loop)
    assert taken.wait(30)
    return lambda: (loop.call_soon_threadsafe(release.set), held.result(30))[-1]


def _wait_until(condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met"
        time.sleep(0.01)


def test_a_whole_check_is_a_call_in_flight_until_it_answers(root: Path) -> None:
    with thread_daemon(root, prewarm=False) as daemon, ThreadPoolExecutor(1) as pool:
        release = _hold_gate(daemon)  # the check cannot start before the test lets it
        try:
            answer = pool.submit(httpx.get, f"{daemon.base}/check", timeout=120)
            _wait_until(lambda: daemon.daemon.activity.in_flight == 1)
            assert not answer.done()
        finally:
            release()
        response = answer.result(120)
        assert response.status_code == 200
        assert response.headers["x-lspd-errors"] == "1"
        assert daemon.daemon.activity.in_flight == 0
