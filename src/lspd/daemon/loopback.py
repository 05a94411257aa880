"""One HTTP/1.1 request to a daemon on the loopback, read whole.

Not `http.client`: importing it (and the `email` package it parses headers with) is about 20 ms
of the CLI's 110 ms start, and a hook or `lspd check` after a one-line edit is answered in
about as much. The peer is always lspd's own uvicorn on 127.0.0.1, so the protocol needed is
small: one request with `Connection: close`, an answer with a Content-Length, chunked (an
event stream), or ended by the close.
"""

from __future__ import annotations

import socket

_READ = 1 << 20


class NotHttp(Exception):
    """The port answered, but not with HTTP (another program holds it)."""


def request(
    host: str,
    port: int,
    method: str,
    path: str,
    headers: dict[str, str],
    timeout: float,
    body: bytes | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """Send one request; return the status, the headers (names lower-cased) and the body.

    Raises `OSError` when the port refuses or an answer takes longer than `timeout` between
    two reads (as `http.client`), `NotHttp` when what comes back is not an HTTP answer."""
    payload = body or b""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if payload or method != "GET":
        lines.append(f"Content-Length: {len(payload)}")
    with socket.create_connection((host, port), timeout=timeout) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload)
        received = bytearray()
        while chunk := connection.recv(_READ):
            received += chunk
    return _parse(bytes(received))


def _parse(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, separator, rest = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parts = status_line.split(" ", 2)
    is_http = len(parts) >= 2 and parts[0].startswith("HTTP/") and parts[1].isdigit()
    if not separator or not is_http:
        raise NotHttp(f"not an HTTP answer: {answer[:60]!r}")
    headers: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return int(parts[1]), headers, _unchunk(rest)
    length = headers.get("content-length")
    if length is not None and length.isdigit():
        if len(rest) < int(length):
            raise NotHttp(f"the answer ended after {len(rest)} of {length} bytes")
        return int(parts[1]), headers, rest[: int(length)]
    return int(parts[1]), headers, rest


def _unchunk(data: bytes) -> bytes:
    """The body of a chunked answer (RFC 9112 §7.1); trailers are dropped."""
    body = bytearray()
    at = 0
    while True:
        end = data.find(b"\r\n", at)
        if end < 0:
            raise NotHttp("a chunked answer ended inside a chunk's size line")
        size_text = data[at:end].split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise NotHttp(f"a chunk's size is not hexadecimal: {size_text[:20]!r}") from None
        if size == 0:
            return bytes(body)
        start = end + 2
        if start + size > len(data):
            raise NotHttp("a chunked answer ended inside a chunk")
        body += data[start : start + size]
        at = start + size + 2
