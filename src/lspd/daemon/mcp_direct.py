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
A call still running after `mcp_stream.PING_AFTER_S` switches to the SDK's event stream with
its keep-alive comments, and a client that goes away cancels it, as the SDK does
(`mcp_stream`). Each envelope (`_meta`) the SDK's checks let through here is told to `kept`:
the calls answered before the SDK is imported take only envelopes it took (`early`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import Callable, Mapping
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
from starlette.types import ASGIApp, Receive, Scope, Send

from lspd.daemon.kept_wire import MARK
from lspd.daemon.mcp_stream import Stream, accepts, read_body, replay
from lspd.tools.arguments import BOUNDED
from lspd.tools.hints import CALLER

log = logging.getLogger(__name__)
log.addFilter(BOUNDED)  # a failure is logged as the SDK logs it: the caller's text cut short

PATH = "/mcp"
METHOD = "tools/call"
_VERSIONS = frozenset(v.encode() for v in MODERN_PROTOCOL_VERSIONS)
# What MCPServer installs itself (OpenTelemetry, request state); a test checks the SDK's list.
_SDK_MIDDLEWARE = 2
_ENVELOPE = frozenset({"jsonrpc", "id", "method", "params"})
_PARAMS = frozenset({"name", "arguments", "_meta"})


class Direct:
    """ASGI app: `/mcp`'s stateless tool calls answered directly, the rest by `app` (the SDK's
    routes); `max_body` as the SDK's `max_request_body_size` (a larger body goes to it)."""

    def __init__(
        self,
        app: ASGIApp,
        server: MCPServer[Any],
        max_body: int,
        kept: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.app, self.server, self.max_body, self.kept = app, server, max_body, kept
        self.lowlevel = server._lowlevel_server  # its serverInfo stamp, cache hints, middleware
        self._tools: frozenset[str] | None = None  # those answered here (`_direct_tools`)
        self.answered: Counter[str] = Counter()  # the calls answered here, by tool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self._eligible(scope):
            await self.app(scope, receive, send)
            return
        if self._tools is None:
            self._tools = await self._direct_tools()
        body = await read_body(receive)
        call = self._call_of(scope, body, self._tools)
        if call is None:
            await self.app(scope, replay(body, receive), send)
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
            and accepts(seen.get(b"accept", b""))
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
        if self.kept is not None:
            self.kept(meta)
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
        stream = Stream(send, receive)
        token = CALLER.set(_agent(route.client_info))
        data: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        status = 200
        try:
            with stream.watching():
                result = await self.server.call_tool(name, arguments)
            data["result"] = self.result_of(version, result)
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
            data["result"] = self.result_of(version, failed)
        finally:
            CALLER.reset(token)
        await stream.finish(json.dumps(data, separators=(",", ":")).encode(), status)

    def kept_results(self) -> dict[str, Any]:
        """Per protocol version, a tools/call result as shaped here around `MARK` (a text
        block and the structured content): what the first answers fill in before the SDK
        is imported (`lspd.daemon.kept_wire`)."""
        if METHOD in self.lowlevel.cache_hints or len(self.lowlevel.middleware) > _SDK_MIDDLEWARE:
            return {}  # no tool is answered here (`_direct_tools`)
        marked = CallToolResult(
            content=[TextContent(type="text", text=MARK)], structured_content={MARK: MARK}
        )
        return {version: self.result_of(version, marked) for version in MODERN_PROTOCOL_VERSIONS}

    async def kept_schemas(self) -> dict[str, Any]:
        """Each tool's input schema as listed, for the tools answered here (`_direct_tools`):
        asked at the daemon's stop only (`lspd.tools.arguments.LspdServer` keeps its list
        from the first time it is asked)."""
        direct = await self._direct_tools()  # not kept in `_tools`: tools may come still
        listed = await self.server.list_tools()
        return {t.name: t.input_schema for t in listed if t.name in direct}

    def result_of(self, version: str, result: Any) -> dict[str, Any]:
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


def _agent(client_info: Any) -> str:
    """The agent session of a stateless call: its client's name (`tools.hints.agent_of`)."""
    name = client_info.get("name") if isinstance(client_info, Mapping) else None
    return f"client {name}" if isinstance(name, str) else "-"
