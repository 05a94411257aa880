"""The last run's servers started before lspd's imports (daemon/head_start.py): a second
`serve` hands its session the process it started ahead; one no session asks for is killed;
nothing of the workspace's own ever starts ahead."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path

from lspd.daemon import head_start
from lspd.dirs import state_dir
from tests.daemon.support import kill, spawn, wait_dead, wait_for_port, wait_for_servers


def serve_once(root: Path, state: Path) -> tuple[int, str]:
    """`lspd serve` until its server runs, then SIGTERM: that server's pid, and the log."""
    process = spawn(root, state)
    pids: list[int] = []
    try:
        pids = [s["pid"] for s in wait_for_servers(wait_for_port(root))]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        assert all(wait_dead(pid) for pid in pids)
    finally:
        kill(process, pids)
    return pids[0], (state_dir(root) / "daemon.log").read_text()


def test_a_second_serve_takes_the_server_it_started_ahead(root: Path, state: Path) -> None:
    first, log = serve_once(root, state)
    assert "started ahead" not in log  # nothing was remembered yet
    [kept] = json.loads((state_dir(root) / head_start.FILE).read_text())
    assert kept["command"][-2].endswith("/basedpyright/langserver.index.js")
    assert kept["cwd"] == str(root) and str(root) not in json.dumps(kept["env"])
    second, log = serve_once(root, state)
    taken = re.findall(r"started ahead \(pid (\d+)\): taken", log)
    assert taken == [str(second)] and second != first
    assert "not asked for" not in log


def test_a_process_started_ahead_and_not_asked_for_is_killed(root: Path, state: Path) -> None:
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]  # lspd's own Python
    logs = str(state_dir(root) / "logs" / "sleeper.log")
    record = {"command": sleeper, "cwd": str(root), "env": {}, "log_path": logs}
    state_dir(root).mkdir(parents=True)
    (state_dir(root) / head_start.FILE).write_text(json.dumps([record]))
    served, log = serve_once(root, state)
    [killed] = re.findall(r"a server started ahead \(pid (\d+)\) was not asked for: killed", log)
    assert wait_dead(int(killed)) and int(killed) != served
    assert "langserver.index.js" in (state_dir(root) / head_start.FILE).read_text()


def test_nothing_of_the_workspace_starts_ahead(root: Path) -> None:
    logs = str(state_dir(root) / "logs" / "server.log")
    outside = {"command": ["/bin/true"], "cwd": str(root), "env": {"A": "1"}, "log_path": logs}
    state_dir(root).mkdir(parents=True)
    path = state_dir(root) / head_start.FILE
    path.write_text(json.dumps([outside]))
    [spawn_] = head_start.remembered(root)
    assert (spawn_.command, dict(spawn_.env)) == (("/bin/true",), {**os.environ, "A": "1"})
    for inside in (
        {**outside, "command": [str(root / ".venv" / "bin" / "server")]},
        {**outside, "env": {"NODE_OPTIONS": f"--require {root}/x.js"}},
    ):
        path.write_text(json.dumps([outside, inside]))
        assert head_start.remembered(root) == []
    path.write_text(json.dumps([outside]))
    (root / "lspd.toml").write_text("")  # its servers' entries are the repository's code
    assert head_start.remembered(root) == []


def test_only_a_file_of_starts_this_user_alone_wrote_and_lspd_would_make_is_run(
    root: Path,
) -> None:
    """A command read from the file is run: a review showed a file others can write (a
    shared LSPD_STATE_DIR) or one naming a log anywhere (its folder made) start ahead."""
    logs = str(state_dir(root) / "logs" / "server.log")
    good = {"command": ["/bin/true"], "cwd": str(root), "env": {}, "log_path": logs}
    state_dir(root).mkdir(parents=True)
    path = state_dir(root) / head_start.FILE
    path.write_text(json.dumps([good]))
    assert len(head_start.remembered(root)) == 1
    for bad in (
        {**good, "command": []},
        {**good, "env": {"A": "nul\0"}},
        {**good, "log_path": "/elsewhere/server.log"},
    ):
        path.write_text(json.dumps([bad]))
        assert head_start.remembered(root) == []
    path.write_text(json.dumps([good]))
    path.chmod(0o666)  # writable by others
    assert head_start.remembered(root) == []
    path.chmod(0o644)
    state_dir(root).chmod(0o777)
    assert head_start.remembered(root) == []
    state_dir(root).chmod(0o755)
    assert len(head_start.remembered(root)) == 1
