"""The test session's own folders (tests/conftest.py): what a daemon started by a test keeps
goes under the session's temp dir, never into the user's cache (review R6: the tests read and
wrote the MCP answers kept in ~/.cache/lspd/mcp-wire)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lspd.daemon import kept_wire
from lspd.dirs import cache_dir
from tests.conftest import copy_fixture


def lspd(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lspd", *args], env=env, capture_output=True, text=True, timeout=120
    )


def test_the_session_keeps_the_mcp_answers_in_a_folder_of_its_own() -> None:
    session = Path(os.environ["LSPD_WIRE_DIR"])
    assert kept_wire.folder() == session
    assert not session.is_relative_to(cache_dir())
    assert not session.is_relative_to(Path.home())


def test_a_daemon_a_test_starts_keeps_its_answers_there_and_leaves_the_users_cache_alone(
    tmp_path: Path,
) -> None:
    session = Path(os.environ["LSPD_WIRE_DIR"])
    home = tmp_path / "home"  # the daemon's user: its cache would be home/.cache/lspd
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "LSPD_CACHE_DIR")}
    env["HOME"] = str(home)
    root = copy_fixture("py", tmp_path)
    before = {p.name: p.stat().st_mtime_ns for p in session.glob("*.json")}
    served = lspd("serve", str(root), "--detach", "--no-prewarm", env=env)
    assert served.returncode == 0, served.stderr
    try:
        healthy = lspd("health", str(root), env=env)  # MCP tools/list, as an agent's first
        assert (healthy.returncode, "MCP tools/list" in healthy.stdout) == (0, True)
    finally:
        stopped = lspd("stop", str(root), env=env)
    assert stopped.returncode == 0, stopped.stderr
    # Its copy (under its key: lspd's files then) read, so touched, or written there.
    kept = [p for p in session.glob("*.json") if before.get(p.name) != p.stat().st_mtime_ns]
    assert [json.loads(p.read_text())["key"] for p in kept] == [p.stem for p in kept] != []
    assert not (home / ".cache" / "lspd").exists()
