"""lspd asks its dmypy server on its socket (no `dmypy run` client started), on a real
mypy: a cold check starts the server itself (`dmypy daemon`) and asks it; a warm re-check
is asked; the same errors as `dmypy run`'s. A server killed between two checks, or one
that wants a restart (its configuration changed), is left to `dmypy run`, and the answer
is still mypy's. A server that hangs is ended and `dmypy run` answers; a check cancelled
while the server starts leaves none behind."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine.mypy_errors import parse
from lspd.lsp.process import GROUPS
from lspd.workspace import dmypy
from lspd.workspace.dmypy import Dmypy
from lspd.workspace.mypy_ipc import speaks
from lspd.workspace.mypy_said import MypyFailed
from tests.daemon.support import alive, wait_dead
from tests.workspace.mypy_env import MYPY_PINNED, STRICT, environment, mypy_env, project
from tests.workspace.test_dmypy import daemon_of, held

ASKED = "asked on its socket"
WITH_ERROR = ["assignment", "import-not-found", "no-untyped-def"]
FIXED = ["import-not-found", "no-untyped-def"]


def test_the_installed_mypy_is_spoken_to_and_no_mypy_is_not() -> None:
    assert speaks(mypy_env() / "bin" / "python") == MYPY_PINNED
    assert speaks(environment("no-mypy") / "bin" / "python") is None


def codes(root: Path, daemon: Dmypy, texts: dict[Path, str] | None = None) -> list[str]:
    async def run() -> list[str]:
        found = parse(await daemon.check([], held(root, texts)), root, daemon.mirror.directory)
        return sorted(str(e.code) for e in found)

    return asyncio.run(run())


def fixed(root: Path) -> dict[Path, str]:
    main = root / "app" / "main.py"
    return {main: main.read_text().replace('count: int = "three"', "count: int = 3")}


@pytest.fixture
def started(tmp_path: Path) -> Iterator[tuple[Path, Dmypy]]:
    """A strict project and lspd's dmypy of it, after its cold check."""
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)
    try:
        assert codes(root, daemon) == WITH_ERROR
        yield root, daemon
    finally:
        asyncio.run(daemon.stop())


def test_a_cold_check_starts_the_server_itself_and_asks_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)
    try:
        with caplog.at_level(logging.DEBUG, logger="lspd.workspace.dmypy"):
            assert codes(root, daemon) == WITH_ERROR
        assert caplog.text.count(ASKED) == 1 and daemon.pid is not None
        command = Path(f"/proc/{daemon.pid}/cmdline").read_bytes().split(b"\0")
        assert b"daemon" in command and b"run" not in command
        assert os.getpgid(daemon.pid) == daemon.pid  # a session of its own
    finally:
        asyncio.run(daemon.stop())


def test_a_warm_recheck_is_asked_on_the_socket(
    started: tuple[Path, Dmypy], caplog: pytest.LogCaptureFixture
) -> None:
    root, daemon = started
    server = daemon.pid
    with caplog.at_level(logging.DEBUG, logger="lspd.workspace.dmypy"):
        assert codes(root, daemon, fixed(root)) == FIXED
        assert codes(root, daemon) == WITH_ERROR  # the first texts: kept, not asked
        assert caplog.text.count(ASKED) == 1
        daemon.forget()
        assert codes(root, daemon, fixed(root)) == FIXED
    assert caplog.text.count(ASKED) == 2 and daemon.pid == server


def test_a_server_killed_between_checks_is_started_again(
    started: tuple[Path, Dmypy], caplog: pytest.LogCaptureFixture
) -> None:
    root, daemon = started
    killed = daemon.pid
    assert killed is not None
    os.kill(killed, signal.SIGKILL)
    assert wait_dead(killed, 10)
    with caplog.at_level(logging.DEBUG, logger="lspd.workspace.dmypy"):
        assert codes(root, daemon, fixed(root)) == FIXED
    assert ASKED not in caplog.text and daemon.pid not in (None, killed)


def test_a_changed_configuration_restarts_the_server_and_the_socket_is_asked_after(
    started: tuple[Path, Dmypy], caplog: pytest.LogCaptureFixture
) -> None:
    root, daemon = started
    first = daemon.pid
    lenient = {root / "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\n'}  # not strict
    with caplog.at_level(logging.DEBUG, logger="lspd.workspace.dmypy"):
        assert codes(root, daemon, lenient) == ["assignment", "import-not-found"]
        restarted = daemon.pid
        assert ASKED not in caplog.text and restarted not in (None, first)
        assert codes(root, daemon, {**lenient, **fixed(root)}) == ["import-not-found"]
    assert caplog.text.count(ASKED) == 1 and daemon.pid == restarted


def test_a_server_mypy_will_not_start_is_said_as_dmypy_run_says_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """dmypy refuses `follow_imports = silent`. lspd runs mypy once for it (`mypy_once`),
    so the route to dmypy is forced here: its refusal is said, not taken for a clean run."""
    files = {"mypy.ini": "[mypy]\nfiles = app\nfollow_imports = silent\n", "app/__init__.py": ""}
    root = project(tmp_path / "p", files)
    daemon = daemon_of(root, tmp_path)
    monkeypatch.setattr(dmypy, "needs_once", lambda *args, **kwargs: False)
    try:
        with pytest.raises(MypyFailed, match="follow-imports=silent not supported"):
            codes(root, daemon)
        assert not daemon.running and daemon.pid is None
    finally:
        asyncio.run(daemon.stop())


def test_a_hung_server_is_ended_and_dmypy_run_answers(
    started: tuple[Path, Dmypy], caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, daemon = started
    hung = daemon.pid
    assert hung is not None
    monkeypatch.setattr(dmypy, "RUN_TIMEOUT_S", 1.0)
    os.kill(hung, signal.SIGSTOP)  # it accepts the connection, and never answers
    try:
        with caplog.at_level(logging.DEBUG, logger="lspd.workspace.dmypy"):
            assert codes(root, daemon, fixed(root)) == FIXED
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(hung, signal.SIGCONT)
    assert "did not answer in 1 s" in caplog.text and ASKED not in caplog.text
    assert not alive(hung) and hung not in GROUPS.snapshot()[0] and daemon.pid not in (None, hung)


def servers(status_file: Path) -> list[int]:
    """The processes started with `status_file` on their command line (zombies aside)."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            command = (entry / "cmdline").read_bytes().split(b"\0")
            if entry.name.isdigit() and str(status_file).encode() in command:
                found.append(int(entry.name))
    return [pid for pid in found if alive(pid)]


def test_a_check_cancelled_while_the_server_starts_leaves_no_server(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)

    async def cancelled() -> list[int]:
        check = asyncio.ensure_future(daemon.check([], held(root)))
        while not (started := servers(daemon.status_file)) and not check.done():
            await asyncio.sleep(0.005)
        watched = set(GROUPS.snapshot()[0])  # the watchdog knows it at once
        assert not daemon.running and set(started) <= watched  # spawned, not up yet
        check.cancel()
        with pytest.raises(asyncio.CancelledError):
            await check
        return started

    try:
        started = asyncio.run(cancelled())
        assert len(started) == 1 and servers(daemon.status_file) == []
        assert started[0] not in GROUPS.snapshot()[0] and not daemon.running
    finally:
        asyncio.run(daemon.stop())
