"""`python -m lspd serve` as a real process: signals, SIGKILL, stale sentinels, one per root."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from lspd import sentinel
from lspd.daemon import binding
from tests.daemon.support import (
    alive,
    env_for,
    health,
    kill,
    serve_command,
    spawn,
    wait_dead,
    wait_for_port,
    wait_for_servers,
    wait_group_empty,
)


def lspd(state: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lspd", *args],
        env=env_for(state),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_sigterm_removes_the_sentinel_and_stops_servers(root: Path, state: Path) -> None:
    process = spawn(root, state)
    pids: list[int] = []
    try:
        port = wait_for_port(root)
        assert process.stdout is not None
        assert process.stdout.readline().strip() == f"http://127.0.0.1:{port}/mcp"
        servers = wait_for_servers(port)  # prewarm is on by default
        pids = [s["pid"] for s in servers]
        assert [s["server"] for s in servers] == ["basedpyright"]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        assert not sentinel.port_path(root).exists()
        assert all(wait_dead(pid) for pid in pids)
        log = (state / os.listdir(state)[0] / "daemon.log").read_text()
        assert "received SIGTERM" in log
    finally:
        kill(process, pids)


def test_sigint_is_a_clean_shutdown_too(root: Path, state: Path) -> None:
    process = spawn(root, state, "--no-prewarm")
    try:
        wait_for_port(root)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
        assert not sentinel.port_path(root).exists()
    finally:
        kill(process)


def test_sigkill_leaves_no_language_server(root: Path, state: Path) -> None:
    process = spawn(root, state)
    pids: list[int] = []
    try:
        port = wait_for_port(root)
        pids = [s["pid"] for s in wait_for_servers(port)]
        assert pids and all(alive(pid) for pid in pids)
        os.kill(process.pid, signal.SIGKILL)  # the daemon only, not its process group
        process.wait(timeout=10)
        for pid in pids:
            assert wait_dead(pid), f"language server {pid} outlived the daemon"
            # Nothing the server started survives either (basedpyright-langserver runs node).
            assert wait_group_empty(pid), f"process group {pid} outlived the daemon"
        # The sentinel is left behind, and is stale: the next serve replaces it.
        assert sentinel.read_port(root) == port
        assert lspd(state, "health", str(root)).returncode == 1
        successor = spawn(root, state, "--no-prewarm")
        try:
            assert successor.stdout is not None
            url = successor.stdout.readline().strip()  # printed once it listens
            new_port = sentinel.read_port(root)
            assert url == f"http://127.0.0.1:{new_port}/mcp"
            assert health(new_port or 0)["pid"] == successor.pid
        finally:
            kill(successor)
    finally:
        kill(process, pids)


def test_stale_sentinel_is_replaced(root: Path, state: Path) -> None:
    dead = binding.bind(root)  # a port nobody answers on
    stale_port = dead.getsockname()[1]
    dead.close()
    sentinel.write_port(root, stale_port)
    (state / "unused").mkdir(parents=True)
    health_before = lspd(state, "health", str(root))
    assert health_before.returncode == 1
    assert "stale" in health_before.stdout
    process = spawn(root, state, "--no-prewarm")
    try:
        port = wait_for_port(root, not_port=stale_port)
        assert health(port)["workspace"] == str(root)
        assert lspd(state, "health", str(root)).returncode == 0
    finally:
        kill(process)


def test_sentinel_of_another_workspace_is_stale(root: Path, state: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    first = spawn(other, state, "--no-prewarm")
    second: subprocess.Popen[str] | None = None
    try:
        other_port = wait_for_port(other)
        sentinel.write_port(root, other_port)  # e.g. a copied .vscode directory
        second = spawn(root, state, "--no-prewarm")
        port = wait_for_port(root, not_port=other_port)
        assert health(port)["workspace"] == str(root)
    finally:
        kill(first)
        if second is not None:
            kill(second)


def test_two_serves_at_the_same_moment_give_one_daemon(root: Path, state: Path) -> None:
    env = env_for(state)
    command = serve_command(root, "--no-prewarm")
    processes = [
        subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        for _ in range(3)
    ]
    try:
        port = wait_for_port(root)
        url = f"http://127.0.0.1:{port}/mcp"
        # The losers print the winner's URL and exit 0; the winner keeps serving.
        deadline = time.monotonic() + 30
        while sum(p.poll() is None for p in processes) > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        running = [p for p in processes if p.poll() is None]
        assert len(running) == 1
        assert running[0].stdout is not None
        assert running[0].stdout.readline().strip() == url  # every serve prints the same URL
        for loser in processes:
            if loser is running[0]:
                continue
            out, err = loser.communicate(timeout=5)
            assert loser.returncode == 0, err
            assert out.strip() == url
            assert "already serves" in err
        assert health(port)["pid"] == running[0].pid
    finally:
        for process in processes:
            kill(process)


def test_cli_detach_status_health_stop(root: Path, state: Path) -> None:
    assert lspd(state, "health", str(root)).returncode == 1
    started = time.monotonic()
    detached = lspd(state, "serve", str(root), "--detach", "--no-prewarm")
    assert detached.returncode == 0, detached.stderr
    port = sentinel.read_port(root)
    assert detached.stdout.strip() == f"http://127.0.0.1:{port}/mcp"
    assert time.monotonic() - started < 20
    pid = health(port)["pid"]
    try:
        again = lspd(state, "serve", str(root), "--detach")
        assert again.stdout.strip() == detached.stdout.strip()
        # The root is found from a subdirectory through the sentinel.
        status = lspd(state, "status", "--json", cwd=root / "pkg")
        assert status.returncode == 0, status.stderr
        assert json.loads(status.stdout)["workspace"] == str(root)
        text = lspd(state, "status", str(root))
        assert text.stdout.startswith("lspd ") and f" for {root} (pid {pid}, " in text.stdout
        assert text.stdout.endswith(
            f"  MCP at http://127.0.0.1:{port}/mcp\n  live status page at http://127.0.0.1:{port}/\n"
        )
        ok = lspd(state, "health", cwd=root / "pkg")
        assert ok.returncode == 0 and ok.stdout.startswith("ok:")
        stopped = lspd(state, "stop", str(root))
        assert stopped.returncode == 0, stopped.stderr
        assert not alive(pid)
        assert not sentinel.port_path(root).exists()
        gone = lspd(state, "health", str(root))
        assert gone.returncode == 1 and "no daemon" in gone.stdout
        again = lspd(state, "stop", str(root))
        assert again.returncode == 0 and "nothing to stop" in again.stderr
    finally:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_restart_reuses_the_last_port(root: Path, state: Path) -> None:
    first = spawn(root, state, "--no-prewarm")
    try:
        port = wait_for_port(root)
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=20)
    finally:
        kill(first)
    second = spawn(root, state, "--no-prewarm")
    try:
        assert wait_for_port(root) == port
    finally:
        kill(second)
