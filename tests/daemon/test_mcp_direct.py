"""A stateless tool call answered beside the SDK (daemon/mcp_direct.py): the same bytes as
the SDK's answer, the SDK still answering what is not a plain tool call, and a slow call
moving to the event stream (real daemon, real basedpyright, the SDK's own client)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client

from lspd.daemon import mcp_direct
from lspd.daemon.client import PROTOCOL_VERSION
from tests.daemon.support import thread_daemon

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


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tools each direct answer was for (the real `_answer`, observed)."""
    tools: list[str] = []
    real = mcp_direct.Direct._answer

    async def observed(self: mcp_direct.Direct, *args: Any) -> bool:
        done = await real(self, *args)
        if done:
            tools.append(args[4])
        return done

    monkeypatch.setattr(mcp_direct.Direct, "_answer", observed)
    return tools


def test_the_same_bytes_as_the_sdk(root: Path, answered: list[str]) -> None:
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
        assert answered == ["hover", "hover", "hover", "status"]


def test_what_the_sdk_still_answers(root: Path, answered: list[str]) -> None:
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
        assert answered == []


@pytest.mark.anyio
async def test_the_sdk_client_and_a_slow_call(
    root: Path, answered: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first hover starts basedpyright (a second or more): past this, the event stream.
    monkeypatch.setattr(mcp_direct, "PING_AFTER_S", 0.05)
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
        assert answered == ["hover", "hover"]


def test_a_client_gone_cancels_its_call(
    root: Path, answered: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mcp_direct, "WATCH_AFTER_S", 0.05)
    with thread_daemon(root, prewarm=False) as daemon:
        with pytest.raises(httpx.ReadTimeout):  # the first hover starts basedpyright: seconds
            _post(daemon.url, "hover", HOVER, timeout=0.5)
        done = json.loads(_post(daemon.url, "hover", HOVER).content)["result"]
        assert not done["isError"] and "class Greeter" in done["structuredContent"]["contents"]
        live = httpx.get(f"{daemon.base}/status/live").json()
        # The first call never ended (a call is recorded when it ends): cancelled at once.
        assert [call["tool"] for call in live["calls"]] == ["hover"]
        assert live["calls_total"] == 1
        assert daemon.daemon.activity.in_flight == 0
        assert answered == ["hover", "hover"]
