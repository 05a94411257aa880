"""`lspd mcp`: the workspace's daemon as a stdio MCP server, for the clients that start
their servers themselves (editors, agents configured with a command, a Claude Code plugin).

A proxy of JSON-RPC messages, not a second MCP server: each line on stdin is POSTed to the
daemon's /mcp as it came, and what the daemon answers (a JSON body, or an event stream of
progress and log notifications ending with the response) goes to stdout a line each. The
tools, their schemas and answers are the daemon's own, and the bridge imports no MCP SDK
(a second of start) nor validates a message twice.

Both eras of the protocol pass: a 2026-07-28 request carries its version in `_meta` and
goes stateless, its routing headers copied from its body; a handshake-era client's
`initialize` opens an HTTP session whose id goes with each later message, and a GET stream
brings what the daemon sends outside any request.

When the daemon goes away (stopped, killed, restarted on another port), a message that
fails is sent again to whichever daemon serves the root now (found through the sentinel,
or started as `lspd serve --detach` starts one, or waited for when another bridge won
the race to start it), after the client's `initialize` was replayed there: the client
never sees the restart. The end of stdin ends the bridge (the
MCP stdio convention) once the answers still owed are written (`printf '...' | lspd mcp`
prints them), for at most `DRAIN_S`; the daemon stays for the other agents.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import IO, Any

import httpx

from lspd.daemon import client, finding, wire
from lspd.errors import DaemonError, LspdError

# A line of stdin may hold a whole file as `content` (the daemon takes up to 3 x its
# file size limit); asyncio's default limit is 64 KiB.
MAX_LINE = 64 << 20
# At the end of stdin, how long the answers still owed are waited for: as long as the CLI
# waits for a tool call. A signal or a closed stdout ends the bridge at once.
DRAIN_S = client.CALL_TIMEOUT_S
# How long a daemon another process is starting is waited for, when this one's start failed.
RACE_S = 10.0


class Daemon:
    """The daemon serving the root, found through its sentinel or started when none runs."""

    def __init__(self, root: Path, *, token: bool = False, restricted: bool | None = None):
        self.root = root
        self.token = token
        self.restricted = restricted
        self.found: finding.Probe | None = None
        self._lock = asyncio.Lock()

    async def get(self) -> finding.Probe:
        """The daemon to send to; found (or started) again after `lost`."""
        if self.found is None:
            async with self._lock:
                if self.found is None:
                    self.found = await asyncio.to_thread(self._find_or_start)
        return self.found

    def lost(self, found: finding.Probe) -> None:
        """`found` did not answer: the next `get` looks again."""
        if self.found is found:
            self.found = None

    def _find_or_start(self) -> finding.Probe:
        found = finding.enclosing_daemon(self.root)
        if found is not None:
            return found
        from lspd.daemon.instance import spawn_detached  # only to start one: `run`'s imports
        from lspd.daemon.run import Options

        try:
            spawn_detached(Options(self.root, token=self.token, restricted=self.restricted))
        except DaemonError:
            # Two bridges (or a bridge and a `serve`) started one at once: the loser's
            # `serve` exits non-zero, the winner's daemon answers a moment later.
            found = _answering(self.root, RACE_S)
            if found is None:
                raise
            return found
        found = _answering(self.root, RACE_S)
        if found is None:
            raise DaemonError(finding.probe(self.root).reason)
        return found


def _answering(root: Path, within: float) -> finding.Probe | None:
    """The daemon of `root` once it answers, waited for `within` seconds."""
    deadline = time.monotonic() + within
    while (found := finding.find_daemon(root)) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


class Session:
    """A handshake-era client's HTTP session: its `initialize` (replayed on another daemon),
    the id and protocol version the daemon gave it, and which daemon that was."""

    def __init__(self, initialize: dict[str, Any]) -> None:
        self.initialize = initialize
        self.id: str | None = None
        self.version: str | None = None
        self.on: finding.Probe | None = None


class Gone(Exception):
    """The daemon does not know the session, or the token (it restarted on the same port)."""


class Bridge:
    """Messages from `stdin` to the daemon, and its answers to `out`."""

    def __init__(self, daemon: Daemon, out: IO[bytes]) -> None:
        self.daemon = daemon
        self.out = out
        self.http = httpx.AsyncClient(timeout=httpx.Timeout(None, connect=5.0), trust_env=False)
        self.session: Session | None = None
        self._handshake = asyncio.Lock()
        self._stream: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._modern: dict[Any, asyncio.Task[None]] = {}  # stateless requests in flight
        self._main: asyncio.Task[Any] | None = None

    async def run(self, stdin: IO[bytes]) -> None:
        """Forward each line of `stdin` until it ends."""
        self._main = asyncio.current_task()
        self._warming = self._spawn(self._warm())
        reader = await _reader(stdin)
        try:
            while line := await reader.readline():
                if line.strip():
                    self._receive(line)
            await self._drain()
        finally:
            await self.close()

    async def _drain(self) -> None:
        """The client said all it will: the messages it sent are answered (for at most
        `DRAIN_S`) before `close` cancels the rest (the GET stream never ends by itself)."""
        owed = [t for t in self._tasks if t not in (self._stream, self._warming)]
        if owed:
            await asyncio.wait(owed, timeout=DRAIN_S)

    def _receive(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError as exc:
            self.write(wire.error(None, f"not JSON: {exc}", wire.PARSE_ERROR))
            return
        if not isinstance(message, dict):  # a batch: the protocol has none since 2025-06-18
            self._spawn(self._send(message, None, legacy=True))
            return
        method = message.get("method")
        version = wire.modern_version(message)
        if method == "notifications/cancelled" and self._cancel(message):
            return
        if version is not None:
            task = self._spawn(self._send(message, version, legacy=False))
            if "id" in message:
                key = message["id"]
                self._modern[key] = task
                task.add_done_callback(lambda _done: self._modern.pop(key, None))
        elif method == "initialize":
            self._spawn(self._open(message))
        else:
            self._spawn(self._send(message, None, legacy=True))

    def _cancel(self, message: dict[str, Any]) -> bool:
        """A stateless request is cancelled by closing its stream (2026-07-28 has no
        client notifications); a session's cancellation goes to the daemon as it is."""
        params = message.get("params")
        task = self._modern.get(params.get("requestId")) if isinstance(params, dict) else None
        if task is None:
            return False
        task.cancel()
        return True

    async def _warm(self) -> None:
        """Find (or start) the daemon while the client starts, so `initialize` need not wait."""
        with contextlib.suppress(LspdError):
            await self.daemon.get()

    async def _open(self, message: dict[str, Any]) -> None:
        """The client's `initialize`: a new session on the daemon, its answer to the client."""
        async with self._handshake:
            self.session = Session(message)
            await self._send(message, None, legacy=True)

    async def _send(self, message: Any, version: str | None, *, legacy: bool) -> None:
        """POST `message`; once more to the daemon found next if this one is gone."""
        is_request = isinstance(message, dict) and "method" in message and "id" in message
        request_id = message.get("id") if is_request else None
        why: Exception | None = None
        for attempt in range(2):
            found: finding.Probe | None = None
            try:
                found = await self.daemon.get()
                headers = {"accept": wire.ACCEPT, "content-type": "application/json"}
                headers |= found.headers
                if legacy:
                    headers |= await self._session_on(found, message)
                elif version is not None:
                    headers |= wire.modern_headers(message, version)
                await self._post(found, message, headers, request_id, again=attempt == 0)
                return
            except (httpx.TransportError, Gone) as exc:
                why = exc
                if found is not None:
                    self.daemon.lost(found)
                if isinstance(exc, Gone) and self.session is not None:
                    self.session.on = None
            except LspdError as exc:  # no daemon could be found or started
                why = exc
                break
        if request_id is not None:
            text = f"{type(why).__name__}: {why}" if isinstance(why, httpx.HTTPError) else why
            self.write(
                wire.error(request_id, f"lspd mcp: the daemon of {self.daemon.root}: {text}")
            )

    async def _session_on(self, found: finding.Probe, message: Any) -> dict[str, str]:
        """The session headers for a message to `found`: the client's `initialize` replayed
        there first when the session lives on a daemon that is gone."""
        session = self.session
        is_initialize = isinstance(message, dict) and message.get("method") == "initialize"
        if session is None or is_initialize:
            return {}
        if session.on is not found:
            async with self._handshake:
                if session.on is not found and self.session is session:
                    await self._replay(found, session)
        return wire.session_headers(session.id, session.version)

    async def _replay(self, found: finding.Probe, session: Session) -> None:
        """Open the session again on `found`: `initialize` (its answer is the client's
        already) and `notifications/initialized`."""
        session.on = None
        headers = {"accept": wire.ACCEPT, "content-type": "application/json", **found.headers}
        await self._post(
            found, session.initialize, headers, session.initialize.get("id"), quiet=True
        )
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        headers |= wire.session_headers(session.id, session.version)
        await self._post(found, initialized, headers, None)

    async def _post(
        self,
        found: finding.Probe,
        message: Any,
        headers: dict[str, str],
        request_id: Any,
        *,
        quiet: bool = False,
        again: bool = False,
    ) -> None:
        """One POST; what the daemon answers goes to the client (not when `quiet`). The
        answer to `initialize` makes the session. A session the daemon does not know, or
        (`again`: a refusal of the token may be a new daemon's) a token, raises `Gone`."""
        body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
        initialize = isinstance(message, dict) and message.get("method") == "initialize"
        answers: list[bytes] = []
        async with self.http.stream("POST", found.url, content=body, headers=headers) as reply:
            if reply.status_code == 404 and wire.SESSION_HEADER in headers:
                raise Gone(reply.status_code)
            if reply.status_code == 401 and again:
                raise Gone(reply.status_code)
            if reply.status_code == 202:
                return
            if reply.headers.get("content-type", "").startswith("text/event-stream"):
                async for data in wire.events(reply.aiter_lines()):
                    if initialize or quiet:
                        answers.append(data)
                    else:
                        self.write(wire.one_line(data))
            else:
                data = await reply.aread()
                if reply.status_code >= 400 and request_id is not None:
                    answers.append(wire.refusal(request_id, reply.status_code, data))
                elif data.strip():
                    answers.append(data)
        if initialize:
            self._opened(found, reply.headers.get(wire.SESSION_HEADER), answers, request_id)
        if not quiet:
            for data in answers:
                self.write(wire.one_line(data))

    def _opened(
        self, found: finding.Probe, session_id: str | None, answers: list[bytes], request_id: Any
    ) -> None:
        """The daemon answered `initialize`: the session's id and version, and its stream
        of messages sent outside any request."""
        session = self.session
        result = next((r for a in answers if (r := wire.result_of(a, request_id))), None)
        if session is None or result is None:
            return
        session.id = session_id
        session.version = str(result.get("protocolVersion") or "") or None
        session.on = found
        if self._stream is not None:
            self._stream.cancel()
        if session_id:
            self._stream = self._spawn(self._listen(found, session))

    async def _listen(self, found: finding.Probe, session: Session) -> None:
        """The session's GET stream: the daemon's own notifications and requests. It ends
        with the daemon; the session's next message opens it again with a new one."""
        headers = {"accept": "text/event-stream", **found.headers}
        headers |= wire.session_headers(session.id, session.version)
        with contextlib.suppress(httpx.HTTPError):
            async with self.http.stream("GET", found.url, headers=headers) as reply:
                if reply.status_code == 200:
                    async for data in wire.events(reply.aiter_lines()):
                        self.write(wire.one_line(data))

    def write(self, line: bytes) -> None:
        """One message to the client; a client gone (closed pipe) ends the bridge."""
        try:
            self.out.write(line)
            self.out.flush()
        except (BrokenPipeError, ValueError):
            if self._main is not None:
                self._main.cancel()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        """Stop what is in flight and end the session on the daemon (it stays up)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        session = self.session
        if session is not None and session.id and session.on is not None:
            headers = {**session.on.headers, **wire.session_headers(session.id, session.version)}
            with contextlib.suppress(httpx.HTTPError):
                await self.http.delete(session.on.url, headers=headers, timeout=1.0)
        await self.http.aclose()


async def _reader(stdin: IO[bytes]) -> asyncio.StreamReader:
    """stdin as an asyncio stream: a pipe directly, anything else (a file) through a thread."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
    except ValueError:  # a regular file: not a pipe, socket or character device

        def pump() -> None:
            for line in stdin:
                loop.call_soon_threadsafe(reader.feed_data, line)
            loop.call_soon_threadsafe(reader.feed_eof)

        loop.run_in_executor(None, pump)
    return reader


def serve_stdio(daemon: Daemon) -> int:
    """Bridge this process's stdin and stdout to the daemon until stdin ends (or SIGTERM)."""
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the protocol's stream

    async def main() -> None:
        bridge = Bridge(daemon, out)
        running = asyncio.get_running_loop().create_task(bridge.run(sys.stdin.buffer))
        stop: Callable[[], bool] = running.cancel
        for signum in (signal.SIGTERM, signal.SIGHUP):
            asyncio.get_running_loop().add_signal_handler(signum, stop)
        with contextlib.suppress(asyncio.CancelledError):
            await running

    asyncio.run(main())
    return 0
