"""The guard in front of every route of the daemon (not only `/mcp`): a browser page must
not reach the daemon through DNS rebinding (Host check, 421) nor cross-origin (Origin check,
403), and in token mode nothing answers without `Authorization: Bearer <token>` (401) but
the status page's HTML, which holds no data (it asks for the token). It imports no MCP SDK:
it guards the first answers too (`lspd.daemon.early`).
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from lspd.daemon.page import PAGE_PATH

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


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
