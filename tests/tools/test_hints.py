"""The environment hint in full once per agent session, then a short flag (real daemon,
basedpyright, the MCP SDK client: legacy sessions and stateless clients)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_types import Implementation

from lspd.tools.hints import SHORT
from tests.daemon.support import thread_daemon

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _environment(client: Client, tool: str, **arguments: Any) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    assert result.structured_content is not None
    return result.structured_content.get("environment")


async def test_the_hint_is_said_once_per_agent_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "proj"\nversion = "0"\n')
    for name in ("a", "b"):
        (root / "pkg" / f"{name}.py").write_text("import not_installed_anywhere\n")
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    with thread_daemon(root, prewarm=False) as daemon:
        async with Client(daemon.url, mode="legacy") as first:
            full = await _environment(first, "diagnostics", path="pkg/a.py")
            assert full.startswith("imports did not resolve with python ")
            assert await _environment(first, "diagnostics", path="pkg/b.py") == SHORT
            assert await _environment(first, "diagnostics", path="pkg/a.py") == SHORT
            assert await _environment(first, "workspace_diagnostics") == [SHORT]
            async with Client(daemon.url, mode="legacy") as second:  # another session
                assert await _environment(second, "diagnostics", path="pkg/b.py") == full
            status = await first.call_tool("status", {})
            assert status.structured_content is not None
            servers = status.structured_content["servers"]
            assert [s.get("environment") for s in servers] == [full]  # always in full
        agent = Implementation(name="stateless-agent", version="1")
        async with Client(daemon.url, client_info=agent) as stateless:
            assert await _environment(stateless, "diagnostics", path="pkg/a.py") == full
            assert await _environment(stateless, "diagnostics", path="pkg/b.py") == SHORT
