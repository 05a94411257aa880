"""Running the daemon: uvicorn on the bound socket, the sentinel, signals and the lifecycle.

Order matters. The language servers start first (those the last run prewarmed even before
lspd's modules are imported: `head_start`, whose loop the daemon runs on, told once prewarm
has started its servers); then uvicorn serves the first answers
(`early`: no MCP SDK in them) and the sentinel is written once it accepts connections, so a
client that reads it can connect at once. The MCP SDK is imported and the whole app built in
a thread (`_load`: 0.8-1.1 s quiet, 3-4 s loaded, the tools' schemas), at once when a request
needs it, else after the first tool call answered without it or `LOAD_AFTER_S` after the
sentinel, and it then answers everything
(`Early.take_over`). The file watcher and the word scan start after the sentinel. On
SIGTERM, SIGINT or SIGHUP the sentinel goes first (no new client finds a dying daemon),
then the language servers are stopped. The work beside the answers (the watchdog, tidying,
the committed state kept, the agents told the URL) is `daemon/background.py`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lspd import sentinel
from lspd.daemon import background, binding, collector, head_start
from lspd.daemon.watchdog import Watchdog
from lspd.dirs import state_dir
from lspd.workspace import Workspace, prewarm

if TYPE_CHECKING:
    from lspd.daemon.early import Early
    from lspd.daemon.feedback import Feedback
    from lspd.daemon.live import Live
    from lspd.daemon.server import Server
    from lspd.lsp.session import Session
    from lspd.tools.hints import Told

log = logging.getLogger(__name__)

DEFAULT_IDLE_TIMEOUT_S = 1800.0
# The SDK's import waits this long after the sentinel unless a request needs it or a tool
# call was answered without it (`whole.load`).
LOAD_AFTER_S = 5.0


@dataclass
class Options:
    """How `lspd serve` was asked to run (its command-line options)."""

    root: Path
    port: int | None = None
    token: bool = False
    prewarm: bool = True
    # Seconds before an unused server is stopped; 0 or less: never. None: lspd.toml's
    # `idle_timeout`, else DEFAULT_IDLE_TIMEOUT_S.
    idle_timeout: float | None = None
    log_level: str = "info"
    # Agents whose configs get the URL after every bind (`--sync`); empty: none,
    # ("all",): every agent detected on this machine.
    sync_agents: tuple[str, ...] = ()
    # Run no code that came with the repository (None: the user-level default).
    restricted: bool | None = None


def idle_timeout(options: Options, ws: Workspace) -> float:
    """The command line's idle timeout, else the workspace's lspd.toml's, else the default."""
    for value in (options.idle_timeout, ws.config.idle_timeout):
        if value is not None:
            return value
    return DEFAULT_IDLE_TIMEOUT_S


def log_path(root: Path) -> Path:
    """The daemon's log file for the workspace."""
    return state_dir(root) / "daemon.log"


