"""Finding the daemon of a workspace: a daemon holding its lock whose port refuses the
connection is starting or stopping, told apart from one too busy to answer and from none,
and waited for a moment rather than taken for none."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lspd import sentinel
from lspd.daemon import finding
from tests.daemon.support import closed_port, lock_held, thread_daemon


def _refused(pid: int, port: int) -> str:
    return (
        f"the daemon (pid {pid}) holds its lock but refused the connection on port {port}: "
        "it is starting or stopping; try again in a moment"
    )


def test_a_port_refused_while_the_lock_is_held_is_a_daemon_starting_or_stopping(
    tmp_path: Path,
) -> None:
    root = tmp_path.resolve()
    port = closed_port()
    sentinel.write_port(root, port)
    with ThreadPoolExecutor(1) as pool:
        with lock_held(root) as holder:
            found = finding.probe(root)
            assert (found.ok, found.stale, found.refused, found.pid) == (
                False,
                False,
                True,
                holder.pid,
            )
            assert found.reason == _refused(holder.pid, port)
            started = time.monotonic()
            waiting = pool.submit(finding.find_daemon, root)
            time.sleep(0.5)
            assert not waiting.done()  # asking again while the lock is held
        # The lock let go (the daemon stopped): no daemon, said before the wait is over.
        assert waiting.result(timeout=finding.BUSY_TIMEOUT_S) is None
        assert time.monotonic() - started < finding.BUSY_TIMEOUT_S
    found = finding.probe(root)
    assert (found.stale, found.refused, found.pid, found.reason) == (
        True,
        False,
        None,
        f"nothing answers on port {port} (ConnectionRefusedError): stale sentinel",
    )


def test_a_daemon_starting_is_waited_for_not_taken_for_none(root: Path) -> None:
    with (
        thread_daemon(root, prewarm=False),
        lock_held(root),
        ThreadPoolExecutor(1) as pool,
    ):
        answering = sentinel.read_port(root)
        sentinel.write_port(root, closed_port())  # the sentinel it finds when it starts
        waiting = pool.submit(finding.find_daemon, root)
        time.sleep(0.5)
        assert not waiting.done()
        assert answering is not None
        sentinel.write_port(root, answering)  # it listens, and says where
        found = waiting.result(timeout=finding.BUSY_TIMEOUT_S)
    assert found is not None and found.port == answering, finding.probe(root).reason
