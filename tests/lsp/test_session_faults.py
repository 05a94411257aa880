"""`Session` against a scripted fake server: crashes, hangs, garbage, slow starts, cleanup.

Real servers cannot be made to crash or hang on demand; `tests/fake_lsp_server.py` can.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from lspd.errors import ServerCrashed, ServerError, ServerTimeout
from lspd.lsp import answers, shapes
from lspd.lsp.session import Session
from lspd.servers.registry import ServerDefinition
from tests.daemon.support import alive, wait_dead

FAKE_SERVER = Path(__file__).parent.parent / "fake_lsp_server.py"


def fake_session(
    tmp_path: Path,
    mode: str,
    *args: str,
    request_timeout: float = 5.0,
    start_timeout: float = 5.0,
    settle: Callable[[], Awaitable[tuple[ServerDefinition, str]]] | None = None,
) -> Session:
    definition = ServerDefinition(
        name="fake-ls",
        language="fake",
        command=(sys.executable, str(FAKE_SERVER), "--mode", mode, *args),
        extensions={".fake": "fake"},
    )
    return Session(
        definition,
        tmp_path,
        tmp_path / "logs",
        request_timeout=request_timeout,
        start_timeout=start_timeout,
        settle=settle,
    )


def run(scenario: Callable[[], Awaitable[None]], session: Session) -> None:
    """Run `scenario` in a fresh event loop, then stop the session whatever happened."""

    async def main() -> None:
        try:
            await scenario()
        finally:
            await session.stop()

    asyncio.run(main())


async def hover(session: Session, path: Path, line: int = 0, character: int = 0) -> Any:
    params = {
        "textDocument": {"uri": path.as_uri()},
        "position": {"line": line, "character": character},
    }
    return await session.request("textDocument/hover", params)


def test_normal_server_answers_hover_and_all_its_requests_get_results(tmp_path: Path) -> None:
    session = fake_session(tmp_path, "normal")

    async def scenario() -> None:
        result = await hover(session, tmp_path / "a.fake")
        assert result == {"contents": {"kind": "markdown", "value": "**fake** hover"}}
        assert session.state == "ready"
        assert session.supports("hoverProvider")
        replies = await session.request("fake/replies", None)
        assert {reply["method"]: reply["result"] for reply in replies} == {
            "workspace/configuration": [None, None],
            "client/registerCapability": None,
            "window/workDoneProgress/create": None,
            "workspace/diagnostic/refresh": None,
            "fake/somethingNoClientKnows": None,
        }
        assert "watch-1" in session.registrations.by_id

    run(scenario, session)
    assert session.state == "stopped"


def test_crash_mid_request_is_reported_at_once_and_the_next_call_restarts(
    tmp_path: Path,
) -> None:
    session = fake_session(tmp_path, "crash-on-hover", "--once", str(tmp_path / "crashed"))

    async def scenario() -> None:
        await session.start()
        first_pid = session.pid
        began = time.monotonic()
        with pytest.raises(ServerCrashed) as crash:
            await hover(session, tmp_path / "a.fake")
        assert time.monotonic() - began < 2.0  # not the 5 s request timeout
        message = str(crash.value)
        assert crash.value.server == "fake-ls"
        assert "fake-ls" in message and "code 3" in message and str(session.log_path) in message
        assert session.state == "crashed"

        result = await hover(session, tmp_path / "a.fake")
        assert result["contents"]["value"] == "**fake** hover"
        assert session.state == "ready"
        assert session.pid != first_pid

    run(scenario, session)


def test_a_server_dying_while_its_toolchain_settles_is_a_crash_and_restarts(
    tmp_path: Path,
) -> None:
    """`settle` (a shim asked which interpreter it runs) is awaited after `initialize` is
    answered: a server dying then is a crash, not a session left "ready" with no process."""
    settled = 0

    async def settle() -> tuple[ServerDefinition, str]:
        nonlocal settled
        settled += 1
        if settled == 1:  # the first start: the server dies while the shim answers
            while not session.capabilities:  # `initialize` is answered
                await asyncio.sleep(0.01)
            assert session.pid is not None
            os.kill(session.pid, 9)
            while session.state != "crashed":  # `_watch` notices
                await asyncio.sleep(0.01)
        return session.definition, "settled"

    session = fake_session(tmp_path, "normal", settle=settle)

    async def scenario() -> None:
        with pytest.raises(ServerCrashed):
            await session.start()
        assert session.state == "crashed"
        result = await hover(session, tmp_path / "a.fake")  # restarted, settled again
        assert result["contents"]["value"] == "**fake** hover"
        assert (session.state, session.toolchain, settled) == ("ready", "settled", 2)

    run(scenario, session)


def test_a_start_cut_short_leaves_no_server_behind_and_the_next_call_starts_one(
    tmp_path: Path,
) -> None:
    """A question cancelled while its server starts (a client gone, an MCP cancellation, a
    shutdown) leaves no server that was never sent `initialized`: it is stopped, and the
    next call starts one afresh."""
    waiting, go = asyncio.Event(), asyncio.Event()

    async def settle() -> tuple[ServerDefinition, str]:
        waiting.set()
        await go.wait()
        return session.definition, "settled"

    session = fake_session(tmp_path, "normal", settle=settle)

    async def scenario() -> None:
        caller = asyncio.create_task(session.start())
        await waiting.wait()  # the start is under way: its toolchain settles
        while session.capabilities == {}:  # and `initialize` is answered
            await asyncio.sleep(0.01)
        first = session.pid
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
        assert session.state == "stopped" and session.pid is None
        assert first is not None and not alive(first)
        go.set()
        result = await hover(session, tmp_path / "a.fake")
        assert result["contents"]["value"] == "**fake** hover"
        assert (session.state, session.toolchain) == ("ready", "settled")

    run(scenario, session)


def test_hang_times_out_and_the_server_stays_usable(tmp_path: Path) -> None:
    session = fake_session(
        tmp_path, "hang-on-hover", "--once", str(tmp_path / "hung"), request_timeout=0.5
    )

    async def scenario() -> None:
        await session.start()
        pid = session.pid
        with pytest.raises(ServerTimeout) as timeout:
            await hover(session, tmp_path / "a.fake")
        assert "fake-ls" in str(timeout.value) and "0.5 s" in str(timeout.value)
        result = await hover(session, tmp_path / "a.fake")
        assert result["contents"]["value"] == "**fake** hover"
        assert session.pid == pid  # the same process: a slow answer is not a crash

    run(scenario, session)


def test_garbage_on_stdout_is_a_clear_error_then_recovers(tmp_path: Path) -> None:
    session = fake_session(tmp_path, "garbage", "--once", str(tmp_path / "garbled"))

    async def scenario() -> None:
        await session.start()
        first_pid = session.pid
        assert first_pid is not None
        began = time.monotonic()
        with pytest.raises(ServerCrashed) as crash:
            await hover(session, tmp_path / "a.fake")
        assert time.monotonic() - began < 2.0
        assert "fake-ls" in str(crash.value) and "not an LSP header" in str(crash.value)
        # It kept running after the garbage, so the session killed it.
        assert await asyncio.to_thread(wait_dead, first_pid)

        result = await hover(session, tmp_path / "a.fake")
        assert result["contents"]["value"] == "**fake** hover"

    run(scenario, session)


def test_exit_during_initialize_is_a_clear_error(tmp_path: Path) -> None:
    session = fake_session(tmp_path, "exit-during-initialize")

    async def scenario() -> None:
        began = time.monotonic()
        with pytest.raises(ServerCrashed) as crash:
            await session.start()
        assert time.monotonic() - began < 2.0
        assert "fake-ls" in str(crash.value) and "code 2" in str(crash.value)
        assert session.state == "crashed"
        assert "giving up during initialize" in session.log_path.read_text()

    run(scenario, session)


def test_slow_start_within_the_start_timeout_works(tmp_path: Path) -> None:
    session = fake_session(tmp_path, "slow-start", "--delay", "0.5", request_timeout=0.2)

    async def scenario() -> None:
        result = await hover(session, tmp_path / "a.fake")
        assert result["contents"]["value"] == "**fake** hover"

    run(scenario, session)


def test_start_that_takes_too_long_times_out_and_leaves_nothing_running(tmp_path: Path) -> None:
    session = fake_session(tmp_path, "slow-start", "--delay", "30", start_timeout=0.5)

    async def scenario() -> None:
        start = asyncio.create_task(session.start())
        while session.pid is None:
            await asyncio.sleep(0.01)
        pid = session.pid
        with pytest.raises(ServerTimeout, match="fake-ls"):
            await start
        assert session.state == "crashed"
        assert not alive(pid)

    run(scenario, session)


def test_stop_leaves_no_process_of_the_session_alive(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    session = fake_session(tmp_path, "spawn-child", "--pid-file", str(pid_file))
    pids: list[int] = []

    async def scenario() -> None:
        await session.start()
        assert session.pid is not None
        pids.extend([session.pid, int(pid_file.read_text())])
        assert all(alive(pid) for pid in pids)
        assert os.getpgid(pids[1]) == session.pid  # the grandchild is in the server's group

    run(scenario, session)  # stops the session: polite shutdown, then the group is killed
    deadline = time.monotonic() + 2.0
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [pid for pid in pids if alive(pid)] == []
    assert session.pid is None and session.state == "stopped"


def test_a_crash_is_noticed_and_cleaned_up_though_a_grandchild_holds_stdout(
    tmp_path: Path,
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    session = fake_session(tmp_path, "spawn-child,crash-on-hover", "--pid-file", str(pid_file))

    async def scenario() -> None:
        await session.start()
        grandchild = int(pid_file.read_text())
        began = time.monotonic()
        with pytest.raises(ServerCrashed, match="code 3"):
            await hover(session, tmp_path / "a.fake")
        assert time.monotonic() - began < 2.0  # the open stdout does not hide the exit
        deadline = time.monotonic() + 2.0
        while alive(grandchild) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert not alive(grandchild)  # killed with the crashed server's group, not orphaned

    run(scenario, session)


def test_non_ascii_text_crosses_both_ways(tmp_path: Path) -> None:
    session = fake_session(tmp_path, "non-ascii")
    path = tmp_path / "a.fake"
    text = "naïve = 'Grüße 🎉'\nsecond line\n"

    async def scenario() -> None:
        await session.sync_document(path, text, "fake")
        result = await hover(session, path)
        assert (
            result["contents"]["value"] == "Grüße aus Köln — café ☕ 🎉 naïve\nnaïve = 'Grüße 🎉'"
        )

    run(scenario, session)


def test_a_chatty_stderr_never_blocks_the_server(tmp_path: Path) -> None:
    session = fake_session(tmp_path, "chatty-stderr", request_timeout=3.0)

    async def scenario() -> None:
        for _ in range(3):
            result = await hover(session, tmp_path / "a.fake")
            assert result["contents"]["value"] == "**fake** hover"

    run(scenario, session)
    assert session.log_path.stat().st_size >= 14 * 1024 * 1024  # 8 MB + 3 x 2 MB


def test_a_malformed_answer_is_an_error_naming_the_server_and_the_request(
    tmp_path: Path,
) -> None:
    session = fake_session(tmp_path, "malformed-hover")

    async def scenario() -> None:
        with pytest.raises(ServerError) as error:
            await hover(session, tmp_path / "a.fake")
        assert str(error.value).startswith(
            "language server fake-ls answered textDocument/hover with a malformed result "
            "(result.contents is not markdown or marked strings)"
        )
        assert session.state == "ready"  # one bad answer; the server keeps serving

    run(scenario, session)


def test_a_typed_request_sends_its_methods_name_and_answers_checked(tmp_path: Path) -> None:
    session = fake_session(tmp_path, "normal")

    async def scenario() -> None:
        params: shapes.PositionParams = {
            "textDocument": {"uri": (tmp_path / "a.fake").as_uri()},
            "position": {"line": 0, "character": 0},
        }
        result = await session.request(answers.HOVER, params)
        assert result == {"contents": {"kind": "markdown", "value": "**fake** hover"}}

    run(scenario, session)


def test_malformed_pushed_diagnostics_are_an_error_naming_the_server(tmp_path: Path) -> None:
    # Pushed diagnostics arrive as a notification, not an answer: the session checks them
    # where it gives them out, so an operation never indexes a broken range.
    session = fake_session(tmp_path, "malformed-diagnostics")

    async def scenario() -> None:
        document = await session.sync_document(tmp_path / "a.fake", "x = 1\n", "fake")
        with pytest.raises(ServerError) as error:
            await session.diagnostics(document, 5.0)
        assert str(error.value).startswith(
            "language server fake-ls answered textDocument/publishDiagnostics with a malformed "
            "result (result[0].range.start.line is -1, not a line or character number)"
        )
        assert session.state == "ready"

    run(scenario, session)


def test_a_question_during_a_stop_waits_for_it_and_gets_a_new_server(tmp_path: Path) -> None:
    # The daemon stops idle servers on its own; a question arriving meanwhile must start a
    # new process after the stop, never have the stop's cleanup clear the new one.
    session = fake_session(tmp_path, "normal")

    async def scenario() -> None:
        await session.start()
        first = session.pid
        stopping = asyncio.create_task(session.stop())
        await asyncio.sleep(0)  # let the stop begin
        result = await hover(session, tmp_path / "a.fake")
        await stopping
        assert result == {"contents": {"kind": "markdown", "value": "**fake** hover"}}
        assert session.pid not in (None, first) and alive(session.pid)
        assert session.state == "ready"

    run(scenario, session)
