"""Running the daemon: uvicorn on the bound socket, the sentinel, signals and the lifecycle.

Order matters. The language servers start first, and the MCP SDK is imported in a thread
meanwhile (0.3-0.5 s each, on two cores), then the app is built there too (the tools'
schemas): a cold answer waits for the server, which needs nothing of the SDK, and the
loop stays free to hand the servers their handshake. The sentinel is written once uvicorn
accepts connections, so a client that reads it can connect at once; the file watcher and
the word scan start after it. On SIGTERM, SIGINT or SIGHUP the sentinel goes first (no
new client finds a dying daemon), then the language servers are stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
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
from lspd.daemon import binding
from lspd.daemon.watchdog import Watchdog
from lspd.dirs import state_dir
from lspd.lsp.process import GROUPS
from lspd.workspace import Workspace, prewarm
from lspd.workspace.memory import next_tidy, tidy

if TYPE_CHECKING:
    from lspd.daemon.server import Server
    from lspd.lsp.session import Session

log = logging.getLogger(__name__)

DEFAULT_IDLE_TIMEOUT_S = 1800.0


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
        self._tasks: list[asyncio.Task[None]] = []
        self.activity: Any = None
        self.feedback: Any = None  # the agents' hook checks, once serving
        self.ws: Workspace | None = None
        self.idle_timeout = DEFAULT_IDLE_TIMEOUT_S  # settled once lspd.toml is read

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
        self._tasks.append(asyncio.create_task(self._watch_servers(ws, watchdog)))
        chosen, starts = self._start_prewarm(ws)
        sock = None
        try:
            # Their processes first: while a thread imports the SDK, each system call of the
            # loop's thread hands it the GIL for up to 5 ms (spawning took 0.2 s, not 15 ms).
            await prewarm.spawned(chosen, starts)
            await asyncio.to_thread(_import_transport)  # while the servers start
            sock = binding.bind(self.root, self.options.port)
            # In a thread too (0.4-1.1 s: the tools' schemas): the loop meanwhile reads the
            # servers' answers and sends `initialized` (it waited for the build, under load).
            self._server = await asyncio.to_thread(self._uvicorn, ws, sock)
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
        self._tasks += [*starts, asyncio.create_task(self._prewarmed(ws, starts))]
        return chosen, starts

    def _uvicorn(self, ws: Workspace, sock: socket.socket) -> Server:
        """uvicorn serving the daemon's app on `sock` (its port named in the sentinel)."""
        import uvicorn

        from lspd.daemon.app import UVICORN_OPTIONS, build_app
        from lspd.daemon.feedback import Feedback
        from lspd.daemon.live import Live
        from lspd.daemon.server import Server
        from lspd.tools import Activity, build_server

        self.port = sock.getsockname()[1]
        if self.options.token:
            self.token = sentinel.new_token(self.root)
        else:
            sentinel.remove_token(self.root)  # a stale one would only mislead clients
        self.activity = Activity()
        started_with = {
            "token": self.token is not None,
            "port": self.port,
            "idle_timeout": self.idle_timeout,
            "restricted": ws.restricted,
        }
        live = Live(ws)  # the status page's: the tool calls, memory over the last hour
        app = build_app(
            ws,
            build_server(ws, self.activity, live.calls),
            token=self.token,
            lifespan=self._lifespan,
            options=started_with,
            feedback=(feedback := Feedback(ws, self.activity)),
            live=live,
        )
        self.feedback = feedback  # the agents' hook checks (tests wait on them)
        config = uvicorn.Config(
            app,
            log_config=None,
            lifespan="on",
            timeout_graceful_shutdown=1,  # open SSE streams of handshake clients end here
            access_log=self.options.log_level == "debug",
            **UVICORN_OPTIONS,
        )
        return Server(config, self._on_ready, self._cleanup_files)

    def _on_ready(self) -> None:
        assert self.port is not None
        sentinel.write_port(self.root, self.port)
        binding.remember_port(self.root, self.port)
        log.info("serving %s at %s (pid %d)", self.root, self.url, os.getpid())
        self.ready.set()
        if self.ws is not None:  # the watcher and the word scan: never before the sentinel
            self._tasks.append(asyncio.get_running_loop().create_task(self._watch(self.ws)))
            self._tasks.append(asyncio.get_running_loop().create_task(self._keep(self.ws)))
        if self._announce is not None:
            self._announce(self.url)
        if self.options.sync_agents:
            asyncio.get_running_loop().run_in_executor(None, self._sync_agents)

    def _sync_agents(self) -> None:
        """Tell the agents the new URL: the port may have changed since the last run."""
        from lspd.agents import sync_agents

        wanted = None if self.options.sync_agents == ("all",) else list(self.options.sync_agents)
        try:
            report = sync_agents(self.root, self.url, wanted)
        except Exception:
            log.exception("syncing agent configs failed")
            return
        for result in report.results:
            log.info("sync: %s", result)

    def _cleanup_files(self) -> None:
        if self.port is not None:
            sentinel.remove_port(self.root, self.port)
        if self.token is not None:
            sentinel.remove_token(self.root, self.token)
        sentinel.remove_created_dir(self.root)  # what lspd created goes with it

    @contextlib.asynccontextmanager
    async def _lifespan(self) -> AsyncIterator[None]:
        assert self.ws is not None
        self._tasks.append(asyncio.create_task(self._tidy(self.ws, self.idle_timeout)))
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

    async def _watch_servers(self, ws: Workspace, watchdog: Watchdog) -> None:
        """Keep the watchdog told of the servers' process groups (each leads its own), as
        they start and go: every group this process started and has not killed."""
        while True:
            groups, version = GROUPS.snapshot()
            watchdog.watch(groups)
            await GROUPS.changed(version)

    async def _watch(self, ws: Workspace) -> None:
        """Follow the files (and read every source file's words: workspace/symbols/index.py)."""
        await ws.watch()

    async def _keep(self, ws: Workspace) -> None:
        """Keep the committed state's result for baselines (`engine/keeping.py`), made of
        `ops`'s whole check (`check_all`) and results (`ops/committed.py`)."""
        from lspd.engine import keeping
        from lspd.ops.check import check_all
        from lspd.ops.committed import committed

        async def kept(head: str) -> None:
            await committed(ws, head, lambda: check_all(ws))

        if keeping.enabled():
            await keeping.keep_committed(
                ws,
                lambda: bool(self.activity.in_flight),
                lambda busy: check_all(ws, busy=busy),
                kept,
            )

    async def _prewarmed(self, ws: Workspace, starts: list[asyncio.Task[None]]) -> None:
        """Log when the prewarmed servers answer completely (their readiness), not just
        when their processes run."""
        started = time.monotonic()
        await asyncio.gather(*starts)
        await asyncio.gather(
            *(s.wait_ready() for s in ws.sessions.values()), return_exceptions=True
        )
        names = ", ".join(f"{s.name} ({ws.display(s.root)})" for s in ws.sessions.values())
        log.info("prewarm done in %.2f s (servers: %s)", time.monotonic() - started, names or "-")

    async def _tidy(self, ws: Workspace, idle_s: float) -> None:
        """Tidy when something falls due (memory.next_tidy), or a server starts or goes."""
        version = GROUPS.snapshot()[1]
        while True:
            wait = next_tidy(ws, idle_s, busy=bool(self.activity.in_flight))
            version = await GROUPS.changed(version, wait)
            if self.activity.in_flight:  # a server starting for a call is not idle
                continue
            try:
                await tidy(ws, idle_s)
            except Exception:
                log.exception("tidying the servers failed")


def _import_transport() -> None:
    """Import what serves MCP (the SDK, uvicorn: 0.3-0.5 s), in a thread at start, without
    cyclic collections: its objects live as long as the daemon, and scanning them as they
    are made cost 13 % of the import (0.49 -> 0.42 s)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        import lspd.daemon.app
        import lspd.daemon.server
        import lspd.tools  # noqa: F401
    finally:
        if collecting:
            gc.enable()


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
    asyncio.run(daemon.serve())
