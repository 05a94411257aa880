"""The daemon's first answers, before the MCP SDK is imported (issue 43: the cold start).

Importing the SDK took 0.8-1.1 s quiet and 2.7-4.5 s on this loaded machine, most of a cold
start. `Early` is served (behind the guard) as soon as the socket is bound; the SDK is
imported and the whole app built meanwhile, and once it is up (`take_over`) every request
goes to it. Before that, `Early` answers what it can with the SDK's own bytes:
- `server/discover` and `tools/list`: the SDK's answer to the same request in an earlier
  run, under the same key (`kept_wire`); only the id is the request's;
- a stateless `tools/call` (`early_calls`) whose envelope the SDK took before, of a tool
  whose arguments are the plain JSON values the SDK would pass on unchanged and pass
  lspd's own checks; the result shaped around the SDK's kept one;
- `GET /health` (no SDK in it);
- `POST /hook`, the agents' hooks (`early_hooks`).
Anything else waits for the SDK's app and goes to it (and asks for the SDK at once), as does
a call that failed: the SDK runs it again and words the failure its way.

Once the SDK is up, the copy is made anew: its answers to discover and tools/list as it
sends them, each envelope it took, its tools/call shape and the tools' input schemas.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lspd.daemon import kept_wire
from lspd.daemon.early_calls import EarlyCalls
from lspd.daemon.early_hooks import EarlyHooks, is_hook
from lspd.daemon.kept_wire import KEPT_METHODS, KeptWire, fingerprint
from lspd.daemon.live import Live
from lspd.daemon.mcp_stream import accepts, read_body, replay
from lspd.ops.state import status
from lspd.tools.calls import Activity
from lspd.tools.hints import Told
from lspd.workspace import Workspace
from lspd.workspace.files import MAX_FILE_BYTES

log = logging.getLogger(__name__)

PATH = "/mcp"
# Room for the largest file `diagnostics` accepts as `content` (escaped as JSON): the SDK's
# `max_request_body_size` (app.MAX_REQUEST_BYTES); beyond it the SDK answers 413.
MAX_BODY = 3 * MAX_FILE_BYTES
SAVE_AFTER_S = 1.0  # what was added to the copy is written this long after (once)


def first_answers(
    ws: Workspace,
    activity: Activity,
    live: Live,
    told: Told,
    options: dict[str, Any],
    lifespan: Callable[[], AbstractAsyncContextManager[None]],
) -> Early:
    """The first answers of a daemon, from the copy kept under this code's key."""
    kept = kept_wire.load(kept_wire.wire_key())
    calls = EarlyCalls(ws, kept.results, kept.schemas, activity, live.calls, told)
    return Early(ws, kept, calls, options, lifespan, MAX_BODY)


def health(ws: Workspace, options: dict[str, Any]) -> Response:
    """GET /health: the `status` tool's answer and what the daemon was started with
    (`options`), so a second `serve` can compare."""
    answer = status(ws).model_dump(mode="json")
    return JSONResponse({**answer, "options": options})


