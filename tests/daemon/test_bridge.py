"""`lspd mcp` as MCP clients start it: the SDK's stdio client through the bridge to a real
daemon (started by the bridge when none runs), across a daemon restart on another port,
two bridges on one daemon (also two starting it at once), a bridge killed, and a bridge
whose stdin closes (with answers still owed, or none)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from lspd import sentinel
from lspd.daemon import client, finding, instance, wire
from lspd.daemon.bridge import Daemon
from lspd.errors import DaemonError
from tests.daemon.support import alive, hold_on_loop, thread_daemon, wait_dead

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(300)]

HOVER = {"path": "pkg/app.py", "line": 1, "column": 26}
LEGACY = "2025-06-18"


def bridge(root: Path) -> StdioServerParameters:
    """`lspd mcp --root ROOT` as a client starts it (with this test's state directory)."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "lspd", "mcp", "--root", str(root)],
        env=dict(os.environ),
    )


def lspd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lspd", *args], capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def served(root: Path) -> Iterator[Path]:
    """The workspace; whatever daemon serves it at the end is stopped."""
    yield root
    if finding.find_daemon(root) is not None:
        finding.stop(root)


def daemon_pid(root: Path) -> int:
    found = finding.find_daemon(root)
    assert found is not None, finding.probe(root).reason
    return int(found.health["pid"])


def hovered(result: Any) -> str:
    assert not result.is_error, result.content
    return str(result.structured_content["contents"])


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_client_starts_the_bridge_and_the_bridge_the_daemon(
    served: Path, mode: str
) -> None:
    assert finding.find_daemon(served) is None

    async with Client(bridge(served), mode=mode) as mcp:
        tools = {tool.name for tool in (await mcp.list_tools()).tools}
        result = await mcp.call_tool("hover", HOVER)

    assert {"hover", "definition", "references", "status", "preview"} <= tools
    assert "def greet" in hovered(result) or "Greeter" in hovered(result)
    assert finding.find_daemon(served) is not None  # the bridge's end leaves it for others


async def test_progress_notifications_pass_through(root: Path) -> None:
    messages: list[str | None] = []
    reported = asyncio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        messages.append(message)
        reported.set()

    with thread_daemon(root, prewarm=False) as daemon:
        ws = daemon.daemon.ws
        assert ws is not None
        # The call waits for the gate the test holds, so it cannot end before its first
        # report (every second) has come through the bridge: no race with the check's speed.
        release = hold_on_loop(daemon, ws.gate.exclusive)
        held = True
        try:
            async with Client(bridge(root), mode="legacy") as mcp:
                call = asyncio.ensure_future(
                    mcp.call_tool("workspace_diagnostics", {}, progress_callback=on_progress)
                )
                await asyncio.wait_for(reported.wait(), 60)
                release()
                held = False
                result = await call
        finally:
            if held:
                release()

    assert not result.is_error, result.content
    assert messages and all(m and m.endswith(" ...") for m in messages), messages


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_bridge_follows_the_daemon_to_another_port(served: Path, mode: str) -> None:
    assert lspd("serve", str(served), "--detach").returncode == 0
    old_port, old_pid = sentinel.read_port(served), daemon_pid(served)

    async with Client(bridge(served), mode=mode) as mcp:
        before = hovered(await mcp.call_tool("hover", HOVER))
        finding.stop(served)
        with socket.socket() as holder:  # the old port is taken: the new daemon binds another
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            holder.bind(("127.0.0.1", old_port or 0))
            holder.listen()
            restarted = lspd("serve", str(served), "--detach")
        assert restarted.returncode == 0, restarted.stderr
        after = hovered(await mcp.call_tool("hover", HOVER))
        tools = await mcp.list_tools()

    assert after == before and tools.tools
    assert sentinel.read_port(served) != old_port and daemon_pid(served) != old_pid


async def test_a_killed_daemon_is_started_again_by_the_bridge(served: Path) -> None:
    async with Client(bridge(served), mode="legacy") as mcp:
        before = hovered(await mcp.call_tool("hover", HOVER))
        killed = daemon_pid(served)
        os.kill(killed, signal.SIGKILL)
        assert wait_dead(killed)
        after = hovered(await mcp.call_tool("hover", HOVER))

    assert after == before and daemon_pid(served) != killed


async def test_two_bridges_share_one_daemon(served: Path) -> None:
    async with Client(bridge(served), mode="legacy") as one, Client(bridge(served)) as two:
        first, second = await asyncio.gather(
            one.call_tool("hover", HOVER), two.call_tool("hover", HOVER)
        )
        serving = daemons_of(served)

    assert hovered(first) == hovered(second)
    assert serving == [daemon_pid(served)]


