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

from typing import Any, Literal

from lspd.surface.operation import POSITION, REQUIRED, Operation, Param, call

__all__ = [
    "OPERATIONS",
    "POSITION",
    "REQUIRED",
    "Operation",
    "Param",
    "call",
    "operation",
    "result_models",
]


POSITION_HELP = "PATH:LINE:COLUMN (1-based; the column counts characters), or PATH with --symbol"

# Said once, in the server instructions, instead of in every tool's description.
RULES = """\
Positions: `path` + `line` + `column` (1-based, as an editor shows them; the column counts
characters), or instead `symbol`, a name path such as `Greeter.greet` or
`pkg.module.Greeter.greet` (an ambiguous name lists its candidates; a misspelt one gets the
closest names). Paths are relative to the workspace root. Lists are paged: an answer that
stops short has `truncated: true` and `next_offset`; send that as `offset` for the rest
(`limit`: items per page, at most 1000). In answers, `symbol` is the name path of the symbol
a location stands for. `baseline` (`HEAD`, a git revision, or `session`) on diagnostics adds
`changes`: the diagnostics new since then (`introduced`) and gone (`fixed`); the answer's
counts are then those of `introduced`. `content` on hover, definition and type_definition:
answer as if `path` held that text (nothing is written). `fresh` is true
when the answer is for the file's current text; `total` counts all items of a list.
Fields at their default (null, empty, false, 0) are left out of answers."""


def _limit(default: int, maximum: int = 1000) -> Param:
    return Param("limit", int, f"Items per page (at most {maximum}).", default=default)


_OFFSET = Param("offset", int, "0-based index of the first item: a `next_offset`.", default=0)
_BASELINE = Param(
    "baseline",
    str | None,
    "`HEAD` (or a git revision) or `session`: also say which diagnostics are new since then.",
    default=None,
)
_UNRESOLVED = Param(
    "unresolved",
    bool,
    "Add `unresolved` uses.",
    default=True,
    cli="--no-unresolved",
    cli_form="negate",
    cli_help="skip the scan for uses the checker cannot resolve",
)
_CONTENT = Param(
    "content",
    str | None,
    "Unsaved text.",
    default=None,
    cli="--content-file",
    cli_form="file",
    cli_help="answer as if PATH held this file's text ('-': stdin); nothing is written",
)
_AT = " Position or `symbol`."
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
            "Errors and warnings of one file (or of unsaved `content`), fresh: a server not "
            "ready is an error, never an empty list."
        ),
        params=(
            Param("path", str, _FILE, cli_help=_CLI_FILE),
            Param(
                "content",
                str | None,
                "Unsaved text to check instead.",
                default=None,
                cli="--content-file",
                cli_form="file",
                cli_help="check this file's text as if it were PATH ('-': stdin)",
            ),
            _limit(100),
            _OFFSET,
            _BASELINE,
        ),
        exclusive=("content", "baseline"),
    ),
    Operation(
        name="workspace_diagnostics",
        function="lspd.ops.check:workspace_diagnostics",
        result="WorkspaceDiagnosticsResult",
        command="workspace-diagnostics",
        summary="problems of the whole workspace",
        description=(
            "Errors and warnings of the files the project's gate checks (`scope` says which) "
            "or of `paths` globs: counts per file, diagnostics paged."
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
            _BASELINE,
            Param(
                "all",
                bool,
                "Every source file, not only the gate's.",
                default=False,
                cli_form="flag",
            ),
        ),
        exclusive=("baseline",),
    ),
    Operation(
        name="preview",
        function="lspd.ops.preview:preview",
        result="PreviewResult",
        command="preview",
        summary="diagnostics of proposed changes, before writing them",
        description=(
            "Errors that proposed changes (new, changed, deleted files) would introduce or "
            "fix, there and in dependents. Nothing is written."
        ),
        params=(
            Param(
                "changes",
                list[dict[str, str | None]],
                "`[{path, content}]`: each file's whole new text; content null deletes it.",
                cli="--changes",
                cli_form="changes",
                cli_help="a JSON file of [{path, content}] ('-': stdin)",
            ),
        ),
        exclusive=("*",),
    ),
    Operation(
        name="hover",
        function="lspd.ops.navigation:hover",
        result="HoverResult",
        command="hover",
        summary="type, signature and docs at a position",
        position=True,
        description="Type, signature, docs." + _AT,
        params=(_CONTENT,),
    ),
    Operation(
        name="definition",
        function="lspd.ops.navigation:definition",
        result="LocationsResult",
        command="definition",
        summary="where the symbol at a position is defined",
        position=True,
        description="Where a name is defined." + _AT,
        params=(_limit(50), _OFFSET, _CONTENT),
    ),
    Operation(
        name="type_definition",
        function="lspd.ops.navigation:type_definition",
        result="LocationsResult",
        command="type-definition",
        summary="where the type of the symbol is defined",
        position=True,
        description="Where its type is defined." + _AT,
        params=(_limit(50), _OFFSET, _CONTENT),
    ),
    Operation(
        name="implementation",
        function="lspd.ops.navigation:implementation",
        result="LocationsResult",
        command="implementation",
        summary="implementations of an interface or method",
        position=True,
        description=("Subclasses and overrides of an interface or method." + _AT),
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
            "Every use of a name, by file, with its enclosing symbol; "
            "`unresolved`: same-name uses no checker resolves." + _AT
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
            _limit(25),
            _OFFSET,
            _UNRESOLVED,
        ),
    ),
    Operation(
        name="document_symbols",
        function="lspd.ops.symbols:document_symbols",
        result="DocumentSymbolsResult",
        command="symbols",
        summary="the symbol tree of a file, or a class's members",
        description=("Outline of a file (with `symbol`: a class's members), in file order."),
        params=(
            Param("path", str, _FILE, cli_help=_CLI_FILE),
            Param(
                "symbol",
                str | None,
                "List only this symbol's members, e.g. `Console`.",
                default=None,
            ),
            Param("depth", int | None, "Levels: 1 = top level only; default all.", default=None),
            _limit(100),
            _OFFSET,
        ),
    ),
    Operation(
        name="workspace_symbols",
        function="lspd.ops.symbols:workspace_symbols",
        result="WorkspaceSymbolsResult",
        command="workspace-symbols",
        summary="search symbols by name",
        description=("Symbols by name across the workspace; `Cls.` lists Cls's members."),
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
        description=("Callers or callees of a function, each call site named." + _AT),
        params=(
            Param(
                "direction",
                Literal["incoming", "outgoing"],
                "`incoming` (callers) or `outgoing` (callees).",
                default="incoming",
            ),
            _limit(50),
            _OFFSET,
            _UNRESOLVED,
        ),
    ),
    Operation(
        name="status",
        function="lspd.ops.state:status",
        result="state_models:StatusResult",
        summary="the daemon's state and its language servers",
        description="Daemon and language-server states, for slow or missing answers.",
        output_schema=False,
    ),
    Operation(
        name="servers",
        function="lspd.ops.state:servers",
        result="state_models:ServersResult",
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
