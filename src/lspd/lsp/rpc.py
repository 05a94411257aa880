"""JSON-RPC 2.0 over a pair of streams, as LSP uses it.

Our own small client rather than pygls's: every server→client request must get an answer
(basedpyright exits when `workspace/diagnostic/refresh` gets an error), stderr must never
block, and we want raw JSON results without cattrs structuring (see docs/design.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from lspd.lsp.framing import FramingError, encode_message, read_message

log = logging.getLogger(__name__)

RequestHandler = Callable[[str, Any], Awaitable[Any]]

# Server requests whose answer changes nothing the server holds (not `told`): it asks the
# client to pull again or show progress, or registers what the client sends it (what is then
# sent is told). basedpyright asks `workspace/diagnostic/refresh` after each check it ends.
TELLS_NOTHING = frozenset(
    {
        "workspace/diagnostic/refresh",
        "workspace/semanticTokens/refresh",
        "workspace/inlayHint/refresh",
        "workspace/codeLens/refresh",
        "workspace/inlineValue/refresh",
        "window/workDoneProgress/create",
        "client/registerCapability",
        "client/unregisterCapability",
    }
)
NotificationHandler = Callable[[str, Any], None]


class RpcError(Exception):
    """The server answered a request with an error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{message} (code {code})")
        self.code = code
        self.message = message
        self.data = data


class ConnectionClosed(Exception):
    """The connection ended before the answer came."""


class RequestTimeout(Exception):
    """A request the server did not answer in time (it was sent `$/cancelRequest`)."""

    pass


@dataclass
class Sent:
    """A request the server has not answered yet (its caller may have given up)."""

    method: str
    params: Any
    at: float  # monotonic time it was written
    abandoned: bool = False  # its caller gave up (timed out, cancelled)


