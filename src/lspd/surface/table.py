"""The table of operations: every agent-facing question declared once.

Each row is an ops function and what it cannot say itself: the description a model reads,
the words of its parameters where the shared ones (`lspd.surface.words`) do not fit, and
how the transports publish it. The function's signature gives the parameters (names,
types, defaults, order) and its return annotation the result model. Everything else is
derived from this table: the MCP tools (`lspd.tools.server`), the CLI's query commands
(through `lspd.surface.commands`, this table written out for a CLI that must not import
the operations), `lspd schema`, `TOOL_NAMES`, and the argument checks both transports
run (`lspd.surface.arguments`).

How to add an operation: docs/design.md ("Adding an operation").
"""

from __future__ import annotations

from typing import Any

from lspd.ops import (
    check,
    file_diagnostics,
    fixes,
    navigation,
    preview,
    references,
    rename,
    state,
    symbols,
)
from lspd.surface.operation import POSITION, REQUIRED, Operation, Param, call
from lspd.surface.words import Words

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


# Said once, in the server instructions, instead of in every tool's description.
RULES = """\
Positions: `path` + `line` + `column` (1-based, as an editor shows them; the column counts
characters), or instead `symbol`, a name path such as `Greeter.greet` or
`pkg.module.Greeter.greet` (an ambiguous name lists its candidates; a misspelt one gets the
closest names). Paths are relative to the workspace root. Lists are paged: an answer that
stops short has `truncated: true` and `next_offset`; send that as `offset` for the rest
(`limit`: items per page, at most 1000). In answers, `symbol` is the name path of the symbol
a location stands for. `baseline` (`HEAD`, a git revision, or `session`) on diagnostics adds
`changes`: the diagnostics new since then (`introduced`, paged) and gone (`fixed`: on the
first page only, as many as fit; `fixed_total` counts them all, and narrower `paths` or a
file's diagnostics list the rest); the answer's counts are then those of `introduced`.
`content` (unsaved text) on diagnostics, hover, definition and type_definition: answer as
if `path` held that text (nothing is written).
`rename` and `fixes` give the server's edit as one unified diff (paths relative to the root:
`git apply` it) and never apply it; their `check` is what applying it would introduce and
fix, as `preview` says. A rename's diff is paged by whole files; a page is marked `partial`:
never apply it alone (half a rename), apply every page, or the CLI's `lspd rename --json`.
`fresh` is true when the answer is for the file's current text; `total` counts all items
of a list. `unresolved` (on references and call_hierarchy) lists apart the same-name uses
no checker ties to a declaration. `all`: every source file, not only those the gate
checks; so references, implementation and call_hierarchy also ask about the `outside`
uses (same name, in files the gate does not check), which they otherwise list apart.
Fields and arguments at their default (null, empty, false, 0) are left out of answers and
schemas."""

OPERATIONS: tuple[Operation, ...] = (
    Operation(
        file_diagnostics.diagnostics,
        "Errors and warnings of a file or `content`, fresh: never an empty list while a "
        "server loads.",
        words={
            "content": Words(
                "Unsaved text to check instead.",
                cli="--content-file",
                cli_form="file",
                cli_help="check this file's text as if it were PATH ('-': stdin)",
            )
        },
        exclusive=("content", "baseline"),
    ),
    Operation(
        check.workspace_diagnostics,
        "Errors and warnings of the files the project's gate checks (see `scope`) or of "
        "`paths`; counts per file.",
        words={
            "paths": Words(
                "Globs, e.g. `src/**/*.py`.",
                cli="globs",
                cli_help="only files matching these globs",
            ),
            "all": Words("Every source file.", cli_form="flag"),
        },
        exclusive=("baseline",),
    ),
    Operation(
        preview.preview,
        "Errors that new, changed or deleted files would introduce or fix, dependents too.",
        words={
            "changes": Words(
                "`[{path, content}]`: whole new text; null deletes.",
                cli="--changes",
                cli_form="changes",
                cli_help="a JSON file of [{path, content}] ('-': stdin)",
            )
        },
        exclusive=("*",),
    ),
    Operation(navigation.hover, "Type, signature, docs."),
    Operation(navigation.definition, "Where a name is defined."),
    Operation(navigation.type_definition, "Where its type is defined."),
    Operation(navigation.implementation, "Subclasses and overrides."),
    Operation(
        references.references,
        "Uses by file, each named; `unresolved`: what no checker resolves.",
        words={
            "include_declaration": Words(
                "Count the definition.",
                cli="--no-declaration",
                cli_form="negate",
                cli_help="omit the declaration",
            ),
            "kind": Words(
                "`calls`: call sites only.",
                cli_help="all, or calls: call sites only (no declaration, import or re-export)",
            ),
        },
    ),
    Operation(
        symbols.document_symbols,
        "A file's outline in file order (with `symbol`: its members).",
        words={
            "symbol": Words("List only this symbol's members, e.g. `Console`."),
            "depth": Words("Levels (1: top level)."),
        },
        aliases=("symbols",),
    ),
    Operation(
        symbols.workspace_symbols,
        "Symbols by name; `Cls.` lists Cls's members.",
        words={
            "query": Words("A name or part of one."),
            "kind": Words(
                "`class`, `function`, ...",
                cli_help="only this kind (class, function, method, ...)",
            ),
        },
    ),
    Operation(
        references.call_hierarchy,
        "Callers (`incoming`) or callees (`outgoing`) by call site.",
        words={"direction": Words("`incoming` (callers) or `outgoing` (callees).")},
    ),
    Operation(
        rename.rename,
        "Rename: a diff and its `check`.",
        words={"new_name": Words("An identifier.", cli="NEW_NAME")},
        exclusive=("*",),  # its check holds text that is not on disk, as a preview
    ),
    Operation(
        fixes.fixes,
        "Quick fixes for errors at `line` (else the file): diffs with `check`s.",
        words={
            "path": Words(
                "File, relative to the root.",
                cli="PATH[:LINE[:COLUMN]]",
                cli_help="the file, and the line (and column) of the errors to fix",
            ),
            "line": Words("1-based."),
            "column": Words("1-based."),
            "source": Words("Organize imports etc.", cli_form="flag"),
        },
        exclusive=("*",),
    ),
    Operation(
        state.status,
        "Daemon and server states, for slow or missing answers.",
        cli=False,  # the CLI's own `lspd status`
        # tools/list leaves out the schema of this operational answer a model rarely reads:
        # its 1,400 characters would be paid in every session.
        output_schema=False,
    ),
    Operation(
        state.servers,
        "Every defined language server, whether it is found, and how to install it.",
        internal=("chosen", "root", "choice"),  # the CLI's `lspd servers` reads lspd.toml
        tool=False,
        cli=False,
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
