"""One stateless MCP answer written as the SDK writes it (issue 43), with no SDK imported:
JSON when the call ends within `PING_AFTER_S`, else the SDK's event stream with its
keep-alive comments; a client that goes away cancels its call. Used by the calls answered
beside the SDK (`mcp_direct`) and before it is imported (`early`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

from starlette.types import Message, Receive, Send

PING_AFTER_S = 15.0  # the SDK's `_SSE_PING_INTERVAL`: a silent call commits the event stream
WATCH_AFTER_S = 1.0  # a call running this long is cancelled when its client goes away
SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"connection", b"keep-alive"),
    (b"x-accel-buffering", b"no"),
]
PING = b": ping\r\n\r\n"  # the SDK's keep-alive comment


class Stream:
    """The response of one direct call: JSON when it ends within `PING_AFTER_S`, else the
    SDK's event stream with keep-alive comments; the call is cancelled when the client
    goes away (watched once it runs `WATCH_AFTER_S`)."""

    def __init__(self, send: Send, receive: Receive) -> None:
        self.send, self.receive = send, receive
        self.committed = self.gone = False
        self._tasks: list[asyncio.Task[None]] = []

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        loop = asyncio.get_running_loop()
        call = asyncio.current_task()
        assert call is not None
        timers = [
            loop.call_later(WATCH_AFTER_S, self._spawn, self._watch, call),
            loop.call_later(PING_AFTER_S, self._spawn, self._ping),
        ]
        try:
            yield
        finally:
            for timer in timers:
                timer.cancel()
            for task in self._tasks:
                task.cancel()

    def _spawn(self, work: Callable[..., Coroutine[Any, Any, None]], *args: Any) -> None:
        self._tasks.append(asyncio.ensure_future(work(*args)))

    async def _watch(self, call: asyncio.Task[Any]) -> None:
        while (await self.receive())["type"] != "http.disconnect":
            pass
        self.gone = True
        call.cancel()

    async def _ping(self) -> None:
        self.committed = True  # before the await: the answer follows as an event whatever
        await self.send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
        while True:
            await self.send({"type": "http.response.body", "body": PING, "more_body": True})
            await asyncio.sleep(PING_AFTER_S)

    async def finish(self, body: bytes, status: int = 200) -> None:
        """Send the answer: an event once the stream is committed (its status sent: 200)."""
        for task in self._tasks:  # a ping being written ends first
            await asyncio.gather(task, return_exceptions=True)
        if self.committed:
            event = b"event: message\r\ndata: " + body + b"\r\n\r\n"
            await self.send({"type": "http.response.body", "body": event, "more_body": False})
            return
        headers = [
            (b"content-length", str(len(body)).encode()),
            (b"content-type", b"application/json"),
        ]
        await self.send({"type": "http.response.start", "status": status, "headers": headers})
        await self.send({"type": "http.response.body", "body": body, "more_body": False})


def accepts(accept: bytes) -> bool:
    """Whether an Accept header takes JSON and an event stream (the SDK's
    `check_accept_headers`: wildcards count)."""
    types = {t.split(b";")[0].strip().lower() for t in accept.split(b",")}
    wildcard = b"*/*" in types
    json_ok = wildcard or bool(types & {b"application/json", b"application/*"})
    return json_ok and (wildcard or bool(types & {b"text/event-stream", b"text/*"}))


async def read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Receive:
    """`receive` giving the body already read first, then what the server sends."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed
