"""The daemon commands as a new user meets them: a second serve, a served parent, a killed
daemon, a git repository kept clean, and errors a script can parse."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd import sentinel
from tests.conftest import copy_fixture
from tests.daemon.support import closed_port, env_for, lock_held, wait_dead

LSPD = str(Path(sys.executable).parent / "lspd")


class Cli:
    """`lspd` run as a user would, with a private state directory."""

    def __init__(self, state: Path) -> None:
        self.state = state

    def __call__(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [LSPD, *args],
            cwd=cwd,
            env=env_for(self.state),
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_fixture("py", tmp_path)


@pytest.fixture
def lspd(tmp_path: Path, root: Path) -> Iterator[Cli]:
    cli = Cli(tmp_path / "state")
    yield cli
    cli("stop", "--root", str(root))


def _serve(lspd: Cli, root: Path, *args: str) -> str:
    done = lspd("serve", "--detach", "--no-prewarm", "--root", str(root), *args)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_a_second_serve_with_other_options_says_so_and_fails(lspd: Cli, root: Path) -> None:
    url = _serve(lspd, root)
    same = lspd("serve", "--detach", "--no-prewarm", "--root", str(root))
    assert same.returncode == 0 and same.stdout.strip() == url
    other = lspd("serve", "--detach", "--root", str(root), "--token", "--idle-timeout", "5")
    assert other.returncode == 1
    assert "--token (it runs without)" in other.stderr
    assert "--idle-timeout 5 (it runs with 1800" in other.stderr
    assert f"lspd stop --root {root}" in other.stderr


def test_serve_inside_a_served_root_answers_with_that_daemon(lspd: Cli, root: Path) -> None:
    url = _serve(lspd, root)
    inner = lspd("serve", "--detach", "--root", str(root / "pkg"))
    assert inner.returncode == 0, inner.stderr
    assert inner.stdout.strip() == url
    assert f"inside {root}" in inner.stderr
    assert not sentinel.port_path(root / "pkg").exists()


def test_a_git_repository_stays_clean_and_vscode_goes_with_the_daemon(
    lspd: Cli, root: Path
) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    commit = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", "commit"]
    subprocess.run([*commit, "-qm", "start"], check=True)
    assert not (root / ".vscode").exists()
    _serve(lspd, root, "--token")
    assert sentinel.port_path(root).is_file() and sentinel.token_path(root).is_file()
    status = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == ""
    assert lspd("stop", "--root", str(root)).returncode == 0
    assert not (root / ".vscode").exists()


def test_stop_after_kill_9_removes_the_stale_sentinel(lspd: Cli, root: Path) -> None:
    _serve(lspd, root)
    health = json.loads(lspd("status", "--root", str(root), "--json").stdout)
    os.kill(health["pid"], signal.SIGKILL)
    assert wait_dead(health["pid"])
    assert sentinel.port_path(root).is_file()
    hover = lspd("hover", "pkg/app.py:1:1", "--json", cwd=root)
    assert hover.returncode == 0
    assert "stale sentinel" in hover.stderr and "in-process" in hover.stderr
    stopped = lspd("stop", "--root", str(root))
    assert stopped.returncode == 0
    assert "removed its stale sentinel" in stopped.stderr
    assert not sentinel.port_path(root).exists()


def _pending(pid: int) -> int:
    """The signals sent to `pid`'s process and not yet taken (a stopped process takes none)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^ShdPnd:\s*([0-9a-f]+)$", status, re.M)[1], 16)  # type: ignore[index]