class Whole(Protocol):
    """The whole app once built (`mcp_direct.Direct`): what `Early` needs of it."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...

    def kept_results(self) -> dict[str, Any]: ...

    async def kept_schemas(self) -> dict[str, Any]: ...


class Early:
    """ASGI app: the first answers (module docstring), then the whole app (`take_over`).

    `lifespan` is the daemon's own, run from uvicorn's start; `wanted` is set when a request
    waits for the SDK (the daemon then builds it at once), `called` once a tool call was
    answered here."""

    def __init__(
        self,
        ws: Workspace,
        kept: KeptWire,
        calls: EarlyCalls,
        options: dict[str, Any],
        lifespan: Callable[[], AbstractAsyncContextManager[None]],
        max_body: int,
    ) -> None:
        self.ws, self.kept, self.calls, self.options = ws, kept, calls, options
        self.hooks = EarlyHooks(ws, calls.activity)
        self.lifespan, self.max_body = lifespan, max_body
        self.app: Whole | None = None
        self.ready = asyncio.Event()
        self.wanted = asyncio.Event()
        self.called = asyncio.Event()  # a tool call was answered here
        self.answered: dict[str, int] = {}  # the requests answered here, by method
        self._inner: _Lifespan | None = None
        self._saving: asyncio.TimerHandle | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        method = self._method(scope) if scope["type"] == "http" else None
        if self.app is not None and method not in KEPT_METHODS:
            await self.app(scope, receive, send)
            return
        if self.app is None and scope["type"] == "http" and _is_health(scope):
            await health(self.ws, self.options)(scope, receive, send)
            return
        if self.app is None and is_hook(scope):  # no SDK in it: `early_hooks`
            await self.hooks(scope, receive, send)
            return
        if method is None:
            await self._forward(scope, receive, send)
            return
        body = await read_body(receive)
        if self.app is None and await self._answer(scope, body, method, send, receive):
            return
        await self._forward(
            scope, replay(body, receive), send, body if method in KEPT_METHODS else None
        )

    def _method(self, scope: Scope) -> str | None:
        """The MCP method of a POST to /mcp that may be answered or kept here (its headers:
        JSON and an event stream accepted, a body of a known size within the limit)."""
        if scope["method"] != "POST" or scope["path"] != PATH:
            return None
        seen: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            if name.startswith(b"mcp-param-") or name in seen:
                return None  # routing headers twice, or Mcp-Param ones: the SDK's to judge
            seen[name] = value
        method = seen.get(b"mcp-method", b"").decode("latin-1")
        length = seen.get(b"content-length", b"")
        plain = (
            (method in KEPT_METHODS or method == "tools/call")
            and seen.get(b"content-type", b"").lower().startswith(b"application/json")
            and accepts(seen.get(b"accept", b""))
            and length.isdigit()
            and int(length) <= self.max_body
            and b"mcp-session-id" not in seen
        )
        return method if plain else None

    async def _answer(
        self, scope: Scope, body: bytes, method: str, send: Send, receive: Receive
    ) -> bool:
        """Answer from the kept copy or run the call here; False when the SDK must."""
        request = _request(body, method)
        if request is None:
            return False
        request_id, params = request
        version = _header(scope, b"mcp-protocol-version")
        meta = params.get("_meta")
        if (
            version is None
            or not isinstance(meta, dict)
            or meta.get("io.modelcontextprotocol/protocolVersion") != version
            or kept_wire.envelope_of(meta) not in self.kept.envelopes
        ):
            return False
        if method in KEPT_METHODS:
            kept = self.kept.answers.get(fingerprint(method, version, params))
            if kept is None:
                return False
            answer = kept.body(request_id)
            headers = [(b"content-length", str(len(answer)).encode()), *kept.headers]
            await send({"type": "http.response.start", "status": kept.status, "headers": headers})
            await send({"type": "http.response.body", "body": answer, "more_body": False})
        elif not await self.calls.answer(
            request_id, params, version, _header(scope, b"mcp-name"), send, receive
        ):
            return False
        self.answered[method] = self.answered.get(method, 0) + 1
        if method == "tools/call":
            self.called.set()
        return True

    async def _forward(
        self, scope: Scope, receive: Receive, send: Send, kept_body: bytes | None = None
    ) -> None:
        """To the whole app, once it is up (asked for now); a discover or tools/list answer
        is kept as it is sent (`kept_body`: its request)."""
        if self.app is None:
            self.wanted.set()
            await self.ready.wait()
        assert self.app is not None
        if kept_body is not None:
            send = self._keeping(scope, kept_body, send)
        await self.app(scope, receive, send)

    def _keeping(self, scope: Scope, body: bytes, send: Send) -> Send:
        """`send`, keeping the SDK's answer to a discover or tools/list request it answers
        in one JSON body (not an error)."""
        method = _header(scope, b"mcp-method") or ""
        request = _request(body, method)
        version = _header(scope, b"mcp-protocol-version")
        if request is None or version is None:
            return send
        request_id, params = request
        key = fingerprint(method, version, params)
        if key in self.kept.answers:
            return send
        start: dict[str, Any] = {}

        async def keeping(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                self._keep_answer(key, request_id, params, start, message.get("body", b""))
            await send(message)

        return keeping

    def _keep_answer(
        self, key: str, request_id: int, params: dict[str, Any], start: dict[str, Any], body: bytes
    ) -> None:
        headers = dict(start.get("headers", []))
        if start.get("status") != 200 or headers.get(b"content-type") != b"application/json":
            return
        try:
            answer = json.loads(body)
        except ValueError:
            return
        if not isinstance(answer, dict) or "result" not in answer or answer.get("id") != request_id:
            return
        self.kept.keep_answer(key, request_id, 200, list(start["headers"]), body)
        if self.kept.keep_schemas(answer["result"]):
            self._save_soon()
        if isinstance(params.get("_meta"), dict):
            self.keep_envelope(params["_meta"])

    def keep_envelope(self, meta: Any) -> None:
        """An envelope the SDK took (its checks passed): kept, written soon."""
        self.kept.keep_envelope(meta)
        self._save_soon()

    def _save_soon(self) -> None:
        if not self.kept.changed or self._saving is not None:
            return
        loop = asyncio.get_running_loop()

        def save() -> None:  # the text made here, on the loop that changes the copy
            self._saving = None
            text, self.kept.changed = self.kept.dumps(), False
            loop.run_in_executor(None, kept_wire.write, self.kept.key, text)

        self._saving = loop.call_later(SAVE_AFTER_S, save)

    async def take_over(self, app: Whole) -> None:
        """The whole app answers from now on: its lifespan started (the MCP session
        manager), the copy's SDK-made parts made anew."""
        results = app.kept_results()
        if results != self.kept.results:
            self.kept.results, self.kept.changed = results, True
        self._inner = _Lifespan(app)
        await self._inner.start()
        self.app = app
        self.ready.set()
        self._save_soon()

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """uvicorn's lifespan: the daemon's own from the start; the whole app's too, from
        `take_over` (ended first)."""
        await receive()  # lifespan.startup
        async with contextlib.AsyncExitStack() as stack:
            try:
                await stack.enter_async_context(self.lifespan())
            except Exception as exc:
                await send({"type": "lifespan.startup.failed", "message": repr(exc)})
                raise
            await send({"type": "lifespan.startup.complete"})
            await receive()  # lifespan.shutdown
            if self.app is not None and not self.kept.schemas:  # no client listed them
                self.kept.schemas, self.kept.changed = await self.app.kept_schemas(), True
            if self._inner is not None:
                await self._inner.stop()
        if self._saving is not None:
            self._saving.cancel()
            self._saving = None
        if self.kept.changed:
            kept_wire.save(self.kept)
        await send({"type": "lifespan.shutdown.complete"})


