"""Tool arguments checked with messages an agent can act on.

The SDK validates arguments with pydantic and passes its report on verbatim ("1 validation
error for hoverArguments ... For further information visit https://errors.pydantic.dev/..."),
takes `true` for the integer 1, and drops unknown arguments without a word, so a typo such as
`include_declarations` silently changes the answer. `LspdServer` refuses unknown arguments and
booleans given for integers, and rewrites the SDK's report as one line per wrong argument
followed by what the tool takes.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult
from pydantic import ValidationError

Schema = dict[str, Any]


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
            check(name, schema, arguments)
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            if schema is not None and isinstance(exc.__cause__, ValidationError):
                raise ToolError(explain(name, schema, exc.__cause__)) from None
            raise


def check(name: str, schema: Schema, arguments: dict[str, Any]) -> None:
    """What pydantic lets through: unknown arguments, text that is not Unicode, and
    `true`/`false` for an integer."""
    properties: dict[str, Schema] = schema.get("properties", {})
    unknown = [key for key in arguments if key not in properties]
    if unknown:
        names = ", ".join(f"`{key[:60]}`" for key in unknown)
        raise ToolError(f"{name} has no argument {names}. {takes(name, schema)}")
    for key, value in arguments.items():
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and (at := _lone_surrogate(text)) is not None:
                raise ToolError(
                    f"`{key}` is not valid Unicode (a lone surrogate at character {at + 1}); "
                    "send UTF-8 text"
                )
        if isinstance(value, bool) and "integer" in _types(properties[key]):
            problem = f"`{key}` must be an integer, not {_show(value)}"
            raise ToolError(f"{problem}. {takes(name, schema)}")


def _lone_surrogate(text: str) -> int | None:
    """Where `text` cannot be encoded as UTF-8 (JSON may carry `\\ud800` alone)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def explain(name: str, schema: Schema, error: ValidationError) -> str:
    """One short sentence per wrong argument, then the tool's arguments and their types."""
    problems = []
    for item in error.errors(include_url=False):
        field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in item["loc"])
        field = field.removeprefix(".") or "arguments"
        if item["type"] == "missing":
            problems.append(f"`{field}` is required")
            continue
        wanted = item["msg"].split(",")[0]  # "Input should be a valid integer[, unable to ...]"
        wanted = wanted.replace("Input should be a valid ", "must be a ").replace(
            "Input should be ", "must be "
        )
        wanted = wanted.replace("must be a integer", "must be an integer")
        problems.append(f"`{field}` {wanted}, not {_show(item.get('input'))}")
    return f"{'; '.join(problems)}. {takes(name, schema)}"


def takes(name: str, schema: Schema) -> str:
    """`hover takes path (string), line (integer), ...; required: ...` from the input schema."""
    properties: dict[str, Schema] = schema.get("properties", {})
    parts = [f"{key} ({_type_name(value)})" for key, value in properties.items()]
    required = schema.get("required", [])
    text = f"{name} takes {', '.join(parts)}" if parts else f"{name} takes no arguments"
    return text + (f"; required: {', '.join(required)}" if required else "")


def _types(schema: Schema) -> set[str]:
    if "anyOf" in schema:
        return {t for option in schema["anyOf"] for t in _types(option)}
    if "enum" in schema:
        return {"enum"}
    kind = schema.get("type")
    return {kind} if isinstance(kind, str) else set(kind or ())


def _type_name(schema: Schema) -> str:
    options = schema.get("anyOf", [schema])
    names = []
    for option in options:
        if "enum" in option:
            names.append(" or ".join(json.dumps(v) for v in option["enum"]))
        elif option.get("type") == "array":
            names.append(f"list of {_type_name(option.get('items', {}))}")
        elif option.get("type") not in (None, "null"):
            names.append(str(option["type"]))
    return " or ".join(names) or "any"


def _show(value: Any) -> str:
    """The value as the client sent it (JSON), cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