def test_a_daemon_too_busy_to_answer_is_stopped_not_taken_for_dead(lspd: Cli, root: Path) -> None:
    # A daemon that answers no /health in time (stopped here; a cold check on a loaded
    # machine did it) still holds its lock: `lspd stop` once removed its sentinel as stale
    # and left it running.
    _serve(lspd, root)
    pid = json.loads(lspd("status", "--root", str(root), "--json").stdout)["pid"]
    os.kill(pid, signal.SIGSTOP)
    try:
        status = lspd("status", "--root", str(root))  # asked again for 4 s, said once
        assert (status.returncode, status.stderr) == (
            1,
            f"lspd: the daemon (pid {pid}) did not answer /health within 4 s when asked again"
            " (2 s the first time)\n",
        )
        stopping = subprocess.Popen(
            [LSPD, "stop", "--root", str(root)],
            env=env_for(lspd.state),
            stderr=subprocess.PIPE,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        while not _pending(pid) & 1 << (signal.SIGTERM - 1):  # the stop's SIGTERM, waiting
            assert stopping.poll() is None, stopping.communicate()
            time.sleep(0.02)
    finally:
        os.kill(pid, signal.SIGCONT)
    _, said = stopping.communicate(timeout=60)
    assert (stopping.returncode, said) == (0, f"lspd: stopped the daemon of {root} (pid {pid})\n")
    assert wait_dead(pid) and not sentinel.port_path(root).exists()


def test_a_daemon_whose_port_refuses_is_starting_or_stopping_and_stops(
    lspd: Cli, root: Path
) -> None:
    # Its lock held, its port refusing (not listening yet, or no more): once said to be
    # "too busy to answer /health within 2 s", though the refusal came at once.
    port = closed_port()
    sentinel.write_port(root, port)
    with lock_held(root, lspd.state) as holder:
        said = (
            f"the daemon (pid {holder.pid}) holds its lock but refused the connection on port "
            f"{port}: it is starting or stopping; try again in a moment"
        )
        health = lspd("health", "--root", str(root))
        assert (health.returncode, health.stdout) == (1, f"unhealthy: {said}\n")
        status = lspd("status", "--root", str(root))  # once it waited for it to answer
        assert (status.returncode, status.stderr) == (1, f"lspd: {said}\n")
        stopped = lspd("stop", "--root", str(root))
        assert (stopped.returncode, stopped.stderr) == (
            0,
            f"lspd: stopped the daemon of {root} (pid {holder.pid})\n",
        )
        assert holder.wait(10) == -signal.SIGTERM


def test_json_errors_are_json_on_stdout(lspd: Cli, root: Path) -> None:
    done = lspd("hover", "pkg/missing.py:1:1", "--json", cwd=root)
    assert done.returncode == 2
    assert json.loads(done.stdout) == {
        "error": "pkg/missing.py does not exist; send the path of an existing file",
        "kind": "invalid_input",
    }


def test_every_lspd_toml_mistake_is_reported_at_once(lspd: Cli, root: Path) -> None:
    (root / "lspd.toml").write_text('idle_timout = 1\n[languages.typescript]\nserver = "tsgo"\n')
    done = lspd("serve", "--root", str(root))
    assert done.returncode == 2
    [line] = done.stderr.splitlines()  # one line, each mistake after a `;`
    assert line.startswith("lspd: lspd.toml: ") and line.count("; lspd.toml: ") == 1
    assert "idle_timout: unknown key" in line and "'tsgo' is not a server" in line


def test_a_file_in_another_served_workspace_is_answered_by_its_daemon(
    lspd: Cli, root: Path, tmp_path: Path
) -> None:
    url = _serve(lspd, root)
    port = url.split(":")[2].split("/")[0]
    outside = tmp_path  # the parent of the served root, itself served by nobody
    done = lspd("hover", "py/pkg/app.py:1:1", "--json", cwd=outside)
    assert done.returncode == 0, done.stderr
    assert "in-process" not in done.stderr
    status = json.loads(lspd("status", "--root", str(root), "--json").stdout)
    opened = [s["open_documents"] for s in status["servers"]]
    assert opened and opened[0] >= 1, f"the daemon on port {port} answered the hover"


def test_status_names_each_server_and_the_toolchain_it_runs(lspd: Cli, root: Path) -> None:
    url = _serve(lspd, root)
    assert lspd("hover", "pkg/app.py:1:26", "--json", cwd=root).returncode == 0
    data = json.loads(lspd("status", "--root", str(root), "--json").stdout)
    [server] = data["servers"]
    assert server["toolchain"].startswith("python ") and server["toolchain"].endswith(", PATH")
    text = lspd("status", "--root", str(root)).stdout.splitlines()
    assert text[0].startswith(f"lspd {data['version']} for {root} (pid {data['pid']}, up ")
    assert text[1] == f"  watching {data['watches']} directories"
    assert text[2].startswith(
        f"  python: basedpyright [.] ready pid={server['pid']} open={server['open_documents']} "
    )
    assert text[3] == f"    runs {server['toolchain']}"
    assert text[4] == f"  MCP at {url}"
    assert text[5] == f"  live status page at {url.removesuffix('mcp')}"


# Kept out of `lspd serve` until its first server runs (issue 15.6): each import there is
# time on the cold start to the first answer (pydantic was 34 ms, pathspec 6, tomlkit 5).
NOT_BEFORE_THE_SERVER = (
    "pydantic",  # lspd.toml is checked by plain code
    "tomlkit",  # lspd.agents: only for --sync
    "lspd.agents",
    "http.client",  # never: daemon/loopback.py speaks HTTP to a daemon
    "importlib.metadata",  # server versions: `lspd servers`
    "pathspec",  # only for a .gitignore (the fixture has none)
    "mcp",  # the SDK and uvicorn are imported while the servers start
    "uvicorn",
)
# An audit hook sees each process `lspd serve` starts (no patching); at the server's, it
# prints which of those modules are loaded and ends the run before the server exists.
SERVE_PROBE = """
import os, sys
from pathlib import Path

def started(event, args):
    server = ("basedpyright-langserver", "langserver.index.js")  # its wrapper, or Node on it
    if event == "subprocess.Popen" and any(Path(a).name in server for a in args[1][:2]):
        print(sorted(name for name in {names!r} if name in sys.modules), flush=True)
        os._exit(0)

sys.addaudithook(started)
from lspd.cli import main

main(["serve", {root!r}])
"""


def test_serve_starts_its_server_before_importing_what_the_server_needs_not(
    tmp_path: Path, root: Path
) -> None:
    probe = SERVE_PROBE.format(names=NOT_BEFORE_THE_SERVER, root=str(root))
    done = subprocess.run(
        [sys.executable, "-c", probe],
        env=env_for(tmp_path / "state"),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr
    assert not sentinel.port_path(root).exists()  # it ended before binding


def test_a_foreground_serve_says_when_lspd_stop_ends_it(lspd: Cli, root: Path) -> None:
    # The terminal running `lspd serve` (scripts/serve) learns why it ended.
    serving = subprocess.Popen(
        [LSPD, "serve", "--no-prewarm", "--root", str(root)],
        env=env_for(lspd.state),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert serving.stdout is not None and serving.stdout.readline().startswith("http://")
        assert lspd("stop", "--root", str(root)).returncode == 0
        _, err = serving.communicate(timeout=60)
    finally:
        serving.kill()
    assert serving.returncode == 0
    assert err.splitlines()[-1] == (
        f"lspd: stopped serving {root} (SIGTERM: `lspd stop` or a kill)"
    )


def test_status_json_is_compact_like_every_json(lspd: Cli, root: Path) -> None:
    _serve(lspd, root)
    out = lspd("status", "--root", str(root), "--json").stdout
    assert out.count("\n") == 1 and ": " not in out and json.loads(out)["workspace"] == str(root)
    servers = lspd("servers", "--root", str(root), "--json").stdout
    assert servers.count("\n") == 1 and json.loads(servers)["servers"]


def test_status_open_opens_the_page_where_a_browser_is(
    lspd: Cli, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _serve(lspd, root).removesuffix("mcp")
    for variable in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        monkeypatch.delenv(variable, raising=False)
    none = lspd("status", "--open", "--root", str(root))
    assert none.returncode == 0
    assert none.stderr == f"lspd: no graphical browser here; open {page} in one\n"
    # The browser webbrowser is told of: apt's chromium, headless, keeping the page it loaded.
    dom = tmp_path / "dom.html"
    browser = tmp_path / "browser"
    browser.write_text(
        "#!/bin/sh\nchromium --headless --no-sandbox --disable-gpu --dump-dom"
        f' "$1" > {dom} 2>/dev/null\n'
    )
    browser.chmod(0o755)
    monkeypatch.setenv("BROWSER", str(browser))
    opened = lspd("status", "--open", "--root", str(root))
    assert opened.returncode == 0 and opened.stderr == ""
    assert f"  live status page at {page}\n" in opened.stdout
    assert "<h1>lspd</h1>" in dom.read_text() and 'id="servers"' in dom.read_text()
