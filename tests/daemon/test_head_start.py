"""The last run's servers started before lspd's imports (daemon/head_start.py): a second
`serve` hands its session the process it started ahead, and the answer of the `python3` shim
it asked ahead; the first `serve` of a workspace those its markers make certain
(head_start_markers.py); what no session asks for is killed, also by a `serve` that never
runs the daemon; nothing of the workspace's own ever starts ahead."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest

from lspd.daemon import head_start
from lspd.dirs import state_dir
from tests.conftest import copy_fixture
from tests.daemon.support import (
    health,
    kill,
    spawn,
    wait_dead,
    wait_for_port,
    wait_for_servers,
)
from tests.lsp.test_interpreter_ask import make_shim, runs


def serve_once(root: Path, state: Path) -> tuple[int, str]:
    """`lspd serve` until its server runs, then SIGTERM: that server's pid, and the log."""
    return serve_with(root, state)[0]["pid"], (state_dir(root) / "daemon.log").read_text()


def serve_with(root: Path, state: Path) -> list[dict[str, object]]:
    """`lspd serve` until its servers run, then SIGTERM: what /health said of them."""
    process = spawn(root, state)
    pids: list[int] = []
    try:
        servers = wait_for_servers(wait_for_port(root))
        pids = [s["pid"] for s in servers]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        assert all(wait_dead(pid) for pid in pids)
    finally:
        kill(process, pids)
    return list(servers)


def test_a_second_serve_takes_the_server_it_started_ahead(root: Path, state: Path) -> None:
    guessed = head_start.remembered(root)  # nothing remembered yet: the markers' start
    first, log = serve_once(root, state)
    assert re.findall(r"started ahead \(pid (\d+)\): taken", log) == [str(first)]
    assert head_start.remembered(root) == guessed  # what the session ran, now remembered
    records = json.loads((state_dir(root) / head_start.FILE).read_text())
    [kept] = [r for r in records if "command" in r]  # and a `python3` shim's question, if any
    assert kept["command"][-2].endswith("/basedpyright/langserver.index.js")
    assert kept["cwd"] == str(root) and str(root) not in json.dumps(kept["env"])
    second, logs = serve_once(root, state)
    log = logs[len(log) :]  # the second serve's
    taken = re.findall(r"started ahead \(pid (\d+)\): taken", log)
    assert taken == [str(second)] and second != first
    assert "not asked for" not in logs