class Daemon:
    """One workspace's daemon; `serve` runs it until `stop` or a signal.

    The caller holds the instance lock. `ready` (a thread-safe event) is set once the
    sentinel names the listening port, so tests can run a daemon in a thread.
    """

    def __init__(
        self,
        options: Options,
        *,
        announce: Callable[[str], None] | None = None,
        farewell: Callable[[str], None] | None = None,
    ) -> None:
        self.options = options
        self.root = options.root.resolve()
        self.ready = threading.Event()
        self.port: int | None = None
        self.token: str | None = None
        self.started_at = time.monotonic()
        self._announce = announce
        self._farewell = farewell  # told why it stops: a terminal serving in the foreground
        self._server: Server | None = None
        self._early: Early | None = None
        self.built = threading.Event()  # the whole app (the MCP SDK's) answers
        self._listening = asyncio.Event()  # the sentinel is written (on the loop)
        self.live: Live | None = None
        self.told: Told | None = None
        self.started_with: dict[str, Any] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self.activity: Any = None
        self.ws: Workspace | None = None
        self.idle_timeout = DEFAULT_IDLE_TIMEOUT_S  # settled once lspd.toml is read

    @property
    def feedback(self) -> Feedback | None:
        """The agents' hook checks, once serving (`early_hooks`: from the first hook)."""
        return None if self._early is None else self._early.hooks.feedback()

    @property
    def url(self) -> str:
        assert self.port is not None, "the daemon is not listening yet"
        return binding.mcp_url(self.port)

    def stop(self) -> None:
        """Ask the daemon to shut down (from any thread)."""
        if self._server is not None:
            self._server.should_exit = True

    async def serve(self) -> None:
        # Reads lspd.toml: a bad one stops the daemon here.
        ws = Workspace(self.root, restricted=self.options.restricted)
        self.idle_timeout = idle_timeout(self.options, ws)
        ws.started = self.started_at
        self.ws = ws
        ws.will_watch()  # once the sentinel is written
        watchdog = Watchdog()  # before any server starts: none may outlive a killed daemon
        watchdog.start()
        self._tasks.append(asyncio.create_task(background.watch_servers(watchdog)))
        chosen, starts = self._start_prewarm(ws)
        sock = None
        try:
            # Their processes first: while a thread imports, each system call of the loop's
            # thread hands it the GIL for up to 5 ms (spawning took 0.2 s, not 15 ms).
            await prewarm.spawned(chosen, starts)
            head_start.settle(self.root, [s.pid for s in chosen if s.pid is not None])
            sock = binding.bind(self.root, self.options.port)
            # In a thread (lspd's operations, uvicorn: no SDK): the loop meanwhile reads the
            # servers' answers and sends `initialized`.
            self._server = await asyncio.to_thread(self._uvicorn, ws, sock)
            self._tasks.append(asyncio.create_task(self._load(ws)))
            await self._server.serve(sockets=[sock])
        finally:
            self._cleanup_files()
            if sock is not None:
                sock.close()
            await self._shut_down(ws, watchdog)  # idempotent; the lifespan may not have run
            log.info("daemon for %s stopped", self.root)

    def _start_prewarm(self, ws: Workspace) -> tuple[list[Session], list[asyncio.Task[None]]]:
        """Start the servers of the projects present (`--prewarm`), in the background."""
        if not self.options.prewarm:
            return [], []
        try:
            chosen = prewarm.sessions(ws)
        except Exception:  # served without prewarm rather than not at all
            log.exception("choosing the servers to prewarm failed")
            chosen = []
        starts = prewarm.start(ws, chosen)
        self._tasks += [*starts, asyncio.create_task(background.prewarmed(ws, starts))]
        return chosen, starts

    def _uvicorn(self, ws: Workspace, sock: socket.socket) -> Server:
        """uvicorn serving the first answers on `sock` (its port named in the sentinel),
        then the whole app (`_load`)."""
        import uvicorn

        from lspd.daemon.early import first_answers
        from lspd.daemon.guard import Guard
        from lspd.daemon.live import Live
        from lspd.daemon.server import UVICORN_OPTIONS, Server
        from lspd.tools.calls import Activity
        from lspd.tools.hints import Told

        self.port = sock.getsockname()[1]
        if self.options.token:
            self.token = sentinel.new_token(self.root)
        else:
            sentinel.remove_token(self.root)  # a stale one would only mislead clients
        self.activity = Activity()
        self.live = Live(ws)  # the status page's: the tool calls, memory over the last hour
        self.told = Told()  # the environment hint: in full once per agent session
        self.started_with = {
            "token": self.token is not None,
            "port": self.port,
            "idle_timeout": self.idle_timeout,
            "restricted": ws.restricted,
        }
        self._early = first_answers(
            ws, self.activity, self.live, self.told, self.started_with, self._lifespan
        )
        config = uvicorn.Config(
            Guard(self._early, self.token),
            log_config=None,
            lifespan="on",
            timeout_graceful_shutdown=1,  # open SSE streams of handshake clients end here
            access_log=self.options.log_level == "debug",
            **UVICORN_OPTIONS,
        )
        return Server(config, self._on_ready, self._cleanup_files)

    async def _load(self, ws: Workspace) -> None:
        """Import the MCP SDK and build the whole app in a thread (once a request needs it,
        or `LOAD_AFTER_S` after the sentinel), then hand it every request."""
        from lspd.daemon import whole

        early = self._early
        assert early is not None
        assert self.live is not None and self.told is not None
        build = functools.partial(
            whole.build, ws, self.activity, self.live, self.told, self.started_with, early
        )
        try:
            await whole.load(early, build, self._listening, LOAD_AFTER_S, self.started_at)
        except Exception:
            log.exception("the MCP app could not be built: the daemon stops")
            self.stop()
            return
        self.built.set()

    def _on_ready(self) -> None:
        assert self.port is not None
        sentinel.write_port(self.root, self.port)
        binding.remember_port(self.root, self.port)
        log.info(
            "serving %s at %s (pid %d) %.2f s after the start",
            self.root,
            self.url,
            os.getpid(),
            time.monotonic() - self.started_at,
        )
        self.ready.set()
        self._listening.set()
        if self.ws is not None:  # the watcher and the word scan: never before the sentinel
            loop = asyncio.get_running_loop()
            self._tasks.append(loop.create_task(background.watch_files(self.ws)))
            self._tasks.append(loop.create_task(background.keep(self.ws, self.activity)))
        if self._announce is not None:
            self._announce(self.url)
        if self.options.sync_agents:
            asyncio.get_running_loop().run_in_executor(
                None, background.tell_agents, self.root, self.url, self.options.sync_agents
            )

    def _cleanup_files(self) -> None:
        if self.port is not None:
            sentinel.remove_port(self.root, self.port)
        if self.token is not None:
            sentinel.remove_token(self.root, self.token)
        sentinel.remove_created_dir(self.root)  # what lspd created goes with it

    @contextlib.asynccontextmanager
    async def _lifespan(self) -> AsyncIterator[None]:
        assert self.ws is not None
        tidying = background.tidy_when_due(self.ws, self.idle_timeout, self.activity)
        self._tasks.append(asyncio.create_task(tidying))
        idle = collector.sweep_when_idle(functools.partial(background.busy, self.activity, self.ws))
        self._tasks.append(asyncio.create_task(idle))  # acts only where `install`ed
        try:
            yield
        finally:
            self._cleanup_files()
            # Said only once it served: a start that failed (no sentinel) says why itself.
            if self._farewell is not None and self.ready.is_set():
                signalled = self._server.signalled if self._server is not None else None
                self._farewell(signalled or "asked to stop")
            await self._shut_down(self.ws)

    async def _shut_down(self, ws: Workspace, watchdog: Watchdog | None = None) -> None:
        """Stop the background work and the servers (again: a no-op)."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await ws.close()
        if watchdog is not None:
            watchdog.stop()


def configure_logging(root: Path, level: str) -> Path:
    """Log to a file under the state directory (the terminal may be long gone)."""
    path = log_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    )
    root_logger = logging.getLogger()
    for old in list(root_logger.handlers):
        root_logger.removeHandler(old)
    root_logger.addHandler(handler)
    root_logger.setLevel(level.upper())
    return path


def run(
    options: Options,
    announce: Callable[[str], None] | None = None,
    farewell: Callable[[str], None] | None = None,
) -> None:
    """Run the daemon in this process until a signal (the caller holds the lock)."""
    daemon = Daemon(options, announce=announce, farewell=farewell)
    collector.install()  # this process is the daemon's: its collections may freeze
    with head_start.runner() as runner:  # the loop its servers may have started on
        runner.run(daemon.serve())
