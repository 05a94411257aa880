"""One HTTP/1.1 request to a daemon on the loopback, read whole, the protocol spoken by h11.

Not `http.client`: importing it (and the `email` package it parses headers with) is about
20 ms of the CLI's start, and a hook or `lspd check` after a one-line edit is answered in
about as much. h11 (uvicorn's and httpx's HTTP/1.1 state machine, no I/O of its own) reads
the answer, whatever its framing (Content-Length, chunked, ended by the close); this module
only moves the bytes over one socket.

Importing h11 costs 15-30 ms (its events are dataclasses: `dataclasses` and `inspect` come
with it), as much as the rest of `lspd check`'s start. So the request goes out first and h11
is imported while the daemon works on it (another process, another core): the request line
and headers are written here, and h11 writes the same request into its state machine, which
must come out byte for byte what was sent.
"""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import h11

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
    fields = [("Host", f"{host}:{port}"), ("Connection", "close"), *headers.items()]
    if payload or method != "GET":
        fields.append(("Content-Length", str(len(payload))))
    lines = [f"{method} {path} HTTP/1.1\r\n", *(f"{k}: {v}\r\n" for k, v in fields), "\r\n"]
    sent = "".join(lines).encode("latin-1") + payload
    # Not `create_connection`: its name lookup imports the idna codec (~2 ms); `host` is an
    # address (the daemon binds 127.0.0.1 only).
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP) as sock:
        sock.settimeout(timeout)
        sock.connect((host, port))
        sock.sendall(sent)
        connection = _client(method, path, fields, payload, sent)  # while the daemon works
        return _answer(connection, sock)


def _client(
    method: str, path: str, fields: list[tuple[str, str]], payload: bytes, sent: bytes
) -> h11.Connection:
    """h11's client side of the connection, having written the request that was `sent`."""
    import h11

    connection = h11.Connection(h11.CLIENT)
    written = connection.send(h11.Request(method=method, target=path, headers=fields)) or b""
    if payload:
        written += connection.send(h11.Data(data=payload)) or b""
    written += connection.send(h11.EndOfMessage()) or b""
    if written != sent:  # a header h11 would refuse or write otherwise
        raise ValueError(f"h11 writes this request otherwise: {written[:200]!r}")
    return connection


def _answer(connection: h11.Connection, sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The answer's status, headers and body, as h11 reads them off `sock`."""
    import h11

    first = b""  # what came before the answer's head, named when it is not HTTP
    status, body = 0, bytearray()
    headers: dict[str, str] = {}
    while True:
        try:
            event = connection.next_event()
        except h11.RemoteProtocolError as exc:
            if not status:
                raise NotHttp(f"not an HTTP answer: {first[:60]!r}") from None
            raise NotHttp(f"the answer broke off: {exc}") from None
        if event is h11.NEED_DATA:
            data = sock.recv(_READ)
            first = first if status or len(first) >= 60 else first + data
            connection.receive_data(data)
        elif isinstance(event, h11.Response):
            status = event.status_code
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in event.headers}
        elif isinstance(event, h11.Data):
            body += event.data
        elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
            return status, headers, bytes(body)
