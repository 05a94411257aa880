"""Language servers under the daemon: progress while starting, idle stop, crash restart."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from pathlib import Path

import pytest
from mcp import Client
from mcp_types import CallToolResult

from lspd.tools import Activity, build_server
from lspd.tools import server as tools_server
from lspd.workspace import Workspace
from tests.conftest import copy_fixture
from tests.daemon.support import health, thread_daemon, wait_dead

pytestmark = pytest.mark.anyio

HOVER = {"path": "pkg/app.py", "line": 1, "column": 26}


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    return copy_fixture("py", tmp_path)


async def test_progress_while_the_server_starts(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tools_server, "PROGRESS_INTERVAL_S", 0.1)
    messages: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        messages.append(message)

    with thread_daemon(fresh, prewarm=False) as daemon:
        async with Client(daemon.url) as client:
            result = await client.call_tool("hover", HOVER, progress_callback=on_progress)
    assert not result.is_error
    assert messages, "no progress notification during a cold start"
    assert any(m and "basedpyright" in m for m in messages), messages


def _reporting() -> list[asyncio.Task[object]]:
    """Progress reporters still running in this loop."""
    return [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "").endswith("_report_each_interval")
    ]


async def test_a_call_without_a_request_context_reports_no_progress(
    fresh: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # As the direct path (daemon/mcp_direct.py) calls a tool: no request context, so no
    # progress token: a cold call of many intervals starts no reporter and logs nothing.
    monkeypatch.setattr(tools_server, "PROGRESS_INTERVAL_S", 0.05)
    caplog.set_level(logging.DEBUG, logger=tools_server.log.name)
    ws = Workspace(fresh)
    activity = Activity()
    server = build_server(ws, activity)
    try:
        began = time.monotonic()
        cold = asyncio.ensure_future(server.call_tool("hover", dict(HOVER)))
        while not cold.done():  # basedpyright starts: over a second
            assert _reporting() == []
            await asyncio.sleep(0.02)
        result = cold.result()
        assert isinstance(result, CallToolResult) and not result.is_error, result
        assert time.monotonic() - began > 4 * tools_server.PROGRESS_INTERVAL_S
        tasks = asyncio.all_tasks()
        warm = await server.call_tool("hover", dict(HOVER))
        assert isinstance(warm, CallToolResult) and not warm.is_error, warm
        # A call runs in the caller's task: none is left behind. (The stall watch,
        # lsp/stall.py, waits on each question through asyncio.wait_for, whose task of its
        # own may outlive the answer by up to 1 s: it ends then.)
        left = asyncio.all_tasks() - tasks
        if left:
            await asyncio.wait(left, timeout=2)
        running = {task for task in left if not task.done()}
        assert (activity.in_flight, running, _reporting()) == (0, set(), [])
        assert [r.getMessage() for r in caplog.records if r.name == tools_server.log.name] == []
    finally:
        await ws.close()


async def test_idle_servers_stop_and_come_back(fresh: Path) -> None:
    with thread_daemon(fresh, prewarm=False, idle_timeout=0.5) as daemon:
        port = daemon.daemon.port or 0
        async with Client(daemon.url) as client:
            assert not (await client.call_tool("hover", HOVER)).is_error
            pid = health(port)["servers"][0]["pid"]
            deadline = time.monotonic() + 15
            while health(port)["servers"][0]["state"] != "stopped":
                assert time.monotonic() < deadline, "idle server was not stopped"
                time.sleep(0.1)
            assert wait_dead(pid)
            assert not (await client.call_tool("hover", HOVER)).is_error
            assert health(port)["servers"][0]["pid"] not in (None, pid)


async def test_a_crashed_server_is_restarted(fresh: Path) -> None:
    with thread_daemon(fresh) as daemon:
        port = daemon.daemon.port or 0
        async with Client(daemon.url) as client:
            assert not (await client.call_tool("hover", HOVER)).is_error
            pid = health(port)["servers"][0]["pid"]
            os.killpg(pid, signal.SIGKILL)
            deadline = time.monotonic() + 10
            while health(port)["servers"][0]["state"] != "crashed":
                assert time.monotonic() < deadline, "crash not noticed"
                time.sleep(0.05)
            result = await client.call_tool("hover", HOVER)
            assert not result.is_error, result.content
            servers = health(port)["servers"]
            assert servers[0]["state"] in ("ready", "indexing")
            assert servers[0]["pid"] != pid
