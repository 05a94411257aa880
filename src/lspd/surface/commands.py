"""The table of operations as the CLI reads it: `commands.json`, written from the table.

`lspd diagnostics FILE` through a daemon is what an agent's hook runs after every edit; it
must not import pydantic, the workspace or the operations (tens of milliseconds each), and
the table (`lspd.surface.table`) imports the operations. So the CLI reads the part of the
table it needs (names, descriptions, parameters and their CLI spellings, result names)
from `commands.json`, which `python -m lspd.surface.commands` writes from the table;
tests/surface/test_commands.py fails, saying that command, when the two differ.
"""

from __future__ import annotations

import json
import sys
import types
import typing
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from lspd.surface.operation import REQUIRED, Param

if TYPE_CHECKING:
    from lspd.surface.operation import Operation

FILE = Path(__file__).with_name("commands.json")
_TYPES: dict[str, Any] = {"str": str, "int": int, "bool": bool, "list": list[str]}


@dataclass(frozen=True)
class Command:
    """One query command: an operation of the table as the CLI runs it (through the
    daemon, the MCP tool `name`)."""

    name: str
    command: str
    aliases: tuple[str, ...]
    description: str
    position: bool
    params: tuple[Param, ...]
    result: str


def written(operations: typing.Iterable[Operation]) -> list[dict[str, Any]]:
    """The operations with a CLI command as `commands.json` holds them."""
    return [
        {
            "name": op.name,
            "command": op.command,
            "aliases": list(op.aliases),
            "description": op.about,  # the CLI says the position its own way
            "position": op.position,
            "params": [_param(p) for p in op.params],
            "result": op.result,
        }
        for op in operations
        if op.command is not None
    ]


def _param(param: Param) -> dict[str, Any]:
    out: dict[str, Any] = {"name": param.name, **_kind(param.annotation)}
    out["description"] = param.description
    if not param.required:
        out["default"] = param.default
    for key in ("cli", "cli_form", "cli_help"):
        if getattr(param, key) not in (None, "value"):
            out[key] = getattr(param, key)
    return out


def _kind(annotation: Any) -> dict[str, Any]:
    """What the command line needs of a type: `str`, `int`, `bool` or `list`, choices, and
    whether it may be null."""
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return {"type": "str", "choices": list(typing.get_args(annotation))}
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(annotation) if a is not type(None)]
        return {**_kind(options[0]), "nullable": True}
    if origin is list:
        return {"type": "list"}
    return {"type": annotation.__name__}


def _read(item: dict[str, Any]) -> Param:
    annotation: Any = _TYPES[item["type"]]
    if "choices" in item:
        annotation = Literal.__getitem__(tuple(item["choices"]))
    if item.get("nullable"):
        annotation = annotation | None
    return Param(
        item["name"],
        annotation,
        item["description"],
        item.get("default", REQUIRED),
        item.get("cli"),
        item.get("cli_form", "value"),
        item.get("cli_help"),
    )


@cache
def commands() -> tuple[Command, ...]:
    """The query commands, from `commands.json`."""
    return tuple(
        Command(
            c["name"],
            c["command"],
            tuple(c["aliases"]),
            c["description"],
            c["position"],
            tuple(_read(p) for p in c["params"]),
            c["result"],
        )
        for c in json.loads(FILE.read_text(encoding="utf-8"))
    )


def main() -> None:
    """Write `commands.json` from the table (run after changing an operation)."""
    from lspd.surface.table import OPERATIONS

    FILE.write_text(json.dumps(written(OPERATIONS), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
