"""Real agent CLIs take `lspd mcp` as a command: Codex's `codex mcp add … -- lspd mcp`, what
`lspd sync --stdio` writes for Codex and Claude Code, and the MCP Inspector's CLI over stdio.
Each runs with HOME in a temp dir and the venv's `lspd` first on PATH."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .live import Clients, Live, lspd, run, start_daemon

pytestmark = pytest.mark.timeout(600)

BIN = str(Path(sys.executable).parent)
LSPD = str(Path(BIN) / "lspd")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, clients: Clients) -> Iterator[Live]:
    for running in start_daemon(tmp_path_factory.mktemp("stdio"), clients, token=False):
        running.env["PATH"] = f"{BIN}{os.pathsep}{running.env['PATH']}"
        yield running


def test_codex_mcp_add_takes_lspd_mcp(live: Live, clients: Clients) -> None:
    added = run(
        [clients.bin("codex"), "mcp", "add", "lspd", "--", "lspd", "mcp"], live.env, live.root
    )
    assert added.returncode == 0, added.stderr

    listed = run([clients.bin("codex"), "mcp", "list"], live.env, live.root)

    assert listed.returncode == 0, listed.stderr
    row = next(line.split() for line in listed.stdout.splitlines() if line.startswith("lspd "))
    assert row[:3] == ["lspd", "lspd", "mcp"] and "enabled" in row, listed.stdout


def test_codex_reads_what_sync_stdio_writes(live: Live, clients: Clients) -> None:
    synced = lspd(
        "sync", str(live.root), "--agent", "codex", "--stdio", env=live.env, cwd=live.root
    )
    assert synced.returncode == 0, synced.stderr

    shown = run([clients.bin("codex"), "mcp", "get", "lspd", "--json"], live.env, live.root)

    transport = json.loads(shown.stdout)["transport"]
    assert transport["type"] == "stdio"
    assert [transport["command"], *transport["args"]] == [LSPD, "mcp", "--root", str(live.root)]


def test_claude_connects_to_what_sync_stdio_writes(live: Live, clients: Clients) -> None:
    synced = lspd(
        "sync", str(live.root), "--agent", "claude-code", "--stdio", env=live.env, cwd=live.root
    )
    assert synced.returncode == 0, synced.stderr
    assert "claude plugin install lspd@lspd" in synced.stderr  # the preferred way is named

    listed = run([clients.bin("claude"), "mcp", "list"], live.env, live.root)

    assert f"lspd: {LSPD} mcp --root {live.root} - ✔ Connected" in listed.stdout, listed.stdout


def test_the_mcp_inspector_lists_the_tools_over_stdio(live: Live, clients: Clients) -> None:
    argv = [clients.bin("mcp-inspector"), "--cli", "lspd", "mcp", "--root", str(live.root)]

    listed = run([*argv, "--method", "tools/list"], live.env, live.root)

    assert listed.returncode == 0, listed.stdout + listed.stderr
    tools = {tool["name"] for tool in json.loads(listed.stdout)["tools"]}
    assert {"hover", "definition", "references", "diagnostics", "status"} <= tools
