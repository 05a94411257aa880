"""Tool arguments checked with messages an agent can act on (the checks are in
`lspd.surface.arguments`, shared with the CLI).

`LspdServer` runs `check` before the SDK's validation (which takes `true` for the integer 1
and drops unknown arguments) and rewrites the SDK's pydantic report with `explain`.

A refusal quotes what the caller sent (cut short), and the SDK logs a failed call's name
and message (`Tool %r failed: %r`): `BOUNDED` cuts each argument of those log lines, so
the daemon's log holds at most an excerpt of the caller's text.
"""

from __future__ import annotations

import logging
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.server import logger as sdk_log
from mcp_types import CallToolResult, InputRequiredResult
from mcp_types import Tool as MCPTool
from pydantic import ValidationError

from lspd.errors import InvalidInput
from lspd.surface.arguments import Schema, check, explain
from lspd.surface.table import operation

LOGGED_CHARS = 240  # of one argument of a log line about a call: its start, then its length


class Bounded(logging.Filter):
    """Cuts each argument of a record to `LOGGED_CHARS` characters: a failed call is logged
    with the tool's name and the error's message, both the caller's text (a refusal quotes
    what was sent; an unknown tool's name is the caller's)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(excerpt(arg) for arg in record.args)
        return True


def excerpt(value: object) -> object:
    """`value`, or the start of its text and its length when the text is longer than
    `LOGGED_CHARS` (a log line's `%r` then shows that excerpt)."""
    if value is None or isinstance(value, int | float):
        return value
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= LOGGED_CHARS:
        return value
    return f"{text[:LOGGED_CHARS]}… ({len(text)} characters)"


BOUNDED = Bounded()
sdk_log.addFilter(BOUNDED)  # the SDK's tools/call handler logs each failed call


class LspdServer(MCPServer[Any]):
    """`MCPServer` whose tools answer wrong arguments with a short, actionable error, and
    whose tool list carries schemas without what a model does not need to read."""

    _schemas: dict[str, Schema] | None = None
    _listed: list[MCPTool] | None = None

    async def list_tools(self) -> list[MCPTool]:
        if self._listed is None:
            self._listed = [
                tool.model_copy(
                    update={
                        "input_schema": minify(tool.input_schema),
                        "output_schema": _output(tool.output_schema)
                        if tool.output_schema is not None and operation(tool.name).output_schema
                        else None,
                    }
                )
                for tool in await super().list_tools()
            ]
        return self._listed

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


# Output fields the server instructions explain once for every tool (positions, paths,
# paging): their descriptions stay in `lspd schema`, not in each tool's output schema.
EXPLAINED = {
    "line",
    "column",
    "end_line",
    "end_column",
    "path",
    "text",
    "kind",
    "total",
    "truncated",
    "next_offset",
    "offset",
    "symbol",
    "errors",
    "warnings",
    "message",
    "code",
    "source",
    "server",
    "baseline",
    "language",
    "pid",
    "version",
    "workspace",
    "uptime_s",
    "projects",
    "open_documents",
    "fresh",
}


# Inputs the server instructions explain once (positions, paging): their descriptions stay
# in `lspd schema` and the CLI's help, not in each tool's input schema.
INPUT_EXPLAINED = {
    *("path", "line", "column", "symbol", "limit", "offset", "baseline", "content", "all"),
    "unresolved",
}


def _output(schema: Schema) -> Schema:
    """A minified output schema without the descriptions of its models (the tool's and
    the fields' say what they are)."""
    out = minify(schema, output=True)
    out.pop("description", None)
    for model in out.get("$defs", {}).values():  # the field holding it says what it is
        model.pop("description", None)
    out["type"] = "object"  # MCP requires it at the top level
    return out


def minify(schema: Schema, output: bool = False) -> Schema:
    """The schema without titles (the names say it), with `X or null` defaulting to null
    written as `X` (leaving a field out means null), and without defaults of null, 0 or
    false (what is left out is that, as the instructions say). An output schema also drops
    `additionalProperties`, `required` (a field without a default is always there),
    `type: object` and the descriptions of `EXPLAINED` and of enums; an input schema, the
    descriptions of `INPUT_EXPLAINED`."""
    out: Schema = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key == "default" and value is None:
            continue
        if output and key in ("additionalProperties", "required"):
            continue  # a field without a default in the schema is always present
        if key == "default" and value in (0, False) and not isinstance(value, str):
            continue  # the instructions say what is left out is null, empty, false or 0
        if output and key == "type" and value == "object":
            continue  # `properties` says it
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: minify(field, output) for name, field in value.items()}
            for name, field in out[key].items():
                if output and (name in EXPLAINED or "enum" in field or "const" in field):
                    field.pop("description", None)
                if not output and name in INPUT_EXPLAINED:  # and their defaults (`limit`)
                    field.pop("description", None)
                    field.pop("default", None)
                if not output and "enum" in field:  # the tool's description names them
                    field.pop("description", None)
        elif key == "$defs" and isinstance(value, dict):
            out[key] = {name: minify(model, output) for name, model in value.items()}
        elif isinstance(value, dict):
            out[key] = minify(value, output)
        elif isinstance(value, list):
            out[key] = [minify(v, output) if isinstance(v, dict) else v for v in value]
        else:
            out[key] = value
    options = out.get("anyOf")
    if isinstance(options, list) and schema.get("default", 0) is None:
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1:
            del out["anyOf"]
            out.update(kept[0])
    return out
