"""Never stale through the real daemon: files written, then asked about at once over MCP."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from tests.daemon.support import ThreadDaemon

pytestmark = pytest.mark.anyio


async def errors(client: Client, path: str) -> int:
    result = await client.call_tool("diagnostics", {"path": path})
    assert not result.is_error and result.structured_content is not None
    assert "fresh" not in result.structured_content  # left out: it holds its default, true
    return int(result.structured_content["errors"])


async def test_written_files_are_answered_as_they_are_now(served: ThreadDaemon, root: Path) -> None:
    callee, caller = root / "pkg" / "mcp_lib.py", root / "pkg" / "mcp_caller.py"
    callee.write_text("def f(a: int) -> int:\n    return a\n")
    caller.write_text("from pkg.mcp_lib import f\n\nf(1)\n")
    async with Client(served.url) as client:
        assert await errors(client, "pkg/mcp_caller.py") == 0
        stale = 0
        for round_ in range(10):  # no sleeps: the daemon's watcher and catch-up do the work
            two = round_ % 2 == 0
            callee.write_text(
                "def f(a: int, b: int) -> int:\n    return a\n"
                if two
                else "def f(a: int) -> int:\n    return a\n"
            )
            stale += await errors(client, "pkg/mcp_caller.py") != (1 if two else 0)
        callee.unlink()
        stale += await errors(client, "pkg/mcp_caller.py") != 1  # its import is gone
        assert stale == 0
