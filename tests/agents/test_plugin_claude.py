"""The real `claude` CLI installs lspd's plugin from a clone: marketplace add, plugin install,
its server connected (`lspd mcp`), its hooks answering as those of `lspd sync --hooks`, and
nothing left after the uninstall. Also `codex mcp add lspd -- lspd mcp`, and the MCP
Inspector's CLI listing the tools over stdio. Each CLI runs with HOME in a temp dir and the
venv's `lspd` first on PATH (as `uv tool install` puts it there)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from lspd.daemon import finding

from .live import FIXTURE, REPO, Clients, client_env, run

pytestmark = pytest.mark.timeout(600)

BIN = str(Path(sys.executable).parent)
BROKEN_CALL = 'pkg/app.py:5:15: Argument missing for parameter "loud" [reportCallIssue]'


@dataclass(frozen=True)
class Installed:
    """A HOME where the plugin is installed from `clone`, and a git workspace to work in."""

    home: Path
    clone: Path
    root: Path
    env: dict[str, str]
    clients: Clients

    def claude(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        done = run([self.clients.bin("claude"), *args], self.env, cwd or self.root)
        assert done.returncode == 0, done.stdout + done.stderr
        return done


def git(root: Path, *args: str) -> str:
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    done = subprocess.run(["git", "-C", str(root), *author, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def committed(root: Path) -> Path:
    """A copy of the Python fixture, committed to git."""
    shutil.copytree(FIXTURE, root)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root.resolve()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, clients: Clients) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("plugin")
    clone = base / "clone"  # what a user clones: the marketplace file and the plugin
    for part in (".claude-plugin", "plugin"):
        shutil.copytree(REPO / part, clone / part)
    root = committed(base / "workspace")
    home = base / "home"
    home.mkdir()
    env = client_env(home, clients)
    env["PATH"] = f"{BIN}{os.pathsep}{env['PATH']}"
    done = Installed(home, clone, root, env, clients)
    done.claude("plugin", "marketplace", "add", str(clone))
    done.claude("plugin", "install", "lspd@lspd")
    try:
        yield done
    finally:
        subprocess.run([sys.executable, "-m", "lspd", "stop", str(root)], env=env, check=False)


def test_the_plugin_installs_from_a_clone_with_its_server_hooks_and_skill(
    installed: Installed,
) -> None:
    listed = installed.claude("plugin", "list").stdout
    assert "lspd@lspd" in listed and "✔ enabled" in listed, listed

    details = installed.claude("plugin", "details", "lspd@lspd").stdout

    inventory = {
        line.split()[0]: line.split(maxsplit=2)[2] for line in details.splitlines()
        if line.startswith("  ") and "(" in line and line.split()[0] in ("Skills", "Hooks", "MCP")
    }  # fmt: skip
    assert inventory["Skills"].startswith("lspd"), details
    assert inventory["Hooks"].startswith("PostToolUse, Stop"), details
    assert "lspd" in inventory["MCP"], details


def test_claude_connects_to_the_plugins_server(installed: Installed) -> None:
    listed = installed.claude("mcp", "list").stdout

    line = next(x for x in listed.splitlines() if x.startswith("plugin:lspd:lspd:"))
    assert line.endswith("bin/lspd mcp - ✔ Connected"), listed
    # `lspd mcp` started the daemon of the project Claude runs in, and left it running.
    assert finding.find_daemon(installed.root) is not None


def plugin_hooks(installed: Installed) -> tuple[Path, dict[str, Any]]:
    """Where Claude installed the plugin, and the hooks it reads there."""
    record = json.loads((installed.home / ".claude/plugins/installed_plugins.json").read_text())
    path = Path(record["plugins"]["lspd@lspd"][0]["installPath"])
    return path, json.loads((path / "hooks" / "hooks.json").read_text())["hooks"]


def answer(command: str, payload: dict[str, Any], env: dict[str, str], root: Path) -> Any:
    """Run a hook command as Claude does (a shell, the payload on stdin); its answer."""
    done = subprocess.run(
        ["sh", "-c", command], input=json.dumps(payload), env=env, cwd=root,
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return json.loads(done.stdout) if done.stdout else None


def test_the_installed_hooks_answer_as_those_of_sync_hooks(
    installed: Installed, tmp_path: Path
) -> None:
    root = committed(tmp_path / "workspace")
    lspd = [sys.executable, "-m", "lspd"]
    served = subprocess.run([*lspd, "serve", str(root), "--detach"], env=installed.env)
    assert served.returncode == 0
    try:
        check_hooks(installed, root)
    finally:
        subprocess.run([*lspd, "stop", str(root)], env=installed.env, check=False)


def check_hooks(installed: Installed, root: Path) -> None:
    path, hooks = plugin_hooks(installed)
    synced = subprocess.run(
        [sys.executable, "-m", "lspd", "sync", str(root), "--agent", "claude-code", "--hooks"],
        env=installed.env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "plugin" in synced.stdout + synced.stderr  # sync names the plugin as the way
    settings = json.loads((root / ".claude" / "settings.local.json").read_text())["hooks"]
    env = {**installed.env, "CLAUDE_PLUGIN_ROOT": str(path), "CLAUDE_PROJECT_DIR": str(root),
           "LSPD_HOOK_TIMEOUT": "60", "LSPD_STOP_TIMEOUT": "60"}  # fmt: skip
    greeting = root / "pkg" / "greeting.py"
    greeting.write_text(
        greeting.read_text().replace(
            "(name: str) -> Greeter:", "(name: str, loud: bool) -> Greeter:"
        )
    )
    answers: dict[str, list[Any]] = {}
    for who, found, session in (("plugin", hooks, "p"), ("sync", settings, "s")):
        edited = {
            "session_id": session, "cwd": str(root), "hook_event_name": "PostToolUse",
            "tool_name": "Edit", "tool_input": {"file_path": str(greeting)},
            "tool_response": {"filePath": str(greeting), "success": True},
        }  # fmt: skip
        stopping = {"session_id": session, "cwd": str(root), "hook_event_name": "Stop",
                    "stop_hook_active": False}  # fmt: skip
        post = found["PostToolUse"][0]["hooks"][0]["command"]
        stop = found["Stop"][0]["hooks"][0]["command"]
        answers[who] = [answer(post, edited, env, root), answer(stop, stopping, env, root)]

    assert answers["plugin"] == answers["sync"]
    after_edit, at_stop = answers["plugin"]
    assert after_edit["decision"] == "block" and BROKEN_CALL in after_edit["reason"]
    assert at_stop["decision"] == "block" and "before you finish" in at_stop["reason"]


def test_uninstalling_leaves_nothing_behind(installed: Installed) -> None:
    installed.claude("plugin", "uninstall", "lspd@lspd")
    installed.claude("plugin", "marketplace", "remove", "lspd")

    assert "lspd" not in installed.claude("plugin", "list").stdout
    assert "plugin:lspd" not in installed.claude("mcp", "list").stdout
    plugins = installed.home / ".claude" / "plugins"
    assert json.loads((plugins / "installed_plugins.json").read_text())["plugins"] == {}
    assert json.loads((plugins / "known_marketplaces.json").read_text()) == {}
    settings = json.loads((installed.home / ".claude" / "settings.json").read_text())
    assert settings.get("enabledPlugins", {}) == settings.get("extraKnownMarketplaces", {}) == {}
    # Claude keeps its copy until it collects it, marked orphaned: nothing of it runs.
    copies = list((plugins / "cache").glob("lspd/lspd/*"))
    assert all((copy / ".orphaned_at").exists() for copy in copies)
    # The plugin wrote nothing into the project; the daemon's sentinel goes with the daemon.
    stopped = subprocess.run([sys.executable, "-m", "lspd", "stop", str(installed.root)],
                             env=installed.env, capture_output=True, text=True)  # fmt: skip
    assert stopped.returncode == 0, stopped.stderr
    assert git(installed.root, "status", "--porcelain", "--ignored") == ""
