"""What the table declares: an operation, its parameters, and running it (`call`).

An `Operation` is its ops function plus what the function cannot say itself: the
description a model reads, the words of its parameters, how the CLI spells them. Names,
types, defaults, the order of the parameters and the result model are read from the
function's signature, so they are written once, in the function.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from lspd.surface.words import AT, POSITION_WORDS, SHARED, CliForm, Words


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
    cli_form: CliForm = "value"
    cli_help: str | None = None

    @property
    def required(self) -> bool:
        """Whether a call must send it (it has no default)."""
        return self.default is REQUIRED


# The parameters of every position operation, before its own.
POSITION = tuple(
    Param(name, int | None if name in ("line", "column") else str | None, words.description, None)
    for name, words in POSITION_WORDS.items()
)


@dataclass(frozen=True)
class Operation:
    """One question: its ops function (`ws` first unless `takes_workspace` is false), the
    description a model reads, and the words of its parameters.

    `words`: each parameter's `Words` where the shared ones (`lspd.surface.words`) do not
    fit. `internal`: parameters of the function no transport sends. `tool`:
    published as an MCP tool. `cli`: a CLI query command, named after the operation in
    kebab-case (`document-symbols`), with `aliases`. `output_schema`: whether tools/list
    carries the result's schema. `exclusive`: arguments that, when sent, make the call run
    alone (they hold text that is not on disk, which no other call may see); "*": always.
    """

    function: Callable[..., Any]
    about: str
    words: Mapping[str, Words] = field(default_factory=dict, hash=False, compare=False)
    internal: tuple[str, ...] = ()
    tool: bool = True
    cli: bool = True
    aliases: tuple[str, ...] = ()
    output_schema: bool = True
    exclusive: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The MCP tool's name: the function's."""
        return self.function.__name__

    @property
    def command(self) -> str | None:
        """The CLI query command: the name in kebab-case; None for the CLI's own commands."""
        return self.name.replace("_", "-") if self.cli else None

    @cached_property
    def _signature(self) -> list[inspect.Parameter]:
        parameters = list(inspect.signature(self.function).parameters.values())
        return [p for p in parameters if p.name != "ws" and p.name not in self.internal]

    @cached_property
    def takes_workspace(self) -> bool:
        """Whether the function is called with the workspace first."""
        return next(iter(inspect.signature(self.function).parameters), None) == "ws"

    @property
    def position(self) -> bool:
        """Whether it takes `path`/`line`/`column` or `symbol` first (the CLI reads them as
        `PATH:LINE:COLUMN` and `--symbol`)."""
        return tuple(p.name for p in self._signature[:4]) == tuple(POSITION_WORDS)

    @cached_property
    def all_params(self) -> tuple[Param, ...]:
        """The parameters in call order (the position ones first), from the signature."""
        out = []
        for index, parameter in enumerate(self._signature):
            at = self.position and index < len(POSITION_WORDS)
            words = POSITION_WORDS[parameter.name] if at else self._words(parameter.name)
            default = parameter.default
            out.append(
                Param(
                    parameter.name,
                    self._evaluated(parameter.annotation),
                    words.description,
                    REQUIRED if default is inspect.Parameter.empty else default,
                    words.cli,
                    words.cli_form,
                    words.cli_help,
                )
            )
        return tuple(out)

    def _words(self, name: str) -> Words:
        words = self.words.get(name) or SHARED.get(name)
        if words is None:
            raise LookupError(f"{self.name}: no words for its parameter {name!r}")
        return words

    @property
    def params(self) -> tuple[Param, ...]:
        """Its own parameters: those after the position for a position operation."""
        return self.all_params[len(POSITION) :] if self.position else self.all_params

    @property
    def description(self) -> str:
        """What it answers, as tools/list and the CLI's help say it (`about`, and for a
        position operation the position rule's reminder)."""
        return self.about + (AT if self.position else "")

    def result_model(self) -> Any:
        """The result model class: the function's return annotation."""
        return self._evaluated(inspect.signature(self.function).return_annotation)

    def _evaluated(self, annotation: Any) -> Any:
        """An annotation as its object (a module with `from __future__ import annotations`
        keeps them as text), evaluated among the function's module's names."""
        if not isinstance(annotation, str):
            return annotation
        return eval(annotation, self.function.__globals__)

    @property
    def result(self) -> str:
        """The result model's name, as the CLI's renderers know it."""
        return str(self.result_model().__name__)


async def call(op: Operation, ws: Any, arguments: dict[str, Any]) -> Any:
    """Run the operation with checked arguments (`ws` is the `Workspace`); its model.

    A call holding text that is not on disk (a preview, a baseline) runs alone: the others
    wait, so none of them answers from that text."""
    function = op.function
    if not op.takes_workspace:
        result = function(**arguments)
        return await result if inspect.isawaitable(result) else result
    alone = "*" in op.exclusive or any(arguments.get(n) is not None for n in op.exclusive)
    async with ws.gate.exclusive() if alone else ws.gate.shared():
        result = function(ws, **arguments)
        return await result if inspect.isawaitable(result) else result
