"""What the table declares: an operation, its parameters, and running it (`call`)."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal


class _Required:
    """The default of a parameter that has none."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


@dataclass(frozen=True)
class Param:
    """One parameter of an operation, as MCP, the CLI and the schema show it.

    `annotation` is a plain Python type (`str`, `int | None`, `list[str] | None`, a
    `Literal`); pydantic turns it into the JSON Schema. `cli` is the CLI spelling: a flag
    (`--limit`), a positional name (`query`), or None for the default (`--name-with-dashes`,
    positional when required). `cli_form` says how the command line gives the value:
    `value` (as typed), `file` (the text of a file, `-` for stdin), `json` (a file's
    JSON, `-` for stdin), `negate` (a flag that sends false), `flag` (a flag that sends true),
    `changes` (a preview's changes: `--changes` JSON, a `--patch`, or `--file PATH
    --content-file F` pairs).
    """

    name: str
    annotation: Any
    description: str
    default: Any = REQUIRED
    cli: str | None = None
    cli_form: Literal["value", "file", "json", "negate", "flag", "changes"] = "value"
    cli_help: str | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


# The parameters of every position operation, before its own.
POSITION = (
    Param("path", str | None, "File.", default=None),
    Param("line", int | None, "1-based.", default=None),
    Param("column", int | None, "1-based, in characters.", default=None),
    Param("symbol", str | None, "Name path instead of a position.", default=None),
)


@dataclass(frozen=True)
class Operation:
    """One question: its ops function, its parameters and its result model.

    `function` and `result` are named (`module:function`, a class of `lspd.ops.models`)
    and imported on first use. `position`: the operation takes `path`/`line`/`column` or
    `symbol` (the CLI reads them as `PATH:LINE:COLUMN` and `--symbol`). `tool`: published
    as an MCP tool. `command`: the CLI subcommand, or None when the CLI has none here.
    """

    name: str
    function: str
    result: str
    description: str
    summary: str
    params: tuple[Param, ...] = ()
    position: bool = False
    tool: bool = True
    command: str | None = None
    takes_workspace: bool = True
    # Whether tools/list carries the result's schema (not for `status`, an operational answer
    # a model rarely reads: its 1,400 characters would be paid in every session).
    output_schema: bool = True
    # Arguments that, when sent, make the call run alone (it holds text that is not on disk,
    # and no other call may see it); "*": always.
    exclusive: tuple[str, ...] = ()

    @property
    def all_params(self) -> tuple[Param, ...]:
        """The parameters in call order: the position ones first for a position operation."""
        return (*POSITION, *self.params) if self.position else self.params

    def resolve(self) -> Callable[..., Any]:
        """The ops function (imported now)."""
        module, _, name = self.function.partition(":")
        function: Callable[..., Any] = getattr(importlib.import_module(module), name)
        return function

    def result_model(self) -> Any:
        """The result model class (imported now): a class of `lspd.ops.models`, or
        `module:Class` for one of another module of `lspd.ops`."""
        module, _, name = self.result.rpartition(":")
        return getattr(importlib.import_module(f"lspd.ops.{module or 'models'}"), name)


async def call(op: Operation, ws: Any, arguments: dict[str, Any]) -> Any:
    """Run the operation with checked arguments (`ws` is the `Workspace`); its model.

    A call holding text that is not on disk (a preview, a baseline) runs alone: the others
    wait, so none of them answers from that text."""
    function = op.resolve()
    if not op.takes_workspace:
        result = function(**arguments)
        return await result if inspect.isawaitable(result) else result
    alone = "*" in op.exclusive or any(arguments.get(n) is not None for n in op.exclusive)
    async with ws.gate.exclusive() if alone else ws.gate.shared():
        result = function(ws, **arguments)
        return await result if inspect.isawaitable(result) else result