def test_a_second_serve_takes_the_answer_of_the_shim_it_asked_ahead(
    root: Path, state: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session waits for a `python3` shim's answer before `initialized` (0.25-0.35 s
    for pyenv's): the second `serve` asks it beside the server it starts ahead, and its
    session takes that answer instead of asking the shim again."""
    shim = make_shim(tmp_path / "shims", f'exec {sys.executable} "$@"')
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    label = f"python {'.'.join(map(str, sys.version_info[:3]))} {sys.executable}, PATH"
    [first] = serve_with(root, state)
    assert first["toolchain"] == label and runs(shim) == [str(root)]
    kept = json.loads((state_dir(root) / head_start.FILE).read_text())
    assert [r["cwd"] for r in kept if r.get("ask") == str(shim)] == [str(root)]
    [second] = serve_with(root, state)
    assert second["toolchain"] == label
    log = (state_dir(root) / "daemon.log").read_text()
    assert f"{shim} was asked ahead which interpreter it runs: taken" in log
    assert "not asked for" not in log
    assert runs(shim) == [str(root)] * 2  # once per serve: the session did not ask again


def test_a_process_started_ahead_and_not_asked_for_is_killed(
    root: Path, state: Path, tmp_path: Path
) -> None:
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]  # lspd's own Python
    logs = str(state_dir(root) / "logs" / "sleeper.log")
    record = {"command": sleeper, "cwd": str(root), "env": {}, "log_path": logs}
    shim = make_shim(tmp_path / "shims", "exec sleep 60")  # asked with an environment of its own
    ask = {"ask": str(shim), "cwd": str(root), "env": {"LSPD_NOBODY": "1"}}
    state_dir(root).mkdir(parents=True)
    (state_dir(root) / head_start.FILE).write_text(json.dumps([record, ask]))
    served, log = serve_once(root, state)
    [killed] = re.findall(r"a server started ahead \(pid (\d+)\) was not asked for: killed", log)
    assert wait_dead(int(killed)) and int(killed) != served
    [dropped] = re.findall(r"a shim asked ahead \(pid (\d+)\) was not asked for: dropped", log)
    assert wait_dead(int(dropped)) and runs(shim) == [str(root)]
    kept = (state_dir(root) / head_start.FILE).read_text()
    assert "langserver.index.js" in kept and str(shim) not in kept


def test_a_serve_that_never_runs_the_daemon_kills_what_it_started_ahead(
    root: Path, state: Path, tmp_path: Path
) -> None:
    """`close`: a `serve` stopping before its daemon runs (here an unknown agent to sync)
    kills the groups it started ahead, whatever they started (the parent-death signal ends
    only the server itself; its own child would be left running)."""
    child = state_dir(root) / "child.pid"
    forks = ["/bin/sh", "-c", f"sleep 60 & echo $! > {child}; wait"]
    logs = str(state_dir(root) / "logs" / "forks.log")
    record = {"command": forks, "cwd": str(root), "env": {}, "log_path": logs}
    asked = state_dir(root) / "shim.pid"
    shim = make_shim(tmp_path / "shims", f"echo $$ > {asked}; exec sleep 60")
    ask = {"ask": str(shim), "cwd": str(root), "env": {}}
    state_dir(root).mkdir(parents=True)
    (state_dir(root) / head_start.FILE).write_text(json.dumps([record, ask]))
    process = spawn(root, state, "--sync", "no-such-agent")
    try:
        _, err = process.communicate(timeout=60)
        assert process.returncode != 0 and "no-such-agent" in err
        # Written by the time the serve stopped: lspd's imports took longer than sh's start.
        assert child.exists() and asked.exists(), "started ahead, never ran: nothing shown"
        assert wait_dead(int(child.read_text())), "the server's child outlived the serve"
        assert wait_dead(int(asked.read_text())), "the shim asked ahead outlived the serve"
    finally:
        kill(process)  # its group: the shim asked ahead too (so only after the look)


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
        {"ask": str(root / "bin" / "python3"), "cwd": str(root), "env": {}},  # a shim of it
        {"ask": "/usr/bin/python3", "cwd": str(root), "env": {"PATH": f"{root}/bin"}},
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
        {**good, "command": "/bin/true"},
        {**good, "env": {"A": "nul\0"}},
        {**good, "log_path": "/elsewhere/server.log"},
        {"ask": "python3", "cwd": str(root), "env": {}},  # a shim is asked by its path
        {"ask": ["/bin/sh", "-c", "x"], "cwd": str(root), "env": {}},
    ):
        path.write_text(json.dumps([good, bad]))  # one start lspd would not make: none
        assert head_start.remembered(root) == []
    path.write_text(json.dumps([good]))
    path.chmod(0o666)  # writable by others
    assert head_start.remembered(root) == []
    path.chmod(0o644)
    state_dir(root).chmod(0o777)
    assert head_start.remembered(root) == []
    state_dir(root).chmod(0o755)
    assert len(head_start.remembered(root)) == 1


def test_a_first_typescript_serve_takes_the_server_its_markers_started_ahead(
    tmp_path: Path, state: Path
) -> None:
    root = copy_fixture("ts", tmp_path)
    [guessed] = head_start.remembered(root)
    assert guessed.command[-2].endswith("/typescript-language-server/lib/cli.mjs")
    served, log = serve_once(root, state)
    assert re.findall(r"started ahead \(pid (\d+)\): taken", log) == [str(served)]
    assert head_start.remembered(root) == [guessed]


def test_a_first_serve_takes_the_answer_of_the_shim_its_markers_asked(
    root: Path, state: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shim = make_shim(tmp_path / "shims", f'exec {sys.executable} "$@"')
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    label = f"python {'.'.join(map(str, sys.version_info[:3]))} {sys.executable}, PATH"
    [first] = serve_with(root, state)
    assert first["toolchain"] == label
    log = (state_dir(root) / "daemon.log").read_text()
    assert f"{shim} was asked ahead which interpreter it runs: taken" in log
    assert "not asked for" not in log
    assert runs(shim) == [str(root)]  # asked ahead, and the session did not ask again


def test_a_start_the_markers_made_and_prewarm_does_not_share_is_killed(
    tmp_path: Path, state: Path
) -> None:
    """The markers' walk does not read .gitignore: the only Python file ignored, prewarm
    starts no server, and the one started ahead is killed once prewarm has started."""
    root = tmp_path / "ignored"
    (root / "gen").mkdir(parents=True)
    (root / "pyproject.toml").write_text("")
    (root / ".gitignore").write_text("gen/\n")
    (root / "gen" / "x.py").write_text("x = 1\n")
    [started] = head_start.remembered(root)
    process = spawn(root, state)
    try:
        assert health(wait_for_port(root))["servers"] == []
        log = (state_dir(root) / "daemon.log").read_text()
        [killed] = re.findall(r"a server started ahead \(pid (\d+)\) was not asked for", log)
        assert wait_dead(int(killed))
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        kill(process)
    assert not (state_dir(root) / head_start.FILE).exists()  # prewarm started nothing
    assert started.command[-2].endswith("langserver.index.js")


def test_a_serve_that_never_runs_the_daemon_kills_what_its_markers_started(
    root: Path, state: Path
) -> None:
    """`close` as for a remembered start: nothing runs in the workspace once `serve` has
    stopped before its daemon ran (an unknown agent to sync)."""
    process = spawn(root, state, "--sync", "no-such-agent")
    try:
        _, err = process.communicate(timeout=60)
        assert process.returncode != 0 and "no-such-agent" in err
        assert (state_dir(root) / "logs" / "basedpyright.log").exists()  # it was started
        assert all(wait_dead(pid) for pid in running_in(root))
    finally:
        kill(process)


def running_in(root: Path) -> list[int]:
    """The processes whose working directory is `root`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{pid}/cwd") == str(root):
                found.append(int(pid))
    return found
