"""Nothing of lspd's dmypy outlives it: a stop ends its server by its pid (SIGTERM; no
`dmypy stop` client to start), its status file and socket going with it; a server that
does not end on SIGTERM is killed, the copy of the project's files goes with it, a daemon
killed with SIGKILL takes its dmypy server along (its watchdog knows the server's process
group), it stops with the language servers after the idle timeout, and dmypy's own idle
timeout is the last resort."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from lspd.engine import keeping
from lspd.engine.kept_memory import SWITCH, memory_of
from lspd.lsp.process import GROUPS
from lspd.workspace import Workspace
from lspd.workspace.dmypy import Dmypy
from lspd.workspace.mypy_said import MypyOutput
from tests.daemon.support import (
    alive,
    env_for,
    kill,
    spawn,
    thread_daemon,
    wait_dead,
    wait_for_port,
)
from tests.engine.test_keeping import wait_for
from tests.ops.test_baseline import committed, git
from tests.workspace.mypy_env import STRICT, project
from tests.workspace.test_dmypy import daemon_of, held


def test_a_stop_ends_the_server_and_leaves_no_socket(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)

    async def run() -> tuple[int | None, Path]:
        await daemon.check([], held(root))
        socket = Path(json.loads(daemon.status_file.read_text())["connection_name"])
        assert socket.exists()
        pid = daemon.pid
        await daemon.stop()
        return pid, socket

    with caplog.at_level(logging.WARNING):
        pid, socket = asyncio.run(run())
    assert pid is not None and wait_dead(pid, 5)
    assert not socket.parent.exists() and not daemon.running
    assert not daemon.mirror.directory.exists()
    assert "did not end on SIGTERM" not in caplog.text  # SIGTERM sufficed


def test_a_server_deaf_to_stop_is_killed(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)

    async def run() -> int | None:
        await daemon.check([], held(root))
        pid = daemon.pid
        assert pid is not None and (daemon.mirror.directory / "app" / "main.py").is_file()
        os.kill(pid, signal.SIGSTOP)  # alive, but it answers nothing: `dmypy stop` fails
        try:
            await daemon.stop()
        finally:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        return pid

    pid = asyncio.run(run())
    assert pid is not None and wait_dead(pid, 5)
    assert not daemon.running and not daemon.mirror.directory.exists()


def test_a_daemon_killed_with_sigkill_leaves_no_dmypy_server(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    state = tmp_path / "state"
    process = spawn(root, state, "--no-prewarm")
    server: int | None = None
    try:
        wait_for_port(root)
        asked = subprocess.run(
            [sys.executable, "-m", "lspd", "diagnostics", "app/main.py", "--json"],
            cwd=root,
            env=env_for(state),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert asked.returncode in (0, 1), asked.stderr
        assert json.loads(asked.stdout)["checker"].startswith("mypy")
        (status_file,) = state.glob("*/mypy/*/dmypy.json")
        server = int(json.loads(status_file.read_text())["pid"])
        assert alive(server) and os.getpgid(server) != os.getpgid(process.pid)
        os.kill(process.pid, signal.SIGKILL)  # the daemon only, not its process group
        process.wait(timeout=10)
        assert wait_dead(server, 10), f"dmypy server {server} outlived the daemon"
    finally:
        kill(process, [server] if server is not None else [])


def test_the_server_is_started_with_an_idle_timeout_of_its_own(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon: Dmypy = daemon_of(root, tmp_path)

    async def run() -> str:
        try:
            await daemon.check([], held(root))
            assert daemon.pid is not None
            return Path(f"/proc/{daemon.pid}/cmdline").read_text().replace("\0", " ")
        finally:
            await daemon.stop()

    assert " --timeout 3600 " in asyncio.run(run())


def test_the_watchdog_knows_the_server_during_its_first_check(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)

    async def run() -> tuple[int, tuple[int, ...], bool, int]:
        checking = asyncio.create_task(daemon.check([], held(root)))
        try:
            version = GROUPS.snapshot()[1]
            while daemon._group is None and not checking.done():
                version = await GROUPS.changed(version, 1.0)
            group = daemon._group
            assert group is not None, f"no server seen mid-check: {checking.result()!r}"
            told = GROUPS.snapshot()[0], checking.done()
            await checking
            pid = daemon.pid
            assert pid is not None
            return group, *told, os.getpgid(pid)
        finally:
            await asyncio.gather(checking, return_exceptions=True)
            await daemon.stop()

    group, groups, done, server_group = asyncio.run(run())
    assert group in groups and not done  # told before the cold check ended
    assert server_group == group  # the server's own group, as it answered
    assert group not in GROUPS.snapshot()[0]  # and forgotten once it stopped


def test_dmypy_stops_with_the_language_servers_after_idle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = committed(project(tmp_path / "p", STRICT))
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    # HEAD's result is not kept in the background here: its whole check, started after the
    # questions, would still be running (and asking dmypy) at a 5 s idle stop under load.
    monkeypatch.setenv("LSPD_KEEP_COMMITTED", "0")
    with thread_daemon(root, prewarm=False, idle_timeout=5) as running:
        ws = running.daemon.ws
        assert ws is not None
        server = None
        for question in (["diagnostics", "app/main.py"], ["hover", "app/main.py:5:12"]):
            asked_of_cli(root, question)
            (daemon,) = ws.pool.mypy.values()
            server = server or daemon.pid  # read before its idle stop
        sessions = [s for s in ws.pool.regular() if s.pid is not None]
        assert server is not None and [s.name for s in sessions] == ["basedpyright"]
        gone = [daemon.mirror.directory, daemon.status_file]
        wait_for(
            lambda: (
                not any(p.exists() for p in gone) and all(s.state == "stopped" for s in sessions)
            ),
            120,
        )
        assert wait_dead(server, 10)


def asked_of_cli(root: Path, question: list[str]) -> None:
    """`lspd QUESTION --json` asked of the daemon serving `root`, answered."""
    answered = subprocess.run(
        [sys.executable, "-m", "lspd", *question, "--json"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert answered.returncode in (0, 1), answered.stderr


QUESTIONS = {
    "a language server too": [["diagnostics", "app/main.py"], ["hover", "app/main.py:5:12"]],
    "dmypy alone, then HEAD moves": [["diagnostics", "app/main.py"]],
}


@pytest.mark.parametrize("case", list(QUESTIONS))
def test_dmypy_stops_after_idle_with_heads_result_kept_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """Keeping on (the daemon's default): HEAD's result is made by a whole check that asks
    dmypy too, after or between the questions; once it is kept, dmypy (and the language
    server) stop after their idle time all the same, and the keeping's later looks ask
    dmypy nothing, also when HEAD moves while every server sleeps (it would start them
    again for nobody; the next question does)."""
    root = committed(project(tmp_path / "p", STRICT))
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv(SWITCH, raising=False)
    monkeypatch.setattr(keeping, "INTERVAL_S", 1.0)
    asked: list[float] = []  # each question put to a dmypy, when
    looks: list[float] = []  # each look of the keeping at its servers, when
    real_check, real_asleep = Dmypy.check, keeping._asleep

    async def check(self: Dmypy, *args: Any, **kwargs: Any) -> MypyOutput:
        asked.append(time.monotonic())
        return await real_check(self, *args, **kwargs)

    def asleep(ws: Workspace) -> bool:
        looks.append(time.monotonic())
        return real_asleep(ws)

    def looked(times: int) -> None:  # the keeping looked `times` times from now
        since = time.monotonic()
        wait_for(lambda: sum(t > since for t in looks) >= times, 120)

    monkeypatch.setattr(Dmypy, "check", check)
    monkeypatch.setattr(keeping, "_asleep", asleep)
    with thread_daemon(root, prewarm=False, idle_timeout=5) as running:
        ws = running.daemon.ws
        assert ws is not None
        for question in QUESTIONS[case]:
            asked_of_cli(root, question)
        (daemon,) = ws.pool.mypy.values()
        sessions = [s for s in ws.pool.regular() if s.pid is not None]
        assert [s.name for s in sessions] == (["basedpyright"] if len(QUESTIONS[case]) > 1 else [])
        wait_for(lambda: memory_of(ws).state is not None, 600)  # HEAD's result kept
        gone = [daemon.mirror.directory, daemon.status_file]
        wait_for(
            lambda: (
                not any(p.exists() for p in gone)
                and daemon.pid is None
                and all(s.state == "stopped" for s in sessions)
            ),
            120,
        )
        stopped, last = time.monotonic(), len(asked)
        looked(5)
        if case == "dmypy alone, then HEAD moves":  # a pull: a file and HEAD changed
            shapes = root / "app" / "shapes.py"
            shapes.write_text(shapes.read_text() + "\n\ndef more() -> int:\n    return 1\n")
            commit = ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit"]
            git(root, *commit, "-qam", "pulled")
            looked(5)
        assert len(asked) == last and asked[-1] < stopped  # none asked dmypy since
        assert daemon.pid is None and not any(p.exists() for p in gone)
        state = memory_of(ws).state
        assert state is not None
