"""Arguments of an operation checked against its declaration, the same on every transport.

Pydantic's own report is long ("1 validation error for hoverArguments ... For further
information visit https://errors.pydantic.dev/..."), it takes `true` for the integer 1, and
a model drops unknown arguments without a word, so a typo such as `include_declarations`
silently changes the answer. `check` refuses unknown arguments, text that is not Unicode and
booleans given for integers; `explain` rewrites a validation report as one line per wrong
argument followed by what the operation takes. The MCP server runs both around the SDK's
validation; the CLI runs `validate` before an in-process call.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from lspd.errors import InvalidInput
from lspd.surface.table import Operation

Schema = dict[str, Any]
SHOWN = 5  # wrong arguments named in one answer


class _Arguments(BaseModel):
    model_config = ConfigDict(extra="forbid")


@cache
def argument_model(op: Operation) -> type[BaseModel]:
    """A pydantic model of the operation's parameters, with their descriptions."""
    fields: dict[str, Any] = {}
    for param in op.all_params:
        if param.required:
            fields[param.name] = (param.annotation, Field(description=param.description))
        else:
            info = Field(default=param.default, description=param.description)
            fields[param.name] = (param.annotation, info)
    model: type[BaseModel] = create_model(f"{op.name}Arguments", __base__=_Arguments, **fields)
    return model


def input_schema(op: Operation) -> Schema:
    """The JSON Schema of the operation's arguments (as MCP publishes it)."""
    return argument_model(op).model_json_schema()


def validate(op: Operation, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments checked and typed, with defaults filled in; `InvalidInput` otherwise."""
    schema = input_schema(op)
    check(op.name, schema, arguments)
    try:
        parsed = argument_model(op).model_validate(arguments)
    except ValidationError as exc:
        raise InvalidInput(explain(op.name, schema, exc)) from None
    return {name: getattr(parsed, name) for name in type(parsed).model_fields}


def check(name: str, schema: Schema, arguments: dict[str, Any]) -> None:
    """What pydantic lets through: unknown arguments, text that is not Unicode, and
    `true`/`false` for an integer."""
    properties: dict[str, Schema] = schema.get("properties", {})
    unknown = [key for key in arguments if key not in properties]
    if unknown:
        names = _some([f"`{key[:60]}`" for key in unknown])
        raise InvalidInput(f"{name} has no argument {names}. {takes(name, schema)}")
    for key, value in arguments.items():
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and (at := _lone_surrogate(text)) is not None:
                raise InvalidInput(
                    f"`{key}` is not valid Unicode (a lone surrogate at character {at + 1}); "
                    "send UTF-8 text"
                )
        if isinstance(value, bool) and "integer" in _types(properties[key]):
            problem = f"`{key}` must be an integer, not {_show(value)}"
            raise InvalidInput(f"{problem}. {takes(name, schema)}")


def _lone_surrogate(text: str) -> int | None:
    """Where `text` cannot be encoded as UTF-8 (JSON may carry `\\ud800` alone)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def explain(name: str, schema: Schema, error: ValidationError) -> str:
    """One short sentence per wrong argument, then the operation's arguments and types."""
    problems = []
    for item in error.errors(include_url=False):
        field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in item["loc"])
        field = (field.removeprefix(".") or "arguments")[:60]  # a key may be the caller's
        if item["type"] == "missing":
            problems.append(f"`{field}` is required")
            continue
        wanted = item["msg"].split(",")[0]  # "Input should be a valid integer[, unable to ...]"
        wanted = wanted.replace("Input should be a valid ", "must be a ").replace(
            "Input should be ", "must be "
        )
        wanted = wanted.replace("must be a integer", "must be an integer")
        problems.append(f"`{field}` {wanted}, not {_show(item.get('input'))}")
    return f"{_some(problems, '; ')}. {takes(name, schema)}"


def _some(items: list[str], separator: str = ", ") -> str:
    """The first `SHOWN` items, then how many more: an answer stays short whatever was sent."""
    more = f" (and {len(items) - SHOWN} more)" if len(items) > SHOWN else ""
    return separator.join(items[:SHOWN]) + more


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
