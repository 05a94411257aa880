"""Failure branches of the health check: `scripts/lspd-health` end to end, and the function
behind `lspd health` (`lspd.daemon.client.probe`, the daemon's code) with pytest-httpx.

Each branch must exit 1 with a reason a person can act on: stale sentinel, a port that
hangs, a server error, or a daemon that serves another workspace.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from pytest_httpx import HTTPXMock

from lspd.cli import main

from .live import SCRIPTS, run


class FakeDaemon(BaseHTTPRequestHandler):
    """Answers /health the way a broken or foreign daemon would."""

    mode = "ok"
    workspace = "/"

    def do_GET(self) -> None:
        if self.mode == "hang":
            time.sleep(5)
        status = 500 if self.mode == "500" else 200
        body = json.dumps(
            {
                "status": "ok",
                "workspace": self.workspace,
                "pid": 1,
                "version": "0",
                "uptime_s": 1.0,
                "servers": [],
            }
        ).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fake() -> Iterator[tuple[int, type[FakeDaemon]]]:
    handler = type("Handler", (FakeDaemon,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], handler
    finally:
        server.shutdown()
        server.server_close()


def workspace(tmp_path: Path, port: int | None) -> Path:
    root = (tmp_path / "ws").resolve()
    (root / ".vscode").mkdir(parents=True)
    if port is not None:
        (root / ".vscode" / ".mcp-port").write_text(f"{port}\n")
    return root


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def health_script(root: Path) -> tuple[int, str]:
    env = {**os.environ, "LSPD_STATE_DIR": str(root.parent / "state")}
    done = run([str(SCRIPTS / "lspd-health"), str(root)], env, root.parent, timeout=60)
    return done.returncode, done.stdout + done.stderr


# The script, end to end ---------------------------------------------------------------


def test_script_no_sentinel(tmp_path: Path) -> None:
    code, out = health_script(workspace(tmp_path, None))
    assert code == 1
    assert "no daemon runs for" in out


def test_script_stale_sentinel(tmp_path: Path) -> None:
    port = free_port()
    code, out = health_script(workspace(tmp_path, port))
    assert code == 1
    assert f"nothing answers on port {port}" in out and "stale sentinel" in out


def test_script_timeout(tmp_path: Path, fake: tuple[int, type[FakeDaemon]]) -> None:
    port, handler = fake
    handler.mode = "hang"
    started = time.monotonic()
    code, out = health_script(workspace(tmp_path, port))
    assert code == 1
    assert "Timeout" in out and f"port {port}" in out
    assert time.monotonic() - started < 10


def test_script_server_error(tmp_path: Path, fake: tuple[int, type[FakeDaemon]]) -> None:
    port, handler = fake
    handler.mode = "500"
    code, out = health_script(workspace(tmp_path, port))
    assert code == 1
    assert "HTTP 500" in out


def test_script_another_workspace(tmp_path: Path, fake: tuple[int, type[FakeDaemon]]) -> None:
    port, handler = fake
    handler.workspace = "/somewhere/else"
    code, out = health_script(workspace(tmp_path, port))
    assert code == 1
    assert "another workspace (/somewhere/else)" in out


def test_script_health_without_mcp_is_unhealthy(
    tmp_path: Path, fake: tuple[int, type[FakeDaemon]]
) -> None:
    # /health right for this root, but no MCP behind it: agents could not use it.
    port, handler = fake
    root = workspace(tmp_path, port)
    handler.workspace = str(root)
    code, out = health_script(root)
    assert code == 1, out
    assert out.startswith("unhealthy: ") and "tools/list" in out


# The function behind `lspd health`, with pytest-httpx ---------------------------------


@pytest.fixture
def sentinel_root(tmp_path: Path) -> Path:
    return workspace(tmp_path, 47001)


HEALTH_URL = "http://127.0.0.1:47001/health"


def health_cli(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["health", str(root)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_health_timeout(
    sentinel_root: Path, httpx_mock: HTTPXMock, capsys: pytest.CaptureFixture[str]
) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("timed out"), url=HEALTH_URL)
    code, out = health_cli(sentinel_root, capsys)
    assert code == 1
    assert "unhealthy: nothing answers on port 47001 (ReadTimeout): stale sentinel" in out


def test_health_500(
    sentinel_root: Path, httpx_mock: HTTPXMock, capsys: pytest.CaptureFixture[str]
) -> None:
    httpx_mock.add_response(url=HEALTH_URL, status_code=500, text="boom")
    code, out = health_cli(sentinel_root, capsys)
    assert code == 1
    assert "port 47001 answered /health with HTTP 500" in out


def test_health_other_workspace(
    sentinel_root: Path, httpx_mock: HTTPXMock, capsys: pytest.CaptureFixture[str]
) -> None:
    httpx_mock.add_response(
        url=HEALTH_URL, json={"status": "ok", "workspace": "/other", "servers": []}
    )
    code, out = health_cli(sentinel_root, capsys)
    assert code == 1
    assert "serves another workspace (/other)" in out


def test_health_not_json(
    sentinel_root: Path, httpx_mock: HTTPXMock, capsys: pytest.CaptureFixture[str]
) -> None:
    httpx_mock.add_response(url=HEALTH_URL, text="<html>")
    code, out = health_cli(sentinel_root, capsys)
    assert code == 1
    assert "not JSON" in out


def test_health_crashed_server(
    sentinel_root: Path, httpx_mock: HTTPXMock, capsys: pytest.CaptureFixture[str]
) -> None:
    httpx_mock.add_response(
        url=HEALTH_URL,
        json={
            "status": "ok",
            "workspace": str(sentinel_root),
            "pid": 7,
            "servers": [{"language": "python", "server": "basedpyright", "state": "crashed"}],
        },
    )
    code, out = health_cli(sentinel_root, capsys)
    assert code == 1
    assert "crashed: basedpyright" in out


def test_health_ok(
    sentinel_root: Path, httpx_mock: HTTPXMock, capsys: pytest.CaptureFixture[str]
) -> None:
    httpx_mock.add_response(
        url=HEALTH_URL,
        json={"status": "ok", "workspace": str(sentinel_root), "pid": 7, "servers": []},
    )
    httpx_mock.add_response(
        url="http://127.0.0.1:47001/mcp",
        method="POST",
        json={"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "hover"}]}},
    )
    code, out = health_cli(sentinel_root, capsys)
    assert code == 0, out
    assert out.startswith("ok: daemon pid 7 serves") and "tools/list: 1 tools" in out


def test_health_mcp_failing(
    sentinel_root: Path, httpx_mock: HTTPXMock, capsys: pytest.CaptureFixture[str]
) -> None:
    httpx_mock.add_response(
        url=HEALTH_URL,
        json={"status": "ok", "workspace": str(sentinel_root), "pid": 7, "servers": []},
    )
    httpx_mock.add_response(url="http://127.0.0.1:47001/mcp", method="POST", status_code=500)
    code, out = health_cli(sentinel_root, capsys)
    assert code == 1
    assert "MCP tools/list fails" in out
