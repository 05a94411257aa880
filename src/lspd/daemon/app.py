"""The ASGI app: the MCP SDK's streamable-HTTP app at `/mcp`, the daemon's own routes
(`own_routes`: /health, /check, /check/progress, /hook, and the status page's / and
/status/live), and a guard.

The guard runs before every route (not only `/mcp`): a browser page must not reach the
daemon through DNS rebinding (Host check, 421) nor cross-origin (Origin check, 403), and in
token mode nothing answers without `Authorization: Bearer <token>` (401) but the status
page's HTML, which holds no data (it asks for the token).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any
from urllib.parse import urlsplit

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from lspd.daemon.client import ERRORS_HEADER, UNANSWERED_HEADER
from lspd.daemon.feedback import Feedback
from lspd.daemon.live import Live
from lspd.daemon.mcp_direct import Direct
from lspd.daemon.page import PAGE_PATH, page_routes
from lspd.errors import LspdError, kind_of
from lspd.ops.check import check_all, running
from lspd.ops.check_models import not_answered
from lspd.ops.state import status
from lspd.workspace import Workspace
from lspd.workspace.files import MAX_FILE_BYTES

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})

# Room for the largest file `diagnostics` accepts as `content` (escaped as JSON), so the tool
# answers an oversized one with its own message; beyond this the SDK answers 413.
MAX_REQUEST_BYTES = 3 * MAX_FILE_BYTES

Lifespan = Callable[[], AbstractAsyncContextManager[None]]

# How uvicorn serves the app (bench/mcp.py serves the SDK alone the same way, to compare).
# httptools parses HTTP in C: measured ~0.1-0.2 ms less per call than h11 (pure Python).
# uvloop measured no better here (the loop is not where the time goes), so asyncio's loop.
UVICORN_OPTIONS: dict[str, Any] = {
    "http": "httptools",
    "loop": "asyncio",
    "ws": "none",
    "server_header": False,
}


def _host_name(host: str) -> str | None:
    """The name in a Host header (`name`, `name:port`, `[v6]:port`), or None if malformed."""
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return name
    name, colon, port = host.partition(":")
    if colon and not port.isdigit():
        return None
    return name


def is_loopback_host(host: str | None) -> bool:
    """Whether a Host header names this machine's loopback (any port): a DNS-rebound
    name does not."""
    if not host:
        return False
    name = _host_name(host.strip())
    return name is not None and name.lower() in LOOPBACK_NAMES


def is_loopback_origin(origin: str | None) -> bool:
    """An absent Origin (not a browser) is fine; a present one must be a loopback page."""
    if origin is None:
        return True
    try:
        parts = urlsplit(origin.strip())
        hostname = parts.hostname
        parts.port  # noqa: B018  (raises on a malformed port)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and hostname in LOOPBACK_NAMES


class Guard:
    """Refuse non-loopback Host (421) or Origin (403), and requests without the token (401)."""

    def __init__(self, app: ASGIApp, token: str | None = None) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode() if token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        public = scope["path"] == PAGE_PATH and scope.get("method") in ("GET", "HEAD")
        response = self.check(headers, public)
        if response is not None:
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def check(self, headers: Headers, public: bool = False) -> Response | None:
        """Why a request is refused, or None; `public`: the token is not needed."""
        if not is_loopback_host(headers.get("host")):
            return PlainTextResponse("Invalid Host header: lspd answers loopback only", 421)
        if not is_loopback_origin(headers.get("origin")):
            return PlainTextResponse("Invalid Origin header: lspd answers loopback only", 403)
        if self.expected is not None and not public:
            given = headers.get("authorization", "").encode()
            if not secrets.compare_digest(given, self.expected):
                return PlainTextResponse(
                    "Unauthorized: send 'Authorization: Bearer <token>' with the token from "
                    ".vscode/.mcp-token",
                    401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
        return None


class _Own:
    """The daemon's own routes, beside MCP's tools: what the CLI and the agents' hooks ask
    that is no tool (`own_routes` lists them)."""

    def __init__(self, ws: Workspace, options: dict[str, Any], hooks: Feedback, live: Live) -> None:
        self.ws, self.options, self.hooks, self.live = ws, options, hooks, live

    async def health(self, request: Request) -> Response:
        """The `status` tool's answer and what the daemon was started with (`options`), so a
        second `serve` can compare."""
        answer = status(self.ws).model_dump(mode="json")
        return JSONResponse({**answer, "options": self.options})

    async def check(self, request: Request) -> Response:
        """`lspd check`: the whole check at once (no model reads it: not pages sized for a
        context), its error count in a header."""
        paths = request.query_params.getlist("path") or None
        every = request.query_params.get("all") == "1"
        began = time.monotonic()
        try:
            async with self.ws.gate.shared():
                checked = await check_all(self.ws, paths, all=every)
        except LspdError as exc:
            return JSONResponse({"error": str(exc), "kind": kind_of(exc)}, status_code=400)
        self.live.checked(checked, time.monotonic() - began)
        counts = {
            ERRORS_HEADER: str(sum(r.errors for r in checked.results)),
            UNANSWERED_HEADER: str(len(not_answered(checked.skipped))),
        }
        return Response(checked.json_text(), media_type="application/json", headers=counts)

    async def check_progress(self, request: Request) -> Response:
        """How far the running check is: `lspd check` shows it while it waits for /check."""
        now = running(self.ws)
        if now is None:
            return JSONResponse({})
        elapsed = time.monotonic() - now.began
        return JSONResponse({"done": now.done, "total": now.total, "seconds": elapsed})

    async def hook(self, request: Request) -> Response:
        """`lspd hook`: an agent's edit or stop, answered within the budget it sends."""
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("the body is not a JSON object")
            return JSONResponse(await self.hooks.answer(body))
        except (ValueError, TypeError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)


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
    """The whole daemon app; `lifespan` runs inside the MCP session manager's lifetime;
    `feedback` answers the agents' hooks (POST /hook); `live` keeps what the status page
    shows (its `calls` must be the MCP server's)."""
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
    return Guard(Direct(app, server, MAX_REQUEST_BYTES), token)
