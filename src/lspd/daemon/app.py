"""The ASGI app: the MCP SDK's streamable-HTTP app at `/mcp`, the daemon's own routes
(`own_routes`: /health, /check, /check/progress, /hook, and the status page's / and
/status/live), and the guard in front of every route (`lspd.daemon.guard`).

`build_app` is the whole app; the daemon itself serves `inner_app` behind the guard and
`lspd.daemon.early`, which answers the first requests while this app is built.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.types import ASGIApp

from lspd.daemon.client import ERRORS_HEADER, UNANSWERED_HEADER
from lspd.daemon.early import MAX_BODY, health
from lspd.daemon.early_hooks import answered
from lspd.daemon.feedback import Feedback
from lspd.daemon.guard import (  # noqa: F401  (the guard's names, as they were)
    LOOPBACK_NAMES,
    Guard,
    is_loopback_host,
    is_loopback_origin,
)
from lspd.daemon.live import Live
from lspd.daemon.mcp_direct import Direct
from lspd.daemon.page import page_routes
from lspd.daemon.server import UVICORN_OPTIONS  # noqa: F401  (bench/mcp.py reads it here)
from lspd.errors import LspdError, kind_of
from lspd.ops.check import check_all, running
from lspd.ops.check_models import not_answered
from lspd.workspace import Workspace

STREAM_BYTES = 1 << 20  # an answer's piece sent at once (`_streamed`)

# Room for the largest file `diagnostics` accepts as `content` (escaped as JSON), so the tool
# answers an oversized one with its own message; beyond this the SDK answers 413.
MAX_REQUEST_BYTES = MAX_BODY  # (early.py: the first answers take the same)

Lifespan = Callable[[], AbstractAsyncContextManager[None]]


class _Own:
    """The daemon's own routes, beside MCP's tools: what the CLI and the agents' hooks ask
    that is no tool (`own_routes` lists them)."""

    def __init__(self, ws: Workspace, options: dict[str, Any], hooks: Feedback, live: Live) -> None:
        self.ws, self.options, self.hooks, self.live = ws, options, hooks, live

    async def health(self, request: Request) -> Response:
        """The `status` tool's answer and what the daemon was started with (`options`), so a
        second `serve` can compare."""
        return health(self.ws, self.options)

    async def check(self, request: Request) -> Response:
        """`lspd check`: the whole check at once (no model reads it: not pages sized for a
        context), its error count in a header."""
        paths = request.query_params.getlist("path") or None
        every = request.query_params.get("all") == "1"
        began = time.monotonic()
        # Counted as a tool call is, from before it waits for the gate: the daemon stops no
        # idle server meanwhile and the background HEAD check gives way to it.
        self.hooks.activity.in_flight += 1
        try:
            async with self.ws.gate.shared():
                checked = await check_all(self.ws, paths, all=every)
        except LspdError as exc:
            return JSONResponse({"error": str(exc), "kind": kind_of(exc)}, status_code=400)
        finally:
            self.hooks.activity.in_flight -= 1
        self.live.checked(checked, time.monotonic() - began)
        counts = {
            ERRORS_HEADER: str(sum(r.errors for r in checked.results)),
            UNANSWERED_HEADER: str(len(not_answered(checked.skipped))),
        }
        answer = _streamed(checked.json_chunks())
        return StreamingResponse(answer, media_type="application/json", headers=counts)

    async def check_progress(self, request: Request) -> Response:
        """How far the running check is: `lspd check` shows it while it waits for /check."""
        now = running(self.ws)
        if now is None:
            return JSONResponse({})
        elapsed = time.monotonic() - now.began
        return JSONResponse({"done": now.done, "total": now.total, "seconds": elapsed})

    async def hook(self, request: Request) -> Response:
        """`lspd hook`: an agent's edit or stop (`early_hooks.answered`)."""
        return await answered(self.hooks, request)


async def _streamed(chunks: Iterable[str]) -> AsyncIterator[bytes]:
    """`chunks` as UTF-8, about `STREAM_BYTES` at a time: a large check's answer (22 MB on
    SQLAlchemy) never whole in the daemon, and the loop free between pieces."""
    pending: list[str] = []
    size = 0
    for chunk in chunks:
        pending.append(chunk)
        size += len(chunk)
        if size >= STREAM_BYTES:
            yield "".join(pending).encode()
            pending, size = [], 0
            await asyncio.sleep(0)
    yield "".join(pending).encode()


def own_routes(
    ws: Workspace, options: dict[str, Any], hooks: Feedback, live: Live | None = None
) -> list[Route]:
    """The daemon's own surface, in one place: every route that is not the MCP tools of the
    table of operations (`lspd.surface.table`)."""
    live = live or Live(ws)
    own = _Own(ws, options, hooks, live)
    return [
        *page_routes(ws, live, hooks, bool(options.get("token"))),
        Route("/health", own.health, methods=["GET"]),
        Route("/check", own.check, methods=["GET"]),
        Route("/check/progress", own.check_progress, methods=["GET"]),
        Route("/hook", own.hook, methods=["POST"]),
    ]


def build_app(
    ws: Workspace,
    server: MCPServer[Any],
    *,
    token: str | None = None,
    lifespan: Lifespan | None = None,
    options: dict[str, Any] | None = None,
    feedback: Feedback | None = None,
    live: Live | None = None,
) -> ASGIApp:
    """The whole daemon app behind its guard (`inner_app`'s arguments)."""
    inner = inner_app(ws, server, lifespan=lifespan, options=options, feedback=feedback, live=live)
    return Guard(inner, token)


def inner_app(
    ws: Workspace,
    server: MCPServer[Any],
    *,
    lifespan: Lifespan | None = None,
    options: dict[str, Any] | None = None,
    feedback: Feedback | None = None,
    live: Live | None = None,
    kept: Callable[[dict[str, Any]], None] | None = None,
) -> Direct:
    """The daemon's routes and the SDK's, without the guard; `lifespan` runs inside the MCP
    session manager's lifetime; `feedback` answers the agents' hooks (POST /hook); `live`
    keeps what the status page shows (its `calls` must be the MCP server's); `kept` is told
    each envelope of a tool call answered directly (`lspd.daemon.kept_wire`)."""
    # Our Guard does the Host/Origin checks for every route; the SDK's copy would only
    # cover /mcp (and accepts less: no portless Host), so it is off to keep one rule.
    mcp_app = server.streamable_http_app(
        streamable_http_path="/mcp",
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=MAX_REQUEST_BYTES,
    )

    hooks = feedback or Feedback(ws)
    live = live or Live(ws)

    @contextlib.asynccontextmanager
    async def run(app: Starlette) -> AsyncIterator[None]:
        if threading.current_thread() is threading.main_thread():  # the daemon's own process
            # What is loaded by now (the SDK, pydantic's schemas: ~95k objects) lives as long
            # as the daemon: kept out of the collector, a full collection in the middle of a
            # call scans a quarter of what it did (measured: 14-24 ms instead of 70-80 ms).
            gc.freeze()
        sampler = asyncio.create_task(live.sample_memory())
        async with server.session_manager.run():
            try:
                if lifespan is None:
                    yield
                else:
                    async with lifespan():
                        yield
            finally:
                sampler.cancel()
                await hooks.close()

    app = Starlette(
        routes=[*own_routes(ws, options or {}, hooks, live), Mount("/", app=mcp_app)],
        lifespan=run,
    )
    # A stateless tool call is answered beside the SDK's app, the rest by it (mcp_direct).
    return Direct(app, server, MAX_REQUEST_BYTES, kept)
