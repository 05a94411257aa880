"""Installing a server on first need (`servers/install.py`): one install into an npm prefix
at a time, and a server lspd's cache already holds starts even where lspd cannot write
the lock file beside it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from lspd.servers.install import install_on_need
from lspd.servers.registry import ServerDefinition


def _server(requires: Path) -> ServerDefinition:
    """An npm server whose script is `requires` (run by this Python: no Node needed)."""
    return ServerDefinition(
        "demo",
        "python",
        (sys.executable, str(requires)),
        {".py": "python"},
        install={"npm": ("demo@1.0.0",)},
        requires=(str(requires),),
        npm_prefix="npm-demo",
    )


def test_a_server_present_in_a_cache_lspd_cannot_write_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache is a file here: its prefix cannot be made, so no lock file either. The
    server is there (its script exists): nothing to install, no error."""
    script = tmp_path / "server.py"
    script.write_text("")
    (tmp_path / "cache").write_text("not a folder")
    monkeypatch.setenv("LSPD_CACHE_DIR", str(tmp_path / "cache"))
    asyncio.run(install_on_need(_server(script)))


def test_the_lock_file_is_made_in_the_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "server.py"
    script.write_text("")
    monkeypatch.setenv("LSPD_CACHE_DIR", str(tmp_path / "cache"))
    asyncio.run(install_on_need(_server(script)))
    assert (tmp_path / "cache" / "npm-demo" / ".lspd-install.lock").is_file()
