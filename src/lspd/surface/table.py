"""The table of operations: every agent-facing question declared once.

Each `Operation` names its ops function, its parameters (type, default, description, CLI
spelling) and its result model. Everything else is derived from this table: the MCP tools
(`lspd.tools.server`), the CLI subcommands (`lspd.cli.query`), `lspd schema`, `TOOL_NAMES`
and `RESULT_MODELS`, and the argument checks both transports run (`lspd.surface.arguments`).

Light on purpose: functions and models are named by string and imported on first use, so
the CLI reads this table without importing pydantic, the workspace or the MCP SDK.

How to add an operation:
 1. write its async function in `lspd/ops/<module>.py` (`ws` first, then its parameters,
    every one with a default except required ones) returning a model of `lspd.ops.models`,
    documented (the docstrings become the output schema's descriptions);
 2. add one `Operation(...)` to `OPERATIONS` below;
 3. test it in tests/ops (the function) and once over MCP or the CLI (the declaration).
"""

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
    `value` (as typed), `file` (the text of a file, `-` for stdin), `negate` (a flag
    that sends false).
    """

    name: str
    annotation: Any
    description: str
    default: Any = REQUIRED
    cli: str | None = None
    cli_form: Literal["value", "file", "negate"] = "value"
    cli_help: str | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


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
        """The result model class (imported now)."""
        return getattr(importlib.import_module("lspd.ops.models"), self.result)


POSITION_HELP = "PATH:LINE:COLUMN (1-based; the column counts characters), or PATH with --symbol"

# Said once, in the server instructions, instead of in every tool's description.
RULES = """\
Positions: `path` + `line` + `column` (1-based, as an editor shows them; the column counts
characters), or instead `symbol`, a name path such as `Greeter.greet` or
`pkg.module.Greeter.greet` (an ambiguous name lists its candidates; a misspelt one gets the
closest names). Paths are relative to the workspace root. Lists are paged: an answer that
stops short has `truncated: true` and `next_offset`; send that as `offset` for the rest
(`limit`: items per page, at most 1000). In answers, `symbol` is the name path of the symbol
a location stands for.
Fields at their default (null, empty, false, 0) are left out of answers."""

_AT = " Position or `symbol`."

POSITION = (
    Param("path", str | None, "File.", default=None),
    Param("line", int | None, "1-based.", default=None),
    Param("column", int | None, "1-based, in characters.", default=None),
    Param("symbol", str | None, "Name path instead of a position.", default=None),
)


def _limit(default: int, maximum: int = 1000) -> Param:
    return Param("limit", int, f"Items per page (at most {maximum}).", default=default)


_OFFSET = Param("offset", int, "0-based index of the first item: a `next_offset`.", default=0)
_FILE = "File, relative to the root."
_CLI_FILE = "the file (a relative path starts at the current directory)"

OPERATIONS: tuple[Operation, ...] = (
    Operation(
        name="diagnostics",
        function="lspd.ops.file_diagnostics:diagnostics",
        result="DiagnosticsResult",
        command="diagnostics",
        summary="errors and warnings of a file, as it is now",
        description=(
            "Errors and warnings of one file (or of unsaved `content`), fresh for its current "
            "text; a server that is not ready gives an error, never an empty list."
        ),
        params=(
            Param("path", str, _FILE, cli_help=_CLI_FILE),
            Param(
                "content",
                str | None,
                "Unsaved full text to check instead of the file.",
                default=None,
                cli="--content-file",
                cli_form="file",
                cli_help="check this file's text as if it were PATH ('-': stdin)",
            ),
            Param("limit", int, "At most this many diagnostics.", default=100),
        ),
    ),
    Operation(
        name="workspace_diagnostics",
        function="lspd.ops.check:workspace_diagnostics",
        result="WorkspaceDiagnosticsResult",
        command="workspace-diagnostics",
        summary="problems of the whole workspace",
        description=(
            "Errors and warnings of the whole workspace (or of `paths` globs): complete counts "
            "per file, worst first, and the diagnostics a page at a time."
        ),
        params=(
            Param(
                "paths",
                list[str] | None,
                "Globs relative to the root, e.g. `src/**/*.py`.",
                default=None,
                cli="globs",
                cli_help="only files matching these globs",
            ),
            _limit(50),
            _OFFSET,
        ),
    ),
    Operation(
        name="hover",
        function="lspd.ops.navigation:hover",
        result="HoverResult",
        command="hover",
        summary="type, signature and docs at a position",
        position=True,
        description="Type, signature and docs of the name at a position (markdown)." + _AT,
    ),
    Operation(
        name="definition",
        function="lspd.ops.navigation:definition",
        result="LocationsResult",
        command="definition",
        summary="where the symbol at a position is defined",
        position=True,
        description="Where the name at a position is defined, with the symbol's name path." + _AT,
        params=(_limit(50), _OFFSET),
    ),
    Operation(
        name="type_definition",
        function="lspd.ops.navigation:type_definition",
        result="LocationsResult",
        command="type-definition",
        summary="where the type of the symbol is defined",
        position=True,
        description="Where the type of the name at a position is defined." + _AT,
        params=(_limit(50), _OFFSET),
    ),
    Operation(
        name="implementation",
        function="lspd.ops.navigation:implementation",
        result="LocationsResult",
        command="implementation",
        summary="implementations of an interface or method",
        position=True,
        description=(
            "Implementations of the interface, protocol or method at a position (subclasses, "
            "overrides), each with its name path." + _AT
        ),
        params=(_limit(50), _OFFSET),
    ),
    Operation(
        name="references",
        function="lspd.ops.navigation:references",
        result="ReferencesResult",
        command="references",
        summary="every reference to the symbol",
        position=True,
        description=(
            "Every use of the name at a position, by file, each with its enclosing symbol; "
            "exact where grep matches equal names." + _AT
        ),
        params=(
            Param(
                "include_declaration",
                bool,
                "Count the definition itself.",
                default=True,
                cli="--no-declaration",
                cli_form="negate",
                cli_help="omit the declaration",
            ),
            _limit(200),
            _OFFSET,
        ),
    ),
    Operation(
        name="document_symbols",
        function="lspd.ops.symbols:document_symbols",
        result="DocumentSymbolsResult",
        command="symbols",
        summary="the symbol tree of a file, or a class's members",
        description=(
            "Outline of a file (or, with `symbol`, of a class's members): kinds, name paths, "
            "lines, in file order."
        ),
        params=(
            Param("path", str, _FILE, cli_help=_CLI_FILE),
            Param(
                "symbol",
                str | None,
                "List only this symbol's members, e.g. `Console`.",
                default=None,
            ),
            Param("depth", int | None, "Levels: 1 = top level only; default all.", default=None),
            _limit(300),
            _OFFSET,
        ),
    ),
    Operation(
        name="workspace_symbols",
        function="lspd.ops.symbols:workspace_symbols",
        result="WorkspaceSymbolsResult",
        command="workspace-symbols",
        summary="search symbols by name",
        description=(
            "Find symbols by name anywhere in the workspace; `Console.` lists Console's "
            "members, `Console.pr` those starting with `pr`."
        ),
        params=(
            Param("query", str, "A name or part of one; `Class.` for members."),
            Param(
                "kind",
                str | None,
                "Only this kind: `class`, `function`, `method`, ...",
                default=None,
                cli_help="only this kind (class, function, method, ...)",
            ),
            _limit(50),
            _OFFSET,
        ),
    ),
    Operation(
        name="call_hierarchy",
        function="lspd.ops.navigation:call_hierarchy",
        result="CallHierarchyResult",
        command="call-hierarchy",
        summary="callers (incoming) or callees (outgoing)",
        position=True,
        description=(
            "Callers (`incoming`) or callees (`outgoing`) of the function at a position, one "
            "entry per call site, each with its name path." + _AT
        ),
        params=(
            Param(
                "direction",
                Literal["incoming", "outgoing"],
                "`incoming` (callers) or `outgoing` (callees).",
                default="incoming",
            ),
            _limit(100),
            _OFFSET,
        ),
    ),
    Operation(
        name="status",
        function="lspd.ops.state:status",
        result="StatusResult",
        summary="the daemon's state and its language servers",
        description="The daemon and each language server's state; for slow or missing answers.",
    ),
    Operation(
        name="servers",
        function="lspd.ops.state:servers",
        result="ServersResult",
        summary="each language's servers: selected, found, version, install command",
        description="Every defined language server, whether it is found, and how to install it.",
        tool=False,
        takes_workspace=False,
    ),
)

BY_NAME: dict[str, Operation] = {op.name: op for op in OPERATIONS}

TOOL_NAMES: tuple[str, ...] = tuple(op.name for op in OPERATIONS if op.tool)
"""The MCP tools, in the order `tools/list` gives them."""


def result_models() -> dict[str, Any]:
    """The result model class of every operation, by name (imports the models)."""
    return {op.name: op.result_model() for op in OPERATIONS}


def operation(name: str) -> Operation:
    """The operation called `name`; an unknown name is a `KeyError` naming the known ones."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"no operation {name!r}; operations: {', '.join(BY_NAME)}") from None


async def call(op: Operation, ws: Any, arguments: dict[str, Any]) -> Any:
    """Run the operation with checked arguments (`ws` is the `Workspace`); its model."""
    function = op.resolve()
    result = function(ws, **arguments) if op.takes_workspace else function(**arguments)
    if inspect.isawaitable(result):
        result = await result
    return result
