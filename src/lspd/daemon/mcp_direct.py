"""A stateless tool call answered at once, beside the MCP SDK's app (issue 43).

At protocol 2026-07-28 a `tools/call` is one self-contained POST: no session, one JSON-RPC
request in, one response out. The SDK serves it through machinery made for every case (a
task group and a memory stream per request for its SSE deferral, a Connection and a runner,
OpenTelemetry spans, middleware, transport-security and Mcp-Param look-ups, Starlette's
Request and Response): ~2 ms of the daemon's CPU per call, more than lspd's own work in a
warm hover (cProfile and /proc CPU per call; docs/benchmarks.md, bench/latency.py).

`Direct` answers that common case itself, with the SDK's own checks and serialisation
(`classify_inbound_request`, `validate_client_request`, `serialize_server_result`, the
server-info stamp) and the same bytes on the wire (tests/daemon/test_mcp_direct.py compares
them). A failed call is answered here too, as the SDK answers it (run once, never asked
again): a protocol error (`MCPError`) as its JSON-RPC error with the SDK's HTTP status, any
other failure as an `isError` result, logged as the SDK's tools/call handler logs it.
Everything else goes to the SDK's app unchanged, with the body already read: other methods
and paths, handshake-era sessions, a progress token (progress needs the SDK's SSE stream),
Mcp-Param headers, and a body that is not a plain request.
A call still running after `PING_AFTER_S` switches to the SDK's event stream with its
keep-alive comments, and a client that goes away cancels it, as the SDK does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator, Mapping
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.runner import modern_error_data
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import (
    ERROR_CODE_HTTP_STATUS,
    InboundModernRoute,
    classify_inbound_request,
    find_duplicated_routing_header,
)
from mcp_types import CallToolResult, JSONRPCError, TextContent
from mcp_types import methods as _methods
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lspd.tools.arguments import BOUNDED
from lspd.tools.hints import CALLER

log = logging.getLogger(__name__)
log.addFilter(BOUNDED)  # a failure is logged as the SDK logs it: the caller's text cut short

PATH = "/mcp"
METHOD = "tools/call"
PING_AFTER_S = 15.0  # the SDK's `_SSE_PING_INTERVAL`: a silent call commits the event stream
WATCH_AFTER_S = 1.0  # a call running this long is cancelled when its client goes away
_VERSIONS = frozenset(v.encode() for v in MODERN_PROTOCOL_VERSIONS)
_SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"connection", b"keep-alive"),
    (b"x-accel-buffering", b"no"),
]
_PING = b": ping\r\n\r\n"  # the SDK's keep-alive comment
# What MCPServer installs itself (OpenTelemetry, request state); a test checks the SDK's list.
_SDK_MIDDLEWARE = 2
_ENVELOPE = frozenset({"jsonrpc", "id", "method", "params"})
_PARAMS = frozenset({"name", "arguments", "_meta"})


class Direct:
    """ASGI app: `/mcp`'s stateless tool calls answered directly, the rest by `app` (the SDK's
    routes); `max_body` as the SDK's `max_request_body_size` (a larger body goes to it)."""

    def __init__(self, app: ASGIApp, server: MCPServer[Any], max_body: int) -> None:
        self.app, self.server, self.max_body = app, server, max_body
        self.lowlevel = server._lowlevel_server  # its serverInfo stamp, cache hints, middleware
        self._tools: frozenset[str] | None = None  # those answered here (`_direct_tools`)
        self.answered: Counter[str] = Counter()  # the calls answered here, by tool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self._eligible(scope):
            await self.app(scope, receive, send)
            return
        if self._tools is None:
            self._tools = await self._direct_tools()
        body = await _body(receive)
        call = self._call_of(scope, body, self._tools)
        if call is None:
            await self.app(scope, _replay(body, receive), send)
        else:
            await self._answer(scope, receive, send, *call)

    async def _direct_tools(self) -> frozenset[str]:
        """The tools a direct answer matches the SDK's for: none when a cache hint shapes
        tools/call results or a middleware of lspd's own wraps calls; not those whose input
        schema declares an Mcp-Param header (the SDK checks the headers against it)."""
        if METHOD in self.lowlevel.cache_hints or len(self.lowlevel.middleware) > _SDK_MIDDLEWARE:
            return frozenset()
        tools = await self.server.list_tools()
        return frozenset(t.name for t in tools if "x-mcp-header" not in json.dumps(t.input_schema))

    def _eligible(self, scope: Scope) -> bool:
        """A modern tools/call POST to /mcp that accepts JSON and SSE, no Mcp-Param header,
        a body of a known size within the limit (headers only: the body is not read yet)."""
        if scope["method"] != "POST" or scope["path"] != PATH:
            return False
        seen: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            if name.startswith(b"mcp-param-"):
                return False
            seen.setdefault(name, value)  # the first, as Starlette's Headers.get
        length = seen.get(b"content-length", b"")
        return (
            seen.get(b"mcp-protocol-version") in _VERSIONS
            and seen.get(b"mcp-method") == METHOD.encode()
            and seen.get(b"content-type", b"").lower().startswith(b"application/json")
            and _accepts(seen.get(b"accept", b""))
            and length.isdigit()
            and int(length) <= self.max_body
        )

    def _call_of(
        self, scope: Scope, body: bytes, tools: frozenset[str]
    ) -> tuple[Any, str, dict[str, Any], str, InboundModernRoute] | None:
        """The request's id, tool, arguments, version and route when the SDK would dispatch
        it as is; None for anything it would answer otherwise."""
        try:
            decoded = json.loads(body)
        except (ValueError, RecursionError):
            return None
        if not isinstance(decoded, dict) or not _ENVELOPE.issuperset(decoded):
            return None
        request_id, params = decoded.get("id"), decoded.get("params")
        if (
            decoded.get("jsonrpc") != "2.0"
            or decoded.get("method") != METHOD
            or isinstance(request_id, bool)
            or not isinstance(request_id, int | str)
            or not isinstance(params, dict)
            or not _PARAMS.issuperset(params)
        ):
            return None
        name, arguments, meta = params.get("name"), params.get("arguments"), params.get("_meta")
        if (
            not isinstance(name, str)
            or not isinstance(arguments, dict | None)
            or not isinstance(meta, dict)
            or "progressToken" in meta
            or name not in tools
        ):
            return None
        raw = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]]
        if find_duplicated_routing_header(raw) is not None:
            return None
        route = classify_inbound_request(decoded, headers=dict(raw))
        if not isinstance(route, InboundModernRoute):
            return None
        try:
            _methods.validate_client_request(METHOD, route.protocol_version, params)
        except (ValidationError, KeyError, ValueError):
            return None
        return request_id, name, arguments or {}, route.protocol_version, route

    async def _answer(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        request_id: Any,
        name: str,
        arguments: dict[str, Any],
        version: str,
        route: InboundModernRoute,
    ) -> None:
        """Run the tool once and send its answer, a failure as the SDK words it."""
        self.answered[name] += 1
        stream = _Stream(send, receive)
        token = CALLER.set(_agent(route.client_info))
        data: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        status = 200
        try:
            with stream.watching():
                result = await self.server.call_tool(name, arguments)
            data["result"] = self._result(version, result)
        except asyncio.CancelledError:
            if stream.gone:  # the client went away: nobody to answer
                return
            raise
        except MCPError as exc:  # a protocol error: the SDK's JSON-RPC error and HTTP status
            error = JSONRPCError(jsonrpc="2.0", id=request_id, error=modern_error_data(exc))
            data = error.model_dump(mode="json", by_alias=True, exclude_none=True)
            status = ERROR_CODE_HTTP_STATUS.get(error.error.code, 200)
        except Exception as exc:  # as the SDK's tools/call handler answers it
            _log_failure(name, exc)
            failed = CallToolResult(
                content=[TextContent(type="text", text=str(exc))], is_error=True
            )
            data["result"] = self._result(version, failed)
        finally:
            CALLER.reset(token)
        await stream.finish(json.dumps(data, separators=(",", ":")).encode(), status)

    def _result(self, version: str, result: Any) -> dict[str, Any]:
        """The result's wire form as the SDK's runner shapes it (`_serialize`)."""
        dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
        dumped = _methods.serialize_server_result(METHOD, version, dumped)
        if dumped.get("resultType") is None:
            dumped["resultType"] = "complete"
        meta = dumped.get("_meta")
        stamp = "io.modelcontextprotocol/serverInfo"
        if meta is None:
            dumped["_meta"] = {stamp: self.lowlevel.server_info_stamp}
        elif isinstance(meta, dict) and meta.get(stamp) is None:
            dumped["_meta"] = {**meta, stamp: self.lowlevel.server_info_stamp}
        return dumped


