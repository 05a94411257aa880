"""Faults through the real daemon over MCP: a server that crashes, hangs, babbles, starts
slowly or dies in `initialize`; a `.vscode/` that cannot take the sentinel.

Each fault gives a tool error naming the server, and the next call is answered. The
daemon's own deaths (SIGKILL, two `serve` at once) are in tests/daemon/test_process.py.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from lspd import sentinel
from lspd.lsp import diagnostics
from lspd.tools import server as tools_server
from tests.daemon.support import env_for, health, thread_daemon, wait_group_empty
from tests.stress.conftest import SCRIPTED, SOURCE, ScriptedServer
from tests.tools.calls import text_of

pytestmark = pytest.mark.anyio

HOVER = {"path": SOURCE, "line": 1, "column": 4}
ANSWER = "**fake** hover"


def scripted_state(port: int) -> dict[str, Any]:
    (server,) = [s for s in health(port)["servers"] if s["server"] == SCRIPTED]
    return server


async def answered(client: Client) -> None:
    result = await client.call_tool("hover", HOVER)
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    assert result.structured_content["contents"] == ANSWER


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        ("crash-on-hover", "exited with code 3"),  # half an answer, then exit
        ("garbage", "not an LSP header"),  # a traceback on stdout instead of LSP
        ("exit-during-initialize", "exited with code 2"),
    ],
)
async def test_a_server_that_dies_is_named_and_restarted_by_the_next_call(
    scripted_server: ScriptedServer, mode: str, says: str
) -> None:
    root = scripted_server(mode)
    with thread_daemon(root, prewarm=False) as daemon:
        async with Client(daemon.url) as client:
            began = time.monotonic()
            failed = await client.call_tool("hover", HOVER)
            assert time.monotonic() - began < 10  # at once, not after a request timeout
            assert failed.is_error
            message = text_of(failed)
            assert SCRIPTED in message and says in message, message
            assert ".log" in message  # where to read what the server said
            await answered(client)
        server = scripted_state(daemon.daemon.port or 0)
        assert server["state"] == "ready" and server["pid"]


async def test_a_hung_server_times_out_with_its_name_and_then_answers(
    scripted_server: ScriptedServer,
) -> None:
    root = scripted_server("hang-on-hover")
    with thread_daemon(root, prewarm=False) as daemon:
        assert daemon.daemon.ws is not None
        daemon.daemon.ws.request_timeout = 1.0
        async with Client(daemon.url) as client:
            began = time.monotonic()
            failed = await client.call_tool("hover", HOVER)
            assert 1.0 <= time.monotonic() - began < 10
            assert failed.is_error
            message = text_of(failed)
            assert f"{SCRIPTED} timed out" in message, message
            pid = scripted_state(daemon.daemon.port or 0)["pid"]
            await answered(client)
            # A slow answer is not a crash: the same process answers.
            assert scripted_state(daemon.daemon.port or 0)["pid"] == pid


async def test_a_file_whose_diagnostics_are_not_sent_on_open_is_sent_again(
    scripted_server: ScriptedServer,
) -> None:
    root = scripted_server("silent-open")
    with thread_daemon(root, prewarm=False) as daemon:
        async with Client(daemon.url) as client:
            began = time.monotonic()
            result = await client.call_tool("diagnostics", {"path": SOURCE})
            took = time.monotonic() - began
            assert not result.is_error, text_of(result)
            assert result.structured_content is not None
            assert result.structured_content["total"] == 0
            assert diagnostics.NUDGE_AFTER_S <= took < 20  # its next version, not a timeout


async def test_a_slow_start_reports_progress_then_answers(
    scripted_server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tools_server, "PROGRESS_INTERVAL_S", 0.2)
    root = scripted_server("slow-start", "--delay", "2")
    messages: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")

    with thread_daemon(root, prewarm=False) as daemon:
        async with Client(daemon.url) as client:
            began = time.monotonic()
            result = await client.call_tool("hover", HOVER, progress_callback=on_progress)
            assert time.monotonic() - began >= 2.0
            assert not result.is_error, text_of(result)
            assert any(f"{SCRIPTED} is starting" in m for m in messages), messages
            await answered(client)


# -- a .vscode/ that cannot take the sentinel ------------------------------------------------


@contextlib.contextmanager
def tmpfs(path: Path, options: str) -> Iterator[None]:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], check=True)
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


@contextlib.contextmanager
def unwritable(vscode: Path, how: str) -> Iterator[str]:
    """`.vscode/` read-only or full, for real; yields the error the OS gives.

    As root (CI containers) these are tmpfs mounts: read-only, or 4 kB already filled. A user
    who cannot mount gets a directory without write permission, or a file where the
    directory should be.
    """
    if os.geteuid() == 0:
        if how == "read-only":
            with tmpfs(vscode, "ro,size=4k"):
                yield "Read-only file system"
        else:
            with tmpfs(vscode, "size=4k"):
                (vscode / "filler").write_bytes(b"\0" * 4096)
                yield "No space left on device"
    elif how == "read-only":
        vscode.mkdir()
        vscode.chmod(0o555)
        try:
            yield "Permission denied"
        finally:
            vscode.chmod(0o755)
    else:
        vscode.write_text("not a directory\n")
        yield "File exists"


@pytest.mark.parametrize("how", ["read-only", "full"])
def test_a_vscode_dir_that_cannot_take_the_sentinel_stops_serve_with_a_clear_error(
    root: Path, state: Path, how: str
) -> None:
    with unwritable(root / ".vscode", how) as reason:
        process = subprocess.Popen(
            [sys.executable, "-m", "lspd", "serve", str(root)],
            env=env_for(state),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            out, err = process.communicate(timeout=60)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 9)
    assert process.returncode == 2, err
    assert out == ""  # no URL: no client may be sent to a daemon nobody can find
    assert err.startswith("lspd: cannot write "), err
    assert str(sentinel.port_path(root)) in err and reason in err, err
    assert "writable" in err and "Traceback" not in err
    assert wait_group_empty(process.pid), "the failed start left a process behind"


@pytest.mark.parametrize("how", ["read-only", "full"])
def test_serve_detach_reports_the_same_error(root: Path, state: Path, how: str) -> None:
    with unwritable(root / ".vscode", how) as reason:
        detached = subprocess.run(
            [sys.executable, "-m", "lspd", "serve", str(root), "--detach", "--no-prewarm"],
            env=env_for(state),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert detached.returncode == 2 and detached.stdout == ""
    assert "the daemon exited with code 2: cannot write" in detached.stderr, detached.stderr
    assert reason in detached.stderr and "daemon.out" in detached.stderr