class JsonRpcConnection:
    """JSON-RPC over a server's stdio: requests with timeouts, notifications, and every
    server request answered (an empty success for those lspd does not act on)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        on_request: RequestHandler,
        on_notification: NotificationHandler,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._on_request = on_request
        self._on_notification = on_notification
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        # Every request the server owes an answer, by id, oldest first: also those whose
        # caller gave up (timed out, cancelled), until the server answers them or one sent
        # after them. A single-threaded server works through them in order, so the oldest
        # is what it is stuck on (`busy`).
        self.owed: dict[int, Sent] = {}
        self.last_answer = time.monotonic()  # when it last answered a request of ours
        self.received = 0  # messages read from the server (requests, answers, notifications)
        # Messages written that may change what the server holds (notifications, answers to
        # its requests but `TELLS_NOTHING`; not our requests): asked at the same count, the
        # same question gets the same answer from a server that reads nothing else.
        self.told = 0
        self.waiting_since: float | None = None  # when callers began waiting (None: nobody)
        self.waiting = asyncio.Event()  # set while a caller waits for an answer
        self.gave_up = asyncio.Event()  # set when a caller gives up on an answer
        self._closed: str | None = None
        self.protocol_error: str | None = None  # what the server wrote that is not LSP
        self._reader_task: asyncio.Task[None] | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self.closed = asyncio.Event()

    @property
    def close_reason(self) -> str | None:
        """Why the connection closed, or None while it is open."""
        return self._closed

    def start(self) -> None:
        self._reader_task = asyncio.create_task(self._read_loop(), name="lsp-reader")

    async def request(self, method: str, params: Any = None, timeout: float = 30.0) -> Any:
        if self._closed is not None:
            raise ConnectionClosed(self._closed)
        request_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        if self.waiting_since is None:
            self.waiting_since = time.monotonic()
            self.waiting.set()
        try:
            self._write(message)
            self.owed[request_id] = Sent(method, params, time.monotonic())
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self._give_up(request_id)
            raise RequestTimeout(f"{method} got no answer within {timeout:g} s") from None
        except asyncio.CancelledError:
            self._give_up(request_id)
            raise
        finally:
            self._pending.pop(request_id, None)
            if not self._pending:
                self.waiting_since = None
                self.waiting.clear()

    def _give_up(self, request_id: int) -> None:
        """Tell the server (it may not read it before it is done: basedpyright does not)."""
        self.notify("$/cancelRequest", {"id": request_id})
        if (sent := self.owed.get(request_id)) is not None:
            sent.abandoned = True
            self.gave_up.set()

    def silent_for(self) -> float | None:
        """Seconds the server has answered nothing while a caller waits (None: nobody waits)."""
        if self.waiting_since is None:
            return None
        return time.monotonic() - max(self.last_answer, self.waiting_since)

    def oldest_owed(self) -> Sent | None:
        """The request the server has owed an answer longest: what it is working on."""
        return next(iter(self.owed.values()), None)

    def notify(self, method: str, params: Any = None) -> None:
        if self._closed is not None:
            return
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.told += 1
        self._write(message)

    def close(self, reason: str) -> None:
        """Fail every pending request with `reason` and stop reading."""
        if self._closed is not None:
            return
        self._closed = reason
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionClosed(reason))
        self._pending.clear()
        self.owed.clear()
        self.waiting_since = None
        self.waiting.set()  # wake whoever watches for a stuck server: it is gone
        if self._reader_task is not None and self._reader_task is not asyncio.current_task():
            self._reader_task.cancel()
        for task in self._handlers:
            task.cancel()
        with contextlib.suppress(Exception):
            self._writer.close()
        self.closed.set()

    def _write(self, message: dict[str, Any]) -> None:
        try:
            self._writer.write(encode_message(message))
        except (ConnectionError, RuntimeError) as exc:
            self.close(f"cannot write to the server: {exc}")
            raise ConnectionClosed(self._closed or "closed") from None

    async def _read_loop(self) -> None:
        reason = "the server closed its output"
        try:
            while True:
                message = await read_message(self._reader)
                if message is None:
                    break
                self._dispatch(message)
        except FramingError as exc:
            reason = self.protocol_error = f"the server wrote garbage: {exc}"
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            reason = f"the connection broke: {exc}"
        except Exception as exc:  # a message of the wrong shape: never die silently
            log.exception("cannot handle a message from the server")
            reason = self.protocol_error = f"the server sent a malformed message: {exc!r}"
        self.close(reason)

    def _dispatch(self, message: dict[str, Any]) -> None:
        self.received += 1
        method = message.get("method")
        if method is None:
            self._resolve(message)
        elif "id" in message:
            task = asyncio.create_task(self._answer(message["id"], method, message.get("params")))
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        else:
            try:
                self._on_notification(method, message.get("params"))
            except Exception:
                log.exception("notification handler failed for %s", method)

    def _resolve(self, message: dict[str, Any]) -> None:
        answered = message.get("id")
        if answered in self.owed:
            self.last_answer = time.monotonic()
            for request_id in list(self.owed):  # it is done with those sent before, too
                if request_id != answered and request_id in self._pending:
                    continue  # still awaited: the server may answer it later
                del self.owed[request_id]
                if request_id == answered:
                    break
        future = self._pending.get(answered)  # type: ignore[arg-type]
        if future is None or future.done():
            return
        error = message.get("error")
        if error is not None:
            future.set_exception(
                RpcError(
                    int(error.get("code", 0)), str(error.get("message", "")), error.get("data")
                )
            )
        else:
            future.set_result(message.get("result"))

    async def _answer(self, request_id: Any, method: str, params: Any) -> None:
        try:
            result = await self._on_request(method, params)
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "result": result}
        except Exception as exc:
            log.exception("request handler failed for %s", method)
            reply = {
                "jsonrpc": "2.0",
                "id": request_id,
                "error": {"code": -32603, "message": str(exc)},
            }
        if method not in TELLS_NOTHING:
            self.told += 1
        with contextlib.suppress(ConnectionClosed):
            self._write(reply)
