"""Running real daemons in tests: in a thread (fast) or as `python -m lspd serve` (signals)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import httpx

from lspd import sentinel
from lspd.daemon.run import Daemon, Options

# apt's chromium as the status page's tests and bench/status_page.py run it (Playwright's
# executable_path: no browser downloaded), headless, talking to nothing but the daemon.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class ThreadDaemon:
    """A real daemon (uvicorn on 127.0.0.1, real language servers) on its own thread."""

    def __init__(self, options: Options) -> None:
        self.daemon = Daemon(options)
        self.error: BaseException | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the daemon's, once it runs
        self.thread = threading.Thread(target=self._run, name="lspd-daemon", daemon=True)

    def _run(self) -> None:
        async def serve() -> None:
            self.loop = asyncio.get_running_loop()
            await self.daemon.serve()

        try:
            asyncio.run(serve())
        except BaseException as exc:  # surfaced by start()
            self.error = exc

    def start(self, timeout: float = 30.0) -> ThreadDaemon:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.daemon.ready.wait(0.05):
            if self.error is not None:
                raise self.error
            assert time.monotonic() < deadline, "daemon did not become ready"
        return self

    def stop(self) -> None:
        self.daemon.stop()
        self.thread.join(30)
        assert not self.thread.is_alive(), "daemon thread did not stop"

    @property
    def url(self) -> str:
        return self.daemon.url

    @property
    def base(self) -> str:
        return self.url.removesuffix("/mcp")


@contextlib.contextmanager
def thread_daemon(root: Path, **options: Any) -> Iterator[ThreadDaemon]:
    running = ThreadDaemon(Options(root=root, **options)).start()
    try:
        yield running
    finally:
        running.stop()


def serve_command(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "lspd", "serve", str(root), *args]


def env_for(state: Path) -> dict[str, str]:
    return {**os.environ, "LSPD_STATE_DIR": str(state)}


def spawn(root: Path, state: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        serve_command(root, *args),
        env=env_for(state),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


LOCK_HOLDER = (
    "import sys\n"
    "from pathlib import Path\n"
    "from lspd.daemon.lock import InstanceLock\n"
    "assert InstanceLock(Path(sys.argv[1])).acquire()\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)


@contextlib.contextmanager
def lock_held(root: Path, state: Path | None = None) -> Iterator[subprocess.Popen[str]]:
    """`root`'s instance lock, held by another process as a daemon holds it (one starting
    or stopping, when its port refuses), until the block ends or the process is stopped."""
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(root.resolve())],
        env=env_for(state) if state else None,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.kill()
        holder.communicate(timeout=10)


def closed_port() -> int:
    """A loopback port nothing listens on (the OS's pick, let go of at once): it refuses."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(root: Path, timeout: float = 30.0, not_port: int | None = None) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        port = sentinel.read_port(root)
        if port is not None and port != not_port:
            return port
        time.sleep(0.02)
    raise AssertionError(f"no sentinel in {root} within {timeout} s")


def health(port: int, headers: dict[str, str] | None = None) -> dict[str, Any]:
    response = httpx.get(f"http://127.0.0.1:{port}/health", headers=headers or {}, timeout=5)
    response.raise_for_status()
    data: dict[str, Any] = response.json()
    return data


def wait_for_servers(
    port: int, states: Sequence[str] = ("indexing", "ready"), timeout: float = 60.0
) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        servers = health(port)["servers"]
        if servers and all(s["state"] in states and s["pid"] for s in servers):
            return servers
        time.sleep(0.05)
    raise AssertionError("language servers did not become ready")


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def wait_dead(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def kill(process: subprocess.Popen[str], pids: Sequence[int] = ()) -> None:
    """Leave nothing behind: the daemon's process group, then any server pid we know of."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        process.communicate(timeout=10)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def wait_group_empty(pgid: int, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        members = [
            pid
            for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
            if _pgid(pid) == pgid and alive(pid)
        ]
        if not members:
            return True
        time.sleep(0.1)
    return False


def _pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def cli_through_daemon(
    root: Path, argv: list[str], modules: Sequence[str], timeout: float = 120
) -> tuple[list[str], str, str]:
    """`lspd ARGV` in a fresh interpreter while a thread daemon serves `root`: its output
    lines, then a last line `EXIT_CODE [the modules of `modules` it imported]`, and its
    stderr (what the CLI costs to start is what it imports)."""
    probe = (
        "import sys\n"
        "from lspd.cli import main\n"
        f"code = main({argv!r})\n"
        f"print(code, [m for m in {tuple(modules)!r} if m in sys.modules])\n"
    )
    with thread_daemon(root, prewarm=False):
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, cwd=root, timeout=timeout
        )
    *answer, last = done.stdout.strip().splitlines()
    return answer, last, done.stderr


def hold_on_loop(
    daemon: ThreadDaemon, held: Callable[[], AbstractAsyncContextManager[Any]]
) -> Callable[[], None]:
    """Enter `held()` (a lock of the daemon's workspace) on the daemon's loop, so a call
    waiting for it cannot end before the test lets it go: the function returned does."""
    loop = daemon.loop
    assert loop is not None
    taken, release = threading.Event(), asyncio.Event()

    async def hold() -> None:
        async with held():
            taken.set()
            await release.wait()

    holding = asyncio.run_coroutine_threadsafe(hold(), loop)
    assert taken.wait(30)
    return lambda: (loop.call_soon_threadsafe(release.set), holding.result(30))[-1]


def wait_until(condition: Callable[[], bool], timeout: float = 30) -> None:
    """Return once `condition()` holds (asked every 10 ms), failing after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met"
        time.sleep(0.01)
