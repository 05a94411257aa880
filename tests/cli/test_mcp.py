"""`lspd mcp`'s workspace: `--root`, the client's project directory, or as every command finds
it; never a daemon for a home directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lspd.cli.mcp import PROJECT_DIR_VARIABLES, workspace


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A served-looking project (its sentinel) with a subdirectory."""
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    (root / ".vscode").mkdir()
    (root / ".vscode" / ".mcp-port").write_text("45678\n")
    return root.resolve()


def test_root_wins(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert workspace(str(project / "sub"), {"CLAUDE_PROJECT_DIR": str(tmp_path)}) == (
        project / "sub"
    )


@pytest.mark.parametrize("variable", ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"])
def test_the_clients_project_directory_is_next_up_to_its_served_root(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert workspace(None, {variable: str(project / "sub")}) == project


def test_else_the_working_directory_as_every_command(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "sub")
    assert workspace(None, {}) == project
    assert workspace(None, {"CLAUDE_PROJECT_DIR": "/does/not/exist"}) == project


def test_no_daemon_is_started_for_a_home_directory(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "LSPD_STATE_DIR": str(tmp_path / "state")}
    for variable in PROJECT_DIR_VARIABLES:
        env.pop(variable, None)
    done = subprocess.run(
        [sys.executable, "-m", "lspd", "mcp"], cwd=home, env=env, input="",
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"lspd mcp: not starting a daemon for {home.resolve()}, which is not a project; start "
        "the client in a project directory, or pass --root DIR\n"
    )
    assert not (home / ".vscode").exists()
