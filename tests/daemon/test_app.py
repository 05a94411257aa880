"""The daemon's own routes (`lspd.daemon.app.own_routes`): `lspd check`'s GET /check counts
as a call in flight while it waits and runs, as a tool call does."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.daemon.support import hold_on_loop, thread_daemon, wait_until


def test_a_whole_check_is_a_call_in_flight_until_it_answers(root: Path) -> None:
    with thread_daemon(root, prewarm=False) as daemon, ThreadPoolExecutor(1) as pool:
        ws = daemon.daemon.ws
        assert ws is not None
        release = hold_on_loop(daemon, ws.gate.exclusive)  # no check before the test lets it
        try:
            answer = pool.submit(httpx.get, f"{daemon.base}/check", timeout=120)
            wait_until(lambda: daemon.daemon.activity.in_flight == 1)
            assert not answer.done()
        finally:
            release()
        response = answer.result(120)
        assert response.status_code == 200
        assert response.headers["x-lspd-errors"] == "1"
        assert daemon.daemon.activity.in_flight == 0
