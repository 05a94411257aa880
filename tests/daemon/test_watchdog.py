"""The watchdog kills the watched process groups when its daemon dies, and only then."""

from __future__ import annotations

import os
import signal
import subprocess
import time

from lspd.daemon.watchdog import Watchdog
from tests.daemon.support import alive, wait_dead


def _group_leader() -> subprocess.Popen[bytes]:
    """A stand-in language server: its own process group, with a child of its own."""
    return subprocess.Popen(
        ["sh", "-c", "sleep 60 & wait"], start_new_session=True, stdin=subprocess.DEVNULL
    )


def _children(pid: int) -> list[int]:
    path = f"/proc/{pid}/task/{pid}/children"
    with open(path, encoding="ascii") as handle:
        return [int(word) for word in handle.read().split()]


def _first_child(pid: int, timeout: float = 5.0) -> int:
    """The first child of `pid`, once the shell has started it."""
    deadline = time.monotonic() + timeout
    while not (children := _children(pid)):
        assert time.monotonic() < deadline, f"{pid} started no child"
        time.sleep(0.01)
    return children[0]


def test_a_dead_daemon_takes_its_servers_along() -> None:
    server = _group_leader()
    try:
        grandchild = _first_child(server.pid)
        watchdog = Watchdog()
        watchdog.start()
        watchdog.watch([server.pid])
        assert watchdog.pid is not None
        # The daemon dies without a goodbye: the pipe closes, as when it is SIGKILLed.
        assert watchdog._process is not None and watchdog._process.stdin is not None
        watchdog._process.stdin.close()
        assert wait_dead(server.pid) and wait_dead(grandchild)
        assert watchdog._process.wait(5) == 0
    finally:
        os.killpg(server.pid, signal.SIGKILL) if alive(server.pid) else None
        server.wait()


def test_a_clean_stop_leaves_the_groups_alone() -> None:
    server = _group_leader()
    try:
        watchdog = Watchdog()
        watchdog.start()
        watchdog.watch([server.pid])
        watchdog.stop()  # returns once the watchdog process has exited
        assert alive(server.pid)
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
