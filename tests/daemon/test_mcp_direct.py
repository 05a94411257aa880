"""A stateless tool call answered beside the SDK (daemon/mcp_direct.py): the same bytes as
the SDK's answer (a protocol error too, the tool run once), the SDK still answering what is
not a plain tool call, a slow call moving to the event stream (real daemon, real
basedpyright, the SDK's own client), and the SDK's private parts it relies on still there."""

from __future__ import annotations

import json
import logging
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.server import _streamable_http_modern as sdk_http
from mcp.server._otel import OpenTelemetryMiddleware
from mcp.server.lowlevel.server import Server
from mcp.server.mcpserver import MCPServer
from mcp.server.request_state import RequestStateBoundary
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, JSONRPCResponse

from lspd.daemon import mcp_direct, mcp_stream
from lspd.daemon.client import PROTOCOL_VERSION
from lspd.tools import server as tools_server
from tests.daemon.support import ThreadDaemon, hold_on_loop, thread_daemon, wait_until

META = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
    "io.modelcontextprotocol/clientInfo": {"name": "direct-test", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
HOVER = {"path": "pkg/app.py", "line": 1, "column": 26}  # Greeter, in the import


def _post(
    url: str, name: str, arguments: dict[str, Any], timeout: float = 60, **meta: Any
) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments, "_meta": {**META, **meta}},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL_VERSION,
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
    }
    return httpx.post(url, json=body, headers=headers, timeout=timeout)


def _timeless(body: bytes) -> bytes:
    """The body without status's uptime and memory (the answers are a moment apart)."""
    return re.sub(rb'(uptime_s|rss_mb)(\\?"):[0-9.]+', rb"\1\2:0", body)


def _direct(daemon: ThreadDaemon) -> mcp_direct.Direct:
    """The daemon's `Direct` (under its Guard and the first answers: once built), whose
    `answered` counts the calls it took."""
    assert daemon.daemon.built.wait(60)
    early = daemon.daemon._early
    assert early is not None
    direct = early.app
    assert isinstance(direct, mcp_direct.Direct)
    return direct


def test_the_sdk_parts_it_relies_on() -> None:
    # Direct reads these private parts of the SDK (mcp 2.x, pinned <3 in pyproject.toml) and
    # copies its middleware count, ping and event-stream headers: an SDK that changes them
    # fails here, not silently on the wire.
    lowlevel = MCPServer("probe")._lowlevel_server
    assert isinstance(lowlevel, Server)
    assert [type(m) for m in lowlevel.middleware] == [
        OpenTelemetryMiddleware,
        RequestStateBoundary,
    ]
    assert len(lowlevel.middleware) == mcp_direct._SDK_MIDDLEWARE
    assert lowlevel.cache_hints == {}
    assert lowlevel.server_info_stamp == {"name": "probe", "version": ""}
    assert mcp_stream.PING_AFTER_S == sdk_http._SSE_PING_INTERVAL
    assert mcp_stream.SSE_HEADERS == sdk_http._SSE_HEADERS
    body = b'{"jsonrpc":"2.0","id":7,"result":{}}'  # `Stream.finish`'s event frame
    frame = sdk_http._sse_event(JSONRPCResponse(jsonrpc="2.0", id=7, result={}))
    assert frame == b"event: message\r\ndata: " + body + b"\r\n\r\n"
    # The SDK's keep-alive comment is a literal in its code: `PING` copies it.
    assert mcp_stream.PING == b": ping\r\n\r\n"
    assert b'b": ping\\r\\n\\r\\n"' in Path(sdk_http.__file__).read_bytes()


def test_the_same_bytes_as_the_sdk(root: Path) -> None:
    with thread_daemon(root, prewarm=False) as daemon:
        for name, arguments in [
            ("hover", HOVER),  # an answer
            ("hover", {"path": "pkg/missing.py", "line": 1, "column": 1}),  # lspd refuses it
            ("hover", {"path": "pkg/app.py", "line": "one", "column": 1}),  # a wrong argument
            ("status", {}),
        ]:
            direct = _post(daemon.url, name, arguments)
            # A progress token leaves the call to the SDK (progress needs its stream).
            sdk = _post(daemon.url, name, arguments, progressToken="p")
            assert direct.status_code == sdk.status_code == 200
            assert direct.headers["content-type"] == sdk.headers["content-type"]
            assert direct.headers["content-type"] == "application/json"
            assert _timeless(direct.content) == _timeless(sdk.content), (name, arguments)
            result = json.loads(direct.content)["result"]
            assert result["isError"] is (name == "hover" and arguments != HOVER)
        assert _direct(daemon).answered == {"hover": 3, "status": 1}


def test_a_protocol_error_as_the_sdk_sends_it(root: Path) -> None:
    # lspd's tools raise no MCPError: a tool of the test's on the daemon's real server does.
    runs: list[str] = []

    def refuses(why: str) -> str:
        runs.append(why)
        raise MCPError(code=INVALID_PARAMS, message="Refused", data={"why": why})

    with thread_daemon(root, prewarm=False) as daemon:
        _direct(daemon).server.add_tool(refuses, structured_output=False)  # before a call
        direct = _post(daemon.url, "refuses", {"why": "test"})
        sdk = _post(daemon.url, "refuses", {"why": "test"}, progressToken="p")
        assert direct.status_code == sdk.status_code == 400
        assert direct.headers["content-type"] == sdk.headers["content-type"]
        assert direct.content == sdk.content
        assert json.loads(direct.content) == {
            "jsonrpc": "2.0",
            "id": 7,
            "error": {"code": INVALID_PARAMS, "message": "Refused", "data": {"why": "test"}},
        }
        assert runs == ["test", "test"]  # once each: the direct answer asked the SDK nothing
        assert _direct(daemon).answered == {"refuses": 1}


