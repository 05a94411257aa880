"""Starting servers: an exit seen at once without polling, the groups started and killed, and
the environment a server starts with."""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

import pytest

from lspd.lsp.process import GROUPS, ahead, exited, kill_group, server_env, spawn, unclaimed
from tests.daemon.support import alive, wait_dead

# A server that starts a child holding its stdout, prints the child's pid, then exits 3.
LEAVES_A_CHILD = ["sh", "-c", "sleep 60 & echo $!; exit 3"]


def test_an_exit_is_seen_while_a_child_still_holds_the_output(tmp_path: Path) -> None:
    async def main() -> None:
        process = await spawn(LEAVES_A_CHILD, tmp_path, {"PATH": "/usr/bin:/bin"}, tmp_path / "l")
        assert process.stdout is not None
        child = int(await process.stdout.readline())
        try:
            assert await asyncio.wait_for(exited(process), 10) == 3
            assert alive(child) and not process.stdout.at_eof()  # wait() would still wait
        finally:
            kill_group(process.pid)
        assert wait_dead(child)
        await process.wait()

    asyncio.run(main())


def test_waiting_for_an_exit_sets_no_timer(tmp_path: Path) -> None:
    async def main() -> None:
        command = [sys.executable, "-c", "import sys; sys.stdin.read()"]
        process = await spawn(command, tmp_path, {}, tmp_path / "log")
        waiting = asyncio.create_task(exited(process))
        await asyncio.sleep(0)  # the waiter is waiting now
        loop = asyncio.get_running_loop()
        assert loop._scheduled == []  # type: ignore[attr-defined]  # nothing polls
        assert process.stdin is not None
        process.stdin.close()  # the server ends as on `exit`
        assert await asyncio.wait_for(waiting, 10) == 0
        kill_group(process.pid)
        await process.wait()

    asyncio.run(main())


def test_the_groups_follow_spawn_and_kill_and_wake_other_threads(tmp_path: Path) -> None:
    _, version = GROUPS.snapshot()
    woken: list[tuple[int, ...]] = []
    waiting = threading.Event()

    def elsewhere() -> None:  # another thread's loop (a daemon run in a thread, say)
        async def wait() -> None:
            waiting.set()
            await GROUPS.changed(version, timeout=10)
            woken.append(GROUPS.snapshot()[0])

        asyncio.run(wait())

    thread = threading.Thread(target=elsewhere)
    thread.start()
    assert waiting.wait(10)

    async def main() -> None:
        command = [sys.executable, "-c", "import sys; sys.stdin.read()"]
        process = await spawn(command, tmp_path, {}, tmp_path / "log")
        thread.join(10)
        assert woken == [GROUPS.snapshot()[0]] and process.pid in woken[0]
        _, before = GROUPS.snapshot()
        kill_group(process.pid)
        assert process.pid not in GROUPS.snapshot()[0]
        assert await GROUPS.changed(before, timeout=0) != before  # already changed: no wait
        await process.wait()

    asyncio.run(main())


def test_a_process_started_ahead_is_given_to_the_spawn_asking_exactly_for_it(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        command, log = [sys.executable, "-c", "import sys; sys.stdin.read()"], tmp_path / "log"
        started = await ahead(command, tmp_path, {"A": "1"}, log)
        assert started.pid not in GROUPS.snapshot()[0]  # not the daemon's yet
        other = await spawn(command, tmp_path, {"A": "2"}, log)  # another environment
        _, version = GROUPS.snapshot()
        taken = await spawn(command, tmp_path, {"A": "1"}, log)
        assert started.pid in GROUPS.snapshot()[0] and GROUPS.snapshot()[1] > version
        again = await spawn(command, tmp_path, {"A": "1"}, log)  # given once only
        assert (taken is started, other is started, again is started) == (True, False, False)
        assert unclaimed() == []
        left = await ahead(command, tmp_path, {"A": "3"}, log)
        assert unclaimed() == [left] and unclaimed() == []
        for process in (started, other, again, left):
            kill_group(process.pid)
            await exited(process)
        assert not {started.pid, other.pid, again.pid, left.pid} & set(GROUPS.snapshot()[0])

    asyncio.run(main())


# The environment a language server starts with (`server_env`).


def test_a_servers_env_is_laid_over_lspds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOPROXY", "direct")
    monkeypatch.delenv("NODE_OPTIONS", raising=False)
    env = server_env({"GOPROXY": "off", "NODE_OPTIONS": "--max-semi-space-size=8"})
    assert env["GOPROXY"] == "off"
    assert env["NODE_OPTIONS"] == "--max-semi-space-size=8"


def test_the_users_node_options_come_last_so_they_win(monkeypatch: pytest.MonkeyPatch) -> None:
    # node takes the last of a repeated flag: a user's own young generation size stays theirs
    monkeypatch.setenv("NODE_OPTIONS", "--max-semi-space-size=32 --max-old-space-size=8192")
    env = server_env({"NODE_OPTIONS": "--max-semi-space-size=8"})
    assert env["NODE_OPTIONS"] == (
        "--max-semi-space-size=8 --max-semi-space-size=32 --max-old-space-size=8192"
    )
    assert server_env({})["NODE_OPTIONS"] == "--max-semi-space-size=32 --max-old-space-size=8192"
