"""`lspd serve --sync AGENTS` writes the new URL into the agents' configs after the bind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lspd.daemon import finding
from tests.conftest import copy_fixture


def lspd(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lspd", *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_serve_sync_writes_the_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_fixture("py", tmp_path)
    env = {**os.environ, "HOME": str(tmp_path / "home"), "LSPD_STATE_DIR": str(tmp_path / "st")}
    (tmp_path / "home").mkdir()
    started = lspd("serve", str(root), "--detach", "--no-prewarm", "--sync", "vscode", env=env)
    assert started.returncode == 0, started.stderr
    url = started.stdout.strip().splitlines()[-1]
    try:
        config = root / ".vscode" / "mcp.json"
        for _ in range(100):
            if config.exists():
                break
            time.sleep(0.1)
        assert json.loads(config.read_text())["servers"]["lspd"]["url"] == url
    finally:
        monkeypatch.setenv("LSPD_STATE_DIR", env["LSPD_STATE_DIR"])
        finding.stop(root)


def test_serve_sync_refuses_an_unknown_agent(tmp_path: Path) -> None:
    root = copy_fixture("py", tmp_path)
    env = {**os.environ, "LSPD_STATE_DIR": str(tmp_path / "st")}
    result = lspd("serve", str(root), "--sync", "notepad", env=env)
    assert result.returncode == 2
    assert "unknown agent 'notepad'" in result.stderr and "vscode" in result.stderr