def _logged(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, bool]]:
    """The failures logged (by the direct answer or the SDK's handler): level, message and
    whether with a traceback; cleared for the next call."""
    names = {mcp_direct.log.name, "mcp.server.mcpserver.server"}
    records = [r for r in caplog.records if r.name in names]
    caplog.clear()
    return [(r.levelname, r.getMessage(), r.exc_info is not None) for r in records]


def test_failures_logged_as_the_sdk_logs_them(root: Path, caplog: pytest.LogCaptureFixture) -> None:
    def crashes() -> str:
        raise RuntimeError("a bug")

    caplog.set_level(logging.INFO)
    with thread_daemon(root, prewarm=False) as daemon:
        _direct(daemon).server.add_tool(crashes, structured_output=False)  # before a call
        # lspd's own check words a wrong argument (tools/arguments.py): the SDK logs it as is.
        wrong = {"path": "pkg/app.py", "line": "one", "column": 1}
        for name, arguments, logged in [
            ("crashes", {}, [("ERROR", True)]),  # a crash: with its traceback
            ("hover", wrong, [("INFO", False)]),  # a ToolError
            ("hover", {"path": "pkg/missing.py", "line": 1, "column": 1}, []),  # an answer
        ]:
            _post(daemon.url, name, arguments)
            direct = _logged(caplog)
            _post(daemon.url, name, arguments, progressToken="p")
            assert direct == _logged(caplog), name
            assert [(level, traceback) for level, _, traceback in direct] == logged, direct
        assert _direct(daemon).answered == {"crashes": 1, "hover": 2}


def test_what_the_sdk_still_answers(root: Path) -> None:
    with thread_daemon(root, prewarm=False) as daemon:
        unknown = _post(daemon.url, "no_such_tool", {})
        assert unknown.status_code == 200
        assert "no_such_tool" in unknown.text
        wrong_header = httpx.post(
            daemon.url,
            content=b"{}",
            headers={
                "Accept": "application/json, text/event-stream",
                "Content-Type": "text/plain",
                "MCP-Protocol-Version": PROTOCOL_VERSION,
                "Mcp-Method": "tools/call",
            },
        )
        assert wrong_header.status_code == 400  # the SDK's Content-Type check
        assert _direct(daemon).answered == {}


@pytest.mark.anyio
async def test_the_sdk_client_and_a_slow_call(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The first hover starts basedpyright (a second or more): past this, the event stream.
    monkeypatch.setattr(mcp_stream, "PING_AFTER_S", 0.05)
    with thread_daemon(root, prewarm=False) as daemon:
        slow = _post(daemon.url, "hover", HOVER)
        assert slow.headers["content-type"] == "text/event-stream"
        first, *_, last = slow.text.split("\r\n\r\n")[:-1]
        assert first == ": ping"
        event = json.loads(last.removeprefix("event: message\r\ndata: "))
        assert "class Greeter" in event["result"]["structuredContent"]["contents"]
        async with Client(daemon.url) as client:
            result = await client.call_tool("hover", HOVER)
        assert not result.is_error and result.structured_content
        assert "class Greeter" in result.structured_content["contents"]
        assert _direct(daemon).answered == {"hover": 2}


def test_a_slow_call_answered_here_reports_no_progress(
    root: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A call answered here carries no progress token (those go to the SDK), so its tool
    # reports none and logs nothing at each interval (it logged a failed notification).
    monkeypatch.setattr(tools_server, "PROGRESS_INTERVAL_S", 0.05)
    caplog.set_level(logging.DEBUG, logger=tools_server.log.name)
    with thread_daemon(root, prewarm=False) as daemon:
        began = time.monotonic()
        done = json.loads(_post(daemon.url, "hover", HOVER).content)["result"]  # starts it
        assert time.monotonic() - began > 4 * tools_server.PROGRESS_INTERVAL_S
        assert not done["isError"] and "class Greeter" in done["structuredContent"]["contents"]
        assert _direct(daemon).answered == {"hover": 1}
    assert [r.getMessage() for r in caplog.records if r.name == tools_server.log.name] == []


def test_a_client_gone_cancels_its_call(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mcp_stream, "WATCH_AFTER_S", 0.05)
    with thread_daemon(root, prewarm=False) as daemon:
        # The call waits for a file lock the test holds (a hover of unsaved text takes its
        # file's), so it cannot end before its client goes: no race with the server's speed.
        ws = daemon.daemon.ws
        assert ws is not None
        release = hold_on_loop(daemon, lambda: ws.file_lock(ws.resolve("pkg/app.py")))
        direct = _direct(daemon)  # built: the call starts as it comes
        unsaved = {**HOVER, "content": (root / "pkg/app.py").read_text()}
        with pytest.raises(httpx.ReadTimeout):
            _post(daemon.url, "hover", unsaved, timeout=0.5)
        # cancelled while the lock is still held
        wait_until(lambda: direct.answered == {"hover": 1} and not daemon.daemon.activity.in_flight)
        release()
        done = json.loads(_post(daemon.url, "hover", HOVER).content)["result"]
        assert not done["isError"] and "class Greeter" in done["structuredContent"]["contents"]
        live = httpx.get(f"{daemon.base}/status/live").json()
        # The first call never ended (a call is recorded when it ends): cancelled at once.
        assert [call["tool"] for call in live["calls"]] == ["hover"]
        assert live["calls_total"] == 1
        assert daemon.daemon.activity.in_flight == 0
        assert direct.answered == {"hover": 2}
