"""Failure branches of the health check: `scripts/lspd-health` end to end, and the function
behind `lspd health` (`lspd.daemon.finding.probe`, the daemon's code), both against a real
HTTP server on 127.0.0.1 that answers as a broken or foreign daemon would.

Each branch must exit 1 with a reason a person can act on: stale sentinel, a port that
hangs, a server error, or a daemon that serves another workspace.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from lspd.cli import main

from .live import SCRIPTS, run


class FakeDaemon(BaseHTTPRequestHandler):
    """Answers /health (and MCP's tools/list) the way a broken or foreign daemon would: a
    real HTTP server on 127.0.0.1, so the client's own error handling is what is tested."""

    mode = "ok"  # or "hang", "500", "html"
    mcp = "none"  # or "ok", "500"
    workspace = "/"
    servers: tuple[dict[str, str], ...] = ()

    def do_GET(self) -> None:
        if self.mode == "hang":
            time.sleep(5)
        if self.mode == "html":
            self._send(200, "text/html", b"<html>")
            return
        health = {
            "status": "ok",
            "workspace": self.workspace,
            "pid": 1,
            "version": "0",
            "uptime_s": 1.0,
            "servers": list(self.servers),
        }
        self._send(500 if self.mode == "500" else 200, "application/json", json.dumps(health))

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.mcp == "ok":
            answer = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "hover"}]}}
            self._send(200, "application/json", json.dumps(answer))
        else:
            self._send(500 if self.mcp == "500" else 404, "text/plain", b"no MCP here")

    def _send(self, status: int, content_type: str, body: str | bytes) -> None:
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass

    def handle(self) -> None:
        # The client gave up on a hanging answer, as it should.
        with contextlib.suppress(BrokenPipeError):
            super().handle()


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


# How a daemon answers when it is broken (the fake's settings), and what each check must
# say of it: the script's words (none: not asked of it), then `lspd health`'s ({port}: the
# fake's port).
BROKEN: dict[str, tuple[dict[str, str], tuple[str, ...], str]] = {
    "hangs": (
        {"mode": "hang"},
        ("Timeout", "port {port}"),
        "unhealthy: nothing answers on port {port} (TimeoutError): stale sentinel",
    ),
    "answers 500": ({"mode": "500"}, ("HTTP 500",), "port {port} answered /health with HTTP 500"),
    "serves another workspace": (
        {"workspace": "/somewhere/else"},
        ("another workspace (/somewhere/else)",),
        "serves another workspace (/somewhere/else)",
    ),
    "answers HTML": ({"mode": "html"}, (), "not JSON"),
}


def broken(fake: tuple[int, type[FakeDaemon]], case: str) -> int:
    """The fake daemon set up to fail as `case` says; its port."""
    port, handler = fake
    for name, value in BROKEN[case][0].items():
        setattr(handler, name, value)
    return port


@pytest.mark.parametrize("case", [case for case, (_, said, _) in BROKEN.items() if said])
def test_script_says_why_a_daemon_is_unhealthy(
    tmp_path: Path, fake: tuple[int, type[FakeDaemon]], case: str
) -> None:
    port = broken(fake, case)
    started = time.monotonic()
    code, out = health_script(workspace(tmp_path, port))
    assert code == 1
    assert all(words.format(port=port) in out for words in BROKEN[case][1]), out
    assert time.monotonic() - started < 10  # a hanging daemon is given up on


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


# The function behind `lspd health`, against the same real HTTP stand-in -------------


def health_cli(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["health", str(root)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("case", BROKEN)
def test_health_says_why_a_daemon_is_unhealthy(
    tmp_path: Path,
    fake: tuple[int, type[FakeDaemon]],
    capsys: pytest.CaptureFixture[str],
    case: str,
) -> None:
    port = broken(fake, case)
    code, out = health_cli(workspace(tmp_path, port), capsys)
    assert code == 1
    assert BROKEN[case][2].format(port=port) in out


def test_health_crashed_server(
    tmp_path: Path, fake: tuple[int, type[FakeDaemon]], capsys: pytest.CaptureFixture[str]
) -> None:
    port, handler = fake
    root = workspace(tmp_path, port)
    handler.workspace = str(root)
    handler.servers = ({"language": "python", "server": "basedpyright", "state": "crashed"},)
    code, out = health_cli(root, capsys)
    assert code == 1
    assert "crashed: basedpyright" in out


def test_health_ok(
    tmp_path: Path, fake: tuple[int, type[FakeDaemon]], capsys: pytest.CaptureFixture[str]
) -> None:
    port, handler = fake
    root = workspace(tmp_path, port)
    handler.workspace = str(root)
    handler.mcp = "ok"
    code, out = health_cli(root, capsys)
    assert code == 0, out
    assert out.startswith("ok: daemon pid 1 serves") and "tools/list: 1 tools" in out


def test_health_mcp_failing(
    tmp_path: Path, fake: tuple[int, type[FakeDaemon]], capsys: pytest.CaptureFixture[str]
) -> None:
    port, handler = fake
    root = workspace(tmp_path, port)
    handler.workspace = str(root)
    handler.mcp = "500"
    code, out = health_cli(root, capsys)
    assert code == 1
    assert "MCP tools/list fails" in out
