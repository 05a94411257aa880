"""Starting a language server so that it can never outlive us.

Each server runs in its own process group (so we can kill it with everything it spawned),
gets SIGKILL from the kernel when our process dies (Linux parent-death signal), and writes
its stderr to a log file, so a chatty server never blocks on a full pipe.

Nothing here polls: a server's exit is an event (asyncio's child watcher reaps it and tells
the protocol), and the groups started and not yet killed (`GROUPS`) wake whoever waits for
them to change, so an idle daemon sleeps until something happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import dataclasses
import json
import os
import signal
import sys
import threading
import weakref
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class Groups:
    """The process groups this process started and has not killed yet (thread-safe).

    The daemon's watchdog must know them should the daemon die, and its tidy loop has
    nothing to do while there are none: both wait for a change instead of looking.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pids: set[int] = set()
        self._version = 0
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def snapshot(self) -> tuple[tuple[int, ...], int]:
        """The groups now, and a version to hand to `changed`."""
        with self._lock:
            return tuple(sorted(self._pids)), self._version

    def add(self, pid: int) -> None:
        with self._lock:
            if pid in self._pids:
                return
            self._pids.add(pid)
        self._wake()

    def discard(self, pid: int) -> None:
        with self._lock:
            if pid not in self._pids:
                return
            self._pids.discard(pid)
        self._wake()

    def _wake(self) -> None:
        with self._lock:
            self._version += 1
            waiters = list(self._waiters)
        for loop, event in waiters:  # each in its own loop's thread
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(event.set)

    async def changed(self, version: int, timeout: float | None = None) -> int:
        """Wait until the groups differ from `version` (or `timeout` s); the version now."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            if self._version != version:
                return self._version
            self._waiters.add(waiter)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter[1].wait(), timeout)
        finally:
            with self._lock:
                self._waiters.discard(waiter)
        return self.snapshot()[1]


GROUPS = Groups()


class _Protocol(asyncio.subprocess.SubprocessStreamProtocol):
    """asyncio's own protocol, which also resolves a future the moment the child exits."""

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self.exit = loop.create_future()

    def process_exited(self) -> None:
        super().process_exited()
        if not self.exit.done():
            self.exit.set_result(None)


# The exit future of each process `spawn` started (weak: gone with the process object).
_EXITS: weakref.WeakKeyDictionary[asyncio.subprocess.Process, asyncio.Future[None]] = (
    weakref.WeakKeyDictionary()
)


@dataclass(frozen=True)
class Spawn:
    """What `spawn` was asked, and the process it gave."""

    pid: int
    command: tuple[str, ...]
    cwd: str
    env: tuple[tuple[str, str], ...]  # sorted
    log_path: str


# The last processes `spawn` gave (the daemon remembers its prewarm's: daemon/head_start.py).
SPAWNED: deque[Spawn] = deque(maxlen=32)
# Processes started ahead of the session that will ask for them (`ahead`), by what was asked.
_AHEAD: dict[Spawn, asyncio.subprocess.Process] = {}  # pid 0 in the keys


def server_env(own: dict[str, str]) -> dict[str, str]:
    """lspd's environment with a server's `env` (servers.toml) over it. A NODE_OPTIONS in
    both is joined, the environment's last: node takes the last of a repeated flag, so the
    user's flags win and the server's stay where the user set none."""
    env = {**os.environ, **own}
    if "NODE_OPTIONS" in own and os.environ.get("NODE_OPTIONS"):
        env["NODE_OPTIONS"] = f"{own['NODE_OPTIONS']} {os.environ['NODE_OPTIONS']}"
    return env


def _asked(command: list[str], cwd: Path, env: Mapping[str, str], log_path: Path) -> Spawn:
    return Spawn(0, tuple(command), str(cwd), tuple(sorted(env.items())), str(log_path))


async def ahead(
    command: list[str], cwd: Path, env: Mapping[str, str], log_path: Path
) -> asyncio.subprocess.Process:
    """`spawn` now, for a session that will ask `spawn` exactly this later (same command,
    directory, environment and log) and be given this process instead of a new one."""
    process = await spawn(command, cwd, env, log_path)
    # Not in `GROUPS` until a session takes it (the parent-death signal guards it until
    # then): taken, it joins them and wakes whoever waits for a server to run.
    GROUPS.discard(process.pid)
    _AHEAD[_asked(command, cwd, env, log_path)] = process
    return process


def unclaimed() -> list[asyncio.subprocess.Process]:
    """The processes started `ahead` that no `spawn` took (no longer offered: the caller
    kills them)."""
    left = list(_AHEAD.values())
    _AHEAD.clear()
    return left


async def spawn(
    command: list[str], cwd: Path, env: Mapping[str, str], log_path: Path
) -> asyncio.subprocess.Process:
    """Start a language server in its own process group, its stderr appended to
    `log_path`; its exit is an event (no polling). One started `ahead` for exactly this
    (still running) is given instead."""
    asked = _asked(command, cwd, env, log_path)
    started = _AHEAD.pop(asked, None)
    if started is not None and started.returncode is None:
        GROUPS.add(started.pid)
        SPAWNED.append(dataclasses.replace(asked, pid=started.pid))
        return started
    log_path.parent.mkdir(parents=True, exist_ok=True)
    loop = asyncio.get_running_loop()
    limit = 2**26
    with open(log_path, "ab") as log_file:
        # What asyncio.create_subprocess_exec does, with a protocol that reports the exit.
        transport, protocol = await loop.subprocess_exec(
            lambda: _Protocol(limit, loop),
            *command,
            cwd=cwd,
            env=dict(env),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=log_file,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
    process = asyncio.subprocess.Process(transport, protocol, loop)
    _EXITS[process] = protocol.exit
    GROUPS.add(process.pid)
    SPAWNED.append(dataclasses.replace(asked, pid=process.pid))
    return process


async def exited(process: asyncio.subprocess.Process) -> int:
    """Wait until `process` (started by `spawn`) has exited and return its exit code.

    Unlike `process.wait()`, this does not also wait for the process's pipes to close: a child
    the server started inherits its stdout and keeps it open after the server itself died.
    """
    if process.returncode is None:
        await asyncio.shield(_EXITS[process])
    assert process.returncode is not None
    return process.returncode


async def helper_answer(
    process: asyncio.subprocess.Process,
    request: Mapping[str, Any],
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The answer of one of lspd's Node helpers to `request`, sent as one JSON line: the
    first line it writes with the request's `id` (another id's, left from a question cut
    short, is skipped) that is not a `progress` line (those go to `progress`);
    ConnectionError where it exits first."""
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write((json.dumps(request) + "\n").encode())
    await process.stdin.drain()
    while True:
        line = await process.stdout.readline()
        if not line:  # its output closed: its exit status follows (a crash's, a signal's)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 5)
            raise ConnectionError(f"exited with {process.returncode}")
        answer: dict[str, Any] = json.loads(line)
        if answer.get("id") != request["id"]:
            continue
        if "progress" not in answer:
            return answer
        if progress is not None:
            progress(int(answer["progress"]))


async def end_helper(process: asyncio.subprocess.Process | None) -> None:
    """End a helper process that ends with its input (lspd's Node helpers): its input
    closed, 2 s to exit, then its group killed."""
    if process is None or process.returncode is not None:
        return
    if process.stdin is not None:
        process.stdin.close()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(exited(process), 2.0)
    kill_group(process.pid)


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by `pid` (the server and anything it started)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
    GROUPS.discard(pid)
