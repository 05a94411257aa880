"""daemon/loopback.py against a real daemon (uvicorn), a closed port and a port that is not HTTP."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from lspd.daemon import loopback
from lspd.daemon.binding import HOST
from tests.daemon.support import thread_daemon

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": META}}


def test_a_fixed_length_answer_is_the_daemons_own(root: Path) -> None:
    with thread_daemon(root, prewarm=False) as daemon:
        port = daemon.daemon.port
        status, headers, body = loopback.request(HOST, port, "GET", "/health", {}, 5)
        expected = httpx.get(f"{daemon.base}/health")
    assert status == 200
    assert headers["content-type"] == "application/json"
    assert int(headers["content-length"]) == len(body)
    answer, reference = json.loads(body), expected.json()
    assert answer.pop("uptime_s") > 0 and reference.pop("uptime_s") > 0
    assert answer == reference


def test_an_event_stream_answer_is_read_whole(root: Path) -> None:
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/list",
    }
    body = json.dumps(LIST_TOOLS).encode()
    with thread_daemon(root, prewarm=False) as daemon:
        port = daemon.daemon.port
        status, found, data = loopback.request(HOST, port, "POST", "/mcp", headers, 5, body)
        expected = httpx.post(daemon.url, headers=headers, content=body, timeout=5)
    assert status == expected.status_code == 200
    assert found["content-type"] == expected.headers["content-type"]
    assert data == expected.content  # chunked or not, the same bytes


def test_an_error_status_comes_back_with_its_body(root: Path) -> None:
    with thread_daemon(root, prewarm=False) as daemon:
        port = daemon.daemon.port
        status, _, body = loopback.request(HOST, port, "GET", "/nowhere", {}, 5)
    assert status == 404
    assert body == b"Not Found"


def test_a_closed_port_is_an_os_error() -> None:
    with socket.socket() as held:
        held.bind((HOST, 0))
        port = held.getsockname()[1]  # bound, never listening: refused
        with pytest.raises(ConnectionRefusedError):
            loopback.request(HOST, port, "GET", "/health", {}, 2)


def answering(answer: bytes) -> Iterator[int]:
    """A port whose program reads one request, sends `answer` and closes."""
    server = socket.create_server((HOST, 0))

    def serve() -> None:
        connection, _ = server.accept()
        with connection:
            connection.recv(4096)
            connection.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    thread.join(5)
    server.close()


def test_a_chunked_answer_is_joined() -> None:
    # uvicorn chunks an answer of unknown length (a streamed event stream); trailers dropped
    answer = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/event-stream\r\n\r\n"
        b'7;ext=1\r\nevent: \r\n1c\r\nmessage\r\ndata: {"id": 1}\r\n\r\n\r\n'
        b"0\r\nX-Trailer: t\r\n\r\n"
    )
    for port in answering(answer):
        status, headers, body = loopback.request(HOST, port, "GET", "/", {}, 2)
    assert (status, headers["content-type"]) == (200, "text/event-stream")
    assert body == b'event: message\r\ndata: {"id": 1}\r\n\r\n'


def test_an_answer_cut_short_is_not_taken_for_whole() -> None:
    for port in answering(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n12345"):
        with pytest.raises(loopback.NotHttp, match="received 5 bytes, expected 10"):
            loopback.request(HOST, port, "GET", "/", {}, 2)


def test_a_program_that_is_not_http_is_named_so() -> None:
    for port in answering(b"SSH-2.0-OpenSSH_9.6\r\n"):
        with pytest.raises(loopback.NotHttp, match=r"not an HTTP answer: b'SSH-2\.0"):
            loopback.request(HOST, port, "GET", "/health", {}, 2)


def test_a_port_closed_without_a_word_is_not_http() -> None:
    for port in answering(b""):
        with pytest.raises(loopback.NotHttp, match=r"not an HTTP answer: b''"):
            loopback.request(HOST, port, "GET", "/health", {}, 2)


def test_an_interim_answer_is_passed_over() -> None:
    answer = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok"
    for port in answering(answer):
        assert loopback.request(HOST, port, "POST", "/", {}, 2, b"{}") == (
            201,
            {"content-length": "2"},
            b"ok",
        )
