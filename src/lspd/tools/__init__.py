"""The MCP server: one read-only tool per operation, a thin transport over `lspd.ops`."""

from lspd.tools.server import READ_ONLY, TOOL_NAMES, Activity, build_server

__all__ = ["READ_ONLY", "TOOL_NAMES", "Activity", "build_server"]
