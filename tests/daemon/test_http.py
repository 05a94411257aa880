"""The daemon over real HTTP: /health, loopback-only binding, Host/Origin checks, tokens."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from lspd import __version__, sentinel
from lspd.daemon import client, finding
from tests.daemon.support import thread_daemon

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def _listeners(port: int) -> list[str]:
    """Local addresses of the sockets listening on `port` (from /proc/net/tcp{,6})."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="ascii") as handle:
            for line in list(handle)[1:]:
                fields = line.split()
                address, port_hex = fields[1].rsplit(":", 1)
                if int(port_hex, 16) == port and fields[3] == "0A":  # LISTEN
                    found.append(address)
    return found


def test_health_and_sentinel(root: Path) -> None:
    with thread_daemon(root, prewarm=False) as daemon:
        port = daemon.daemon.port
        assert sentinel.port_path(root).read_text() == f"{port}\n"
        data = httpx.get(f"{daemon.base}/health").json()
        assert data["status"] == "ok"
        assert data["workspace"] == str(root)
        assert data["pid"] == os.getpid()
        assert data["version"] == __version__
        assert isinstance(data["uptime_s"], float) and data["servers"] == []
        found = finding.find_daemon(root)
        assert found is not None and found.url == daemon.url
    assert not sentinel.port_path(root).exists()
    assert finding.find_daemon(root) is None


def test_listens_on_127_0_0_1_only(root: Path) -> None:
    with thread_daemon(root, prewarm=False) as daemon:
        port = daemon.daemon.port
        assert port is not None
        assert _listeners(port) == ["0100007F"]  # 127.0.0.1, nothing on 0.0.0.0 or ::
        assert daemon.url == f"http://127.0.0.1:{port}/mcp"


def test_foreign_origin_and_host_are_refused(root: Path) -> None:
    with thread_daemon(root, prewarm=False) as daemon:
        mcp = daemon.url
        evil_origin = httpx.post(
            mcp, json=INIT, headers={**MCP_HEADERS, "Origin": "http://evil.example"}
        )
        assert evil_origin.status_code == 403
        evil_host = httpx.post(mcp, json=INIT, headers={**MCP_HEADERS, "Host": "evil.example"})
        assert evil_host.status_code in (400, 421)
        rebound = httpx.get(f"{daemon.base}/health", headers={"Host": "attacker.test:80"})
        assert rebound.status_code in (400, 421)
        assert httpx.get(f"{daemon.base}/health", headers={"Origin": "null"}).status_code == 403
        # The same request from a loopback page (or no browser at all) is served.
        ok = httpx.post(mcp, json=INIT, headers={**MCP_HEADERS, "Origin": "http://localhost:5173"})
        assert ok.status_code == 200
        assert httpx.get(f"{daemon.base}/health").status_code == 200


@pytest.mark.anyio
async def test_token_mode(root: Path) -> None:
    with thread_daemon(root, prewarm=False, token=True) as daemon:
        path = sentinel.token_path(root)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        token = path.read_text().strip()
        assert httpx.get(f"{daemon.base}/health").status_code == 401
        wrong = {"Authorization": "Bearer nope"}
        assert httpx.get(f"{daemon.base}/health", headers=wrong).status_code == 401
        assert httpx.post(daemon.url, json=INIT, headers=MCP_HEADERS).status_code == 401
        good = {"Authorization": f"Bearer {token}"}
        assert httpx.get(f"{daemon.base}/health", headers=good).status_code == 200
        async with (
            httpx2.AsyncClient(headers=good) as http,
            Client(streamable_http_client(daemon.url, http_client=http)) as mcp,
        ):
            result = await mcp.call_tool("status", {})
            assert result.structured_content is not None
            assert result.structured_content["workspace"] == str(root)
        # The CLI client reads the token file by itself.
        assert client.call_tool(root, "status", {}) is not None
    assert not path.exists()


@pytest.mark.anyio
async def test_unauthenticated_sdk_client_fails(root: Path) -> None:
    with (
        thread_daemon(root, prewarm=False, token=True) as daemon,
        pytest.raises(BaseException),  # noqa: B017 (the SDK wraps it in an exception group)
    ):
        async with Client(daemon.url) as mcp:
            await mcp.call_tool("status", {})


def test_stale_token_file_is_removed_without_token_mode(root: Path) -> None:
    sentinel.new_token(root)
    with thread_daemon(root, prewarm=False):
        assert not sentinel.token_path(root).exists()