class _Lifespan:
    """An ASGI app's lifespan run beside uvicorn's (started and stopped by `Early`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.started = asyncio.Event()
        self.failed: str | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}, "state": {}}
        self.inbox.put_nowait({"type": "lifespan.startup"})
        self.task = asyncio.create_task(self._run(scope))
        done = asyncio.create_task(self.started.wait())
        await asyncio.wait([self.task, done], return_when=asyncio.FIRST_COMPLETED)
        done.cancel()
        if self.failed is not None or not self.started.is_set():
            raise RuntimeError(f"the MCP app did not start: {self.failed or 'it returned'}")

    async def _run(self, scope: Scope) -> None:
        await self.app(scope, self.inbox.get, self._sent)

    async def _sent(self, message: Message) -> None:
        if message["type"] == "lifespan.startup.failed":
            self.failed = str(message.get("message", ""))
        if message["type"] in ("lifespan.startup.complete", "lifespan.startup.failed"):
            self.started.set()

    async def stop(self) -> None:
        if self.task is None:
            return
        self.inbox.put_nowait({"type": "lifespan.shutdown"})
        with contextlib.suppress(Exception):
            await self.task


def _is_health(scope: Scope) -> bool:
    return bool(scope["path"] == "/health" and scope["method"] == "GET")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _request(body: bytes, method: str) -> tuple[int, dict[str, Any]] | None:
    """A plain JSON-RPC request for `method`: its integer id and its params; else None."""
    try:
        decoded = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(decoded, dict) or set(decoded) != {"jsonrpc", "id", "method", "params"}:
        return None
    request_id, params = decoded["id"], decoded["params"]
    if (
        decoded["jsonrpc"] != "2.0"
        or decoded["method"] != method
        or type(request_id) is not int
        or not isinstance(params, dict)
    ):
        return None
    return request_id, params
