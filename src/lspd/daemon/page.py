"""The status page at `/` of the daemon's port: one HTML file of the package (its script
and styles inline, allowed by their hashes in the Content-Security-Policy, nothing loaded
from anywhere else), and the JSON it polls, GET /status/live.

The page itself holds no data, so it is served without the token (the Guard's Host and
Origin checks still apply); it asks for the token and sends it with each poll.

A poll is held until a server's state changes, at most `HOLD_S`: a restart can take less
than a poll's interval, and the page shows it still.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import re
import time
from importlib import resources

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from lspd.daemon.feedback import Feedback
from lspd.daemon.live import Live
from lspd.daemon.snapshot import server_states, snapshot
from lspd.workspace import Workspace

PAGE_PATH = "/"
LIVE_PATH = "/status/live"
HOLD_S = 0.75  # the longest a poll is held for a server's state to change
# Looked at, not waited on: a server's shown state changes in lsp/ (eight assignments of a
# session's `state`, its progress going idle, the pool's sessions) and by time alone (`busy`
# once a server has been silent `busy_after` s), with no signal up to the daemon; one look
# is a string of each session's state, while a page is open.
_LOOK_S = 0.05
_NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


@functools.cache
def page() -> tuple[bytes, str]:
    """The page's bytes and its Content-Security-Policy: only its own inline script and
    styles run (by their SHA-256), it may fetch from its own origin only."""
    html = (resources.files("lspd.daemon") / "page" / "status.html").read_text("utf-8")
    script = re.search(r"<script>(.*?)</script>", html, re.S)
    style = re.search(r"<style>(.*?)</style>", html, re.S)
    assert script is not None and style is not None, "status.html lost its script or style"
    policy = "; ".join(
        [
            "default-src 'self'",
            f"script-src {_hash(script.group(1))}",
            f"style-src {_hash(style.group(1))}",
            "img-src 'self' data:",
            "connect-src 'self'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )
    return html.encode("utf-8"), policy


def _hash(text: str) -> str:
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


def page_routes(ws: Workspace, live: Live, hooks: Feedback, token: bool) -> list[Route]:
    """GET / (the page) and GET /status/live (what it shows, as JSON)."""

    async def show(request: Request) -> Response:
        body, policy = page()
        headers = {**_NO_STORE, "Content-Security-Policy": policy, "Referrer-Policy": "no-referrer"}
        return Response(body, media_type="text/html; charset=utf-8", headers=headers)

    async def data(request: Request) -> Response:
        query = request.query_params
        try:
            since, after = float(query.get("since", "0")), int(query.get("after", "0"))
        except ValueError:
            since, after = 0.0, 0
        live.polled()  # the memory is sampled from now on, while the page looks
        await _held(ws, query.get("states"))
        now = snapshot(ws, live, hooks, token, since, after)
        return Response(now.model_dump_json(), media_type="application/json", headers=_NO_STORE)

    return [
        Route(PAGE_PATH, show, methods=["GET"]),
        Route(LIVE_PATH, data, methods=["GET"]),
    ]


async def _held(ws: Workspace, shown: str | None) -> None:
    """Wait while the servers' states are still the `shown` ones, at most `HOLD_S`."""
    if shown is None:  # the page's first poll, or one after an error: at once
        return
    until = time.monotonic() + HOLD_S
    while server_states(ws) == shown and time.monotonic() < until:
        await asyncio.sleep(_LOOK_S)
