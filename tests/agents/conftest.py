"""Fixtures for agent wiring: a throwaway HOME and a workspace with a daemon sentinel."""

from __future__ import annotations

from pathlib import Path

import pytest

from .live import Clients, install_clients

PORT = 45678
URL = f"http://127.0.0.1:{PORT}/mcp"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME in a temp dir, so no test ever reads or writes the real ~/.claude.json."""
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace whose sentinel says a daemon listens on PORT."""
    path = tmp_path / "workspace"
    (path / ".vscode").mkdir(parents=True)
    (path / ".vscode" / ".mcp-port").write_text(f"{PORT}\n")
    return path.resolve()


@pytest.fixture(scope="session")
def clients() -> Clients:
    """Claude Code, Codex and the MCP Inspector from npm (installed once, then cached)."""
    return install_clients()