def piped(root: Path, *calls: dict[str, Any]) -> tuple[subprocess.Popen[bytes], bytes]:
    """`lspd mcp --root ROOT` started (it looks for the daemon at once), and the lines of
    stateless calls to pipe into it (`printf '<call>\\n' | lspd mcp`)."""
    capabilities = "io.modelcontextprotocol/clientCapabilities"
    meta = {wire.PROTOCOL_META: client.PROTOCOL_VERSION, capabilities: {}}
    lines = [
        {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {**call, "_meta": meta}}
        for i, call in enumerate(calls, 1)
    ]
    process = subprocess.Popen(
        [*bridge(root).command.split(), *bridge(root).args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    return process, b"".join(json.dumps(m).encode() + b"\n" for m in lines)


def test_two_bridges_started_at_once_on_an_unserved_root_share_one_daemon(
    served: Path,
) -> None:
    assert finding.find_daemon(served) is None
    racing = [piped(served, {"name": "hover", "arguments": HOVER}) for _ in range(2)]

    answers = []
    for process, lines in racing:
        out, err = process.communicate(lines, timeout=180)
        assert process.returncode == 0, err
        [answer] = [json.loads(line) for line in out.splitlines()]
        answers.append(answer)

    assert [a.get("error") for a in answers] == [None, None], answers
    assert answers[0]["result"] == answers[1]["result"]
    assert daemons_of(served) == [daemon_pid(served)]


def test_a_start_lost_to_another_waits_for_the_winners_daemon(
    served: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loser of the race as `spawn_detached` meets it (its `serve` exits non-zero at
    once, before the winner answers): a double, as the timing cannot be provoked at will."""
    winner: list[subprocess.Popen[str]] = []

    def lost(options: object, timeout: float = 60.0) -> str:
        argv = [sys.executable, "-m", "lspd", "serve", str(served), "--detach", "--no-prewarm"]
        winner.append(subprocess.Popen(argv, stdout=subprocess.PIPE, text=True))
        raise DaemonError("the daemon exited with code 1: another lspd holds the lock")

    monkeypatch.setattr(instance, "spawn_detached", lost)

    found = asyncio.run(Daemon(served).get())

    assert winner[0].wait(60) == 0
    assert found.url == finding.find_daemon(served).url  # type: ignore[union-attr]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_daemon_in_token_mode_is_reached_with_its_token_also_a_new_one(
    served: Path, mode: str
) -> None:
    assert lspd("serve", str(served), "--detach", "--token").returncode == 0
    token = sentinel.read_token(served)

    async with Client(bridge(served), mode=mode) as mcp:
        before = hovered(await mcp.call_tool("hover", HOVER))
        finding.stop(served)
        assert lspd("serve", str(served), "--detach", "--token").returncode == 0
        after = hovered(await mcp.call_tool("hover", HOVER))

    assert after == before and sentinel.read_token(served) not in (None, token)


def daemons_of(root: Path, command: bytes = b"serve") -> list[int]:
    """The pids of the `lspd serve` (or `lspd mcp`) processes of `root`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if command in argv and str(root).encode() in argv and alive(int(pid)):
            found.append(int(pid))
    return found


def children(pid: int) -> list[int]:
    out = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == pid and stat[0] not in ("Z", "X"):
            out.append(int(entry))
    return out


def send(pipe: IO[bytes], message: dict[str, Any]) -> None:
    pipe.write(json.dumps(message).encode() + b"\n")
    pipe.flush()


def receive(pipe: IO[bytes], request_id: int) -> dict[str, Any]:
    """The response to `request_id` (notifications before it skipped)."""
    while line := pipe.readline():
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == request_id:
            return message
    raise AssertionError("the bridge closed stdout before answering")


def started_bridge(root: Path) -> subprocess.Popen[bytes]:
    """A bridge spoken to line by line, after a handshake and one call."""
    process = subprocess.Popen(
        [*bridge(root).command.split(), *bridge(root).args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    info = {"name": "test", "version": "1"}
    init = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": info}
    send(process.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
    assert receive(process.stdout, 1)["result"]["protocolVersion"] == LEGACY
    send(process.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    call = {"name": "hover", "arguments": HOVER}
    send(process.stdin, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
    assert "structuredContent" in receive(process.stdout, 2)["result"]
    return process


def test_kill_9_of_the_bridge_leaves_the_daemon_healthy(served: Path) -> None:
    process = started_bridge(served)

    process.kill()
    process.wait(10)

    healthy = lspd("health", "--root", str(served))
    assert healthy.returncode == 0, healthy.stdout
    answer = client.call_tool(served, "hover", HOVER)
    assert answer is not None and answer["contents"]


def test_closing_stdin_ends_the_bridge_and_no_orphan_remains(served: Path) -> None:
    process = started_bridge(served)
    daemon = daemon_pid(served)
    assert children(process.pid) == [daemon]  # the daemon it started, nothing else

    assert process.stdin is not None and process.stdout is not None
    process.stdin.close()

    assert process.wait(10) == 0
    assert process.stdout.read() == b""
    assert not alive(process.pid)
    assert alive(daemon) and finding.find_daemon(served) is not None
    assert daemons_of(served, b"mcp") == []


@pytest.mark.parametrize("era", ["legacy", "stateless"])
def test_the_answers_owed_when_stdin_ends_are_printed(served: Path, era: str) -> None:
    """`printf '<call>\\n' | lspd mcp`: stdin ends long before the daemon (started by the
    bridge, its server cold) answers; the answer is still written, then the bridge ends."""
    call: dict[str, Any] = {"name": "hover", "arguments": HOVER}
    if era == "stateless":
        capabilities = "io.modelcontextprotocol/clientCapabilities"
        call["_meta"] = {wire.PROTOCOL_META: client.PROTOCOL_VERSION, capabilities: {}}
        messages = []
    else:
        info = {"name": "test", "version": "1"}
        init = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": info}
        messages = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
        ]
    messages.append({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
    piped = "".join(json.dumps(m) + "\n" for m in messages).encode()
    assert finding.find_daemon(served) is None

    ended = subprocess.run(
        [*bridge(served).command.split(), *bridge(served).args],
        input=piped,
        capture_output=True,
        timeout=180,
    )

    assert ended.returncode == 0, ended.stderr
    answers = {m.get("id"): m for m in map(json.loads, ended.stdout.splitlines())}
    assert "result" in answers[2], answers
    assert "Greeter" in str(answers[2]["result"]["structuredContent"]["contents"])
    if era == "legacy":
        assert answers[1]["result"]["protocolVersion"] == LEGACY
