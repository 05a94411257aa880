"""Tool arguments checked with messages an agent can act on (the checks are in
`lspd.surface.arguments`, shared with the CLI).

`LspdServer` runs `check` before the SDK's validation (which takes `true` for the integer 1
and drops unknown arguments) and rewrites the SDK's pydantic report with `explain`.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult
from pydantic import ValidationError

from lspd.errors import InvalidInput
from lspd.surface.arguments import Schema, check, explain


class LspdServer(MCPServer[Any]):
    """`MCPServer` whose tools answer wrong arguments with a short, actionable error."""

    _schemas: dict[str, Schema] | None = None

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        if self._schemas is None:
            self._schemas = {tool.name: tool.input_schema for tool in await self.list_tools()}
        schema = self._schemas.get(name)
        if schema is not None:
            try:
                check(name, schema, arguments)
            except InvalidInput as exc:
                raise ToolError(str(exc)) from None
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            if schema is not None and isinstance(exc.__cause__, ValidationError):
                raise ToolError(explain(name, schema, exc.__cause__)) from None
            raise