class _Stream:
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
        await self.send({"type": "http.response.start", "status": 200, "headers": _SSE_HEADERS})
        while True:
            await self.send({"type": "http.response.body", "body": _PING, "more_body": True})
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


def _log_failure(name: str, exc: Exception) -> None:
    """Log a failed call as the SDK's tools/call handler does (`_handle_call_tool`): a crash
    with its traceback; an anticipated failure at info, of rejected arguments only the fields
    (their values are the caller's data)."""
    if not isinstance(exc, ToolError) or isinstance(exc, UnexpectedToolError):
        log.exception("Tool %r raised an unexpected exception", name)
    elif isinstance(exc.__cause__, ValidationError):
        errors = exc.__cause__.errors()
        fields = sorted({".".join(str(part) for part in err["loc"]) for err in errors})
        log.info("Tool %r rejected arguments: %r", name, fields)
    else:
        log.info("Tool %r failed: %r", name, str(exc))  # %r: peer-supplied text on one line


def _accepts(accept: bytes) -> bool:
    """Whether an Accept header takes JSON and an event stream (the SDK's
    `check_accept_headers`: wildcards count)."""
    types = {t.split(b";")[0].strip().lower() for t in accept.split(b",")}
    wildcard = b"*/*" in types
    json_ok = wildcard or bool(types & {b"application/json", b"application/*"})
    return json_ok and (wildcard or bool(types & {b"text/event-stream", b"text/*"}))


def _agent(client_info: Any) -> str:
    """The agent session of a stateless call: its client's name (`tools.hints.agent_of`)."""
    name = client_info.get("name") if isinstance(client_info, Mapping) else None
    return f"client {name}" if isinstance(name, str) else "-"


async def _body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """`receive` giving the body already read first, then what the server sends."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed
