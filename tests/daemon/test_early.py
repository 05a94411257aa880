"""The first answers before the MCP SDK is imported (daemon/early.py, early_calls.py,
kept_wire.py): the same bytes as the SDK's, read through the SDK's own client from a real
daemon (uvicorn on 127.0.0.1, real basedpyright): a first run with no kept copy (the SDK
answers and the copy is made), a second with it (answered before the SDK is built), a run
whose copy is stale (never served)."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from lspd.daemon import kept_wire, run, whole
from lspd.daemon.early import Early
from tests.daemon.support import ThreadDaemon, thread_daemon

HOVER = {"path": "pkg/app.py", "line": 1, "column": 26}  # Greeter, in the import
Seen = list[tuple[str | None, int, list[tuple[str, str]], bytes]]


def _timeless(body: bytes) -> bytes:
    """The body without status's uptime and memory (the answers are runs apart) and its
    count of watches (none before the watcher starts)."""
    body = re.sub(rb'\\?"watches\\?":[0-9]+,', b"", body)
    return re.sub(rb'(uptime_s|rss_mb)(\\?"):[0-9.]+', rb"\1\2:0", body)


async def _conversation(url: str) -> tuple[Seen, Any]:
    """What the SDK's client receives (each response's method, status, headers but the
    date, body: `_timeless`) when it connects, calls `status` and hovers; and the hover's
    answer."""
    seen: Seen = []

    async def record(response: httpx2.Response) -> None:
        await response.aread()
        headers = [(k, v) for k, v in response.headers.items() if k != "date"]
        if b'"uptime_s' in response.content:  # its length follows the status's count
            headers = [(k, v) for k, v in headers if k != "content-length"]
        method = response.request.headers.get("mcp-method")
        seen.append((method, response.status_code, headers, _timeless(response.content)))

    http = httpx2.AsyncClient(event_hooks={"response": [record]}, timeout=60)
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        status = await client.call_tool("status", {})
        assert not status.is_error
        hover = await client.call_tool("hover", HOVER)
    return seen, hover.structured_content


def _early(daemon: ThreadDaemon) -> Early:
    early = daemon.daemon._early
    assert early is not None
    return early


@pytest.mark.anyio
async def test_the_sdk_bytes_from_the_kept_copy(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kept_wire, "folder", lambda: tmp_path / "wire")
    with thread_daemon(root, prewarm=False) as first:  # no copy yet: the SDK answers
        sdk, answer = await _conversation(first.url)
        assert _early(first).answered == {}
    assert "class Greeter" in answer["contents"]
    methods = [method for method, *_ in sdk]  # the client lists the tools for its 1st schema
    assert methods == ["server/discover", "tools/call", "tools/list", "tools/call"]
    assert len(list((tmp_path / "wire").glob("*.json"))) == 1

    # The SDK's app is built after the first call answered without it: held here until the
    # conversation is over, so that all of it is answered before the SDK is up.
    held, build = threading.Event(), whole.build
    monkeypatch.setattr(whole, "build", lambda *given: (held.wait(60), build(*given))[1])
    with thread_daemon(root, prewarm=False) as second:
        early, answer = await _conversation(second.url)
        assert _early(second).answered == {"server/discover": 1, "tools/list": 1, "tools/call": 2}
        assert not second.daemon.built.is_set()
        assert early == sdk
        assert "class Greeter" in answer["contents"]
        held.set()
        # A route the first answers do not serve waits for the SDK's app.
        assert httpx.get(f"{second.base}/check/progress", timeout=60).json() == {}
        assert second.daemon.built.is_set()
        again, _ = await _conversation(second.url)  # the SDK's again, now it is up
        # (status names the server the hover started: not compared)
        assert [again[0], *again[2:]] == [sdk[0], *sdk[2:]]
        assert _early(second).answered["tools/call"] == 2

    monkeypatch.setattr(kept_wire, "wire_key", lambda: "another-key")  # lspd or the SDK changed
    with thread_daemon(root, prewarm=False) as third:
        stale, _ = await _conversation(third.url)
        assert _early(third).answered == {}  # nothing served from a stale copy
        assert stale == sdk
    assert "another-key" in {p.stem for p in (tmp_path / "wire").glob("*.json")}


def test_health_before_the_sdk(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "LOAD_AFTER_S", 3600.0)
    with thread_daemon(root, prewarm=False) as daemon:
        health = httpx.get(f"{daemon.base}/health").json()
        assert not daemon.daemon.built.is_set()
        assert health["workspace"] == str(root.resolve())
        assert health["options"]["port"] == daemon.daemon.port
        assert httpx.get(f"{daemon.base}/health", headers={"Host": "evil.test"}).status_code == 421
