"""The MCP server: one read-only tool per operation, a thin transport over `lspd.ops`.

Its names are read lazily: `lspd.tools.server` imports the MCP SDK (0.8-1.1 s quiet), which
the daemon's first answers do without (`lspd.daemon.early`); `Activity` needs no SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lspd.tools.calls import Activity
    from lspd.tools.server import READ_ONLY, TOOL_NAMES, build_server

__all__ = ["READ_ONLY", "TOOL_NAMES", "Activity", "build_server"]


def __getattr__(name: str) -> Any:
    if name == "Activity":
        from lspd.tools.calls import Activity

        return Activity
    if name in __all__:
        from lspd.tools import server

        return getattr(server, name)
    raise AttributeError(f"module 'lspd.tools' has no attribute {name!r}")
