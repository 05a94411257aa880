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
from collections.abc import Awaitable, Callable
from typing import Any

from lspd.lsp.framing import FramingError, encode_message, read_message

log = logging.getLogger(__name__)

RequestHandler = Callable[[str, Any], Awaitable[Any]]
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
    pass


class JsonRpcConnection:
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
        try:
            self._write(message)
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.notify("$/cancelRequest", {"id": request_id})
            raise RequestTimeout(f"{method} got no answer within {timeout:g} s") from None
        except asyncio.CancelledError:
            self.notify("$/cancelRequest", {"id": request_id})
            raise
        finally:
            self._pending.pop(request_id, None)

    def notify(self, method: str, params: Any = None) -> None:
        if self._closed is not None:
            return
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
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
        future = self._pending.get(message.get("id"))  # type: ignore[arg-type]
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
        with contextlib.suppress(ConnectionClosed):
            self._write(reply)
