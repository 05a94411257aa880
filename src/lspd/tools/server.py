"""The MCP tools: names, inputs and descriptions an agent reads; the work is in `lspd.ops`.

Each tool returns the operation's pydantic model, so the SDK publishes its JSON Schema as
the tool's `outputSchema` and sends the result as `structuredContent`. An `LspdError`
becomes a tool error carrying the same message, which says what to send instead.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from lspd import __version__, ops
from lspd.errors import LspdError
from lspd.ops.models import (
    CallHierarchyResult,
    DiagnosticsResult,
    Direction,
    DocumentSymbolsResult,
    HoverResult,
    LocationsResult,
    ReferencesResult,
    StatusResult,
    WorkspaceDiagnosticsResult,
    WorkspaceSymbolsResult,
)
from lspd.tools.arguments import LspdServer
from lspd.workspace import Workspace

log = logging.getLogger(__name__)

T = TypeVar("T")

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

# A call still running after this long reports progress while a server starts or indexes.
PROGRESS_INTERVAL_S = 1.0

INSTRUCTIONS = """\
lspd answers code-intelligence questions about this workspace from warm language servers:
types and docs (hover), definitions, references, implementations, call hierarchies, symbols
and errors. Everything is read-only. Lines and columns are 1-based (as an editor shows them);
instead of a position you can name a symbol (`Greeter.greet`). Paths are relative to the
workspace root. Prefer these tools over grep when you need what a name *refers to*.\
"""

_POSITION = """
Say where with `path` + `line` + `column` (1-based, as an editor shows them; the column
counts characters of the line), or instead with `symbol`: a name path such as
`Greeter.greet` or `pkg.module.Greeter.greet` (an ambiguous name returns its candidates as
an error, so you can pick one)."""

# Inputs shared by the position tools; the descriptions land in each tool's inputSchema.
Path = Annotated[
    str | None,
    Field(description="File path, relative to the workspace root (or absolute inside it)."),
]
Line = Annotated[int | None, Field(description="1-based line number.")]
Column = Annotated[int | None, Field(description="1-based column (characters of the line).")]
SymbolName = Annotated[
    str | None,
    Field(description="Instead of a position: a name path such as `Greeter.greet`."),
]


def _limit(default: int) -> Any:
    return Field(description="Return at most this many items; the result says `truncated`.")


class Activity:
    """Tool calls in flight: the daemon stops no idle server while one runs."""

    def __init__(self) -> None:
        self.in_flight = 0


def build_server(ws: Workspace, activity: Activity | None = None) -> MCPServer[Any]:
    """The MCP server for one workspace (call `streamable_http_app` on it once)."""
    server: MCPServer[Any] = LspdServer(
        name="lspd", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    activity = activity or Activity()

    async def run(ctx: Context[Any, Any] | None, call: Awaitable[T]) -> T:
        """Await an operation: errors become tool errors; slow starts send progress."""
        task = asyncio.ensure_future(call)
        activity.in_flight += 1
        try:
            ticks = 0
            while True:
                done, _ = await asyncio.wait({task}, timeout=PROGRESS_INTERVAL_S)
                if done:
                    return task.result()
                ticks += 1
                if ctx is not None:
                    await _report(ctx, ws, ticks)
        except LspdError as exc:
            raise ToolError(str(exc)) from None
        except ToolError:
            raise
        except Exception as exc:
            log.exception("tool failed")
            raise ToolError(
                f"lspd failed unexpectedly ({type(exc).__name__}: {exc}); "
                f"the daemon log under {ws.log_dir.parent} has the details"
            ) from None
        finally:
            activity.in_flight -= 1
            if not task.done():
                task.cancel()

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Errors and warnings of one file from its language server (no hints). Use it after "
            "editing a file, or with `content` to check unsaved text before writing it. "
            "`fresh: true` means they are for the current content; a server that does not "
            "answer in time gives an error, never an empty list that only means 'not ready'. "
            "Positions are 1-based."
        ),
    )
    async def diagnostics(
        path: Annotated[str, Field(description="File path, relative to the workspace root.")],
        content: Annotated[
            str | None,
            Field(description="Unsaved full text to check instead of the file on disk."),
        ] = None,
        limit: Annotated[int, _limit(100)] = 100,
        ctx: Context[Any, Any] | None = None,
    ) -> DiagnosticsResult:
        return await run(ctx, ops.diagnostics(ws, path, content=content, limit=limit))

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Errors and warnings across the workspace (or the files matching `paths` globs): "
            "complete counts per file, worst first, and the diagnostics a page at a time "
            "(`next_offset` says where the next page starts). Use it to see whether a change "
            "broke other files. Slower than `diagnostics` on one file."
        ),
    )
    async def workspace_diagnostics(
        paths: Annotated[
            list[str] | None,
            Field(description="Glob patterns relative to the root, e.g. `src/**/*.py`."),
        ] = None,
        limit: Annotated[
            int,
            Field(description="Diagnostics per page, at most 1000 (the answer may stop sooner)."),
        ] = 50,
        offset: Annotated[
            int, Field(description="0-based index of the first diagnostic: a `next_offset`.")
        ] = 0,
        ctx: Context[Any, Any] | None = None,
    ) -> WorkspaceDiagnosticsResult:
        return await run(
            ctx, ops.workspace_diagnostics(ws, paths=paths, limit=limit, offset=offset)
        )

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The type, signature and documentation of the name at a position (markdown), "
            "as an editor's hover shows it. Use it to learn what a variable, call or "
            "parameter is without opening other files." + _POSITION
        ),
    )
    async def hover(
        path: Path = None,
        line: Line = None,
        column: Column = None,
        symbol: SymbolName = None,
        ctx: Context[Any, Any] | None = None,
    ) -> HoverResult:
        return await run(ctx, ops.hover(ws, path, line, column, symbol))

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Where the name at a position is defined: locations with path, 1-based range and "
            "the source line. Use it to jump from a use to its definition, across files and "
            "into libraries (paths outside the workspace are absolute)." + _POSITION
        ),
    )
    async def definition(
        path: Path = None,
        line: Line = None,
        column: Column = None,
        symbol: SymbolName = None,
        limit: Annotated[int, _limit(50)] = 50,
        ctx: Context[Any, Any] | None = None,
    ) -> LocationsResult:
        return await run(ctx, ops.definition(ws, path, line, column, symbol, limit=limit))

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Where the *type* of the name at a position is defined (e.g. the class of a "
            "variable): locations with path, 1-based range and source line." + _POSITION
        ),
    )
    async def type_definition(
        path: Path = None,
        line: Line = None,
        column: Column = None,
        symbol: SymbolName = None,
        limit: Annotated[int, _limit(50)] = 50,
        ctx: Context[Any, Any] | None = None,
    ) -> LocationsResult:
        return await run(ctx, ops.type_definition(ws, path, line, column, symbol, limit=limit))

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The implementations of an interface, abstract method or protocol at a position "
            "(subclasses, overriding methods): locations with path, 1-based range and source "
            "line." + _POSITION
        ),
    )
    async def implementation(
        path: Path = None,
        line: Line = None,
        column: Column = None,
        symbol: SymbolName = None,
        limit: Annotated[int, _limit(50)] = 50,
        ctx: Context[Any, Any] | None = None,
    ) -> LocationsResult:
        return await run(ctx, ops.implementation(ws, path, line, column, symbol, limit=limit))

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Every use of the name at a position, grouped by file, with `total` and "
            "`truncated`. Use it before renaming or changing a signature, to find every "
            "caller; more precise than grep (no false matches on equal names)." + _POSITION
        ),
    )
    async def references(
        path: Path = None,
        line: Line = None,
        column: Column = None,
        symbol: SymbolName = None,
        include_declaration: Annotated[
            bool, Field(description="Count the definition itself as a reference.")
        ] = True,
        limit: Annotated[int, _limit(200)] = 200,
        ctx: Context[Any, Any] | None = None,
    ) -> ReferencesResult:
        return await run(
            ctx,
            ops.references(
                ws,
                path,
                line,
                column,
                symbol,
                include_declaration=include_declaration,
                limit=limit,
            ),
        )

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The symbols of one file as a tree (classes, functions, methods, ...) with kinds, "
            "name paths and 1-based lines. Use it to get an outline of a file without reading "
            "it all, or to find the name path to pass as `symbol` to other tools."
        ),
    )
    async def document_symbols(
        path: Annotated[str, Field(description="File path, relative to the workspace root.")],
        depth: Annotated[
            int | None, Field(description="Levels to return: 1 = top level only; default all.")
        ] = None,
        limit: Annotated[int, _limit(500)] = 500,
        ctx: Context[Any, Any] | None = None,
    ) -> DocumentSymbolsResult:
        return await run(ctx, ops.document_symbols(ws, path, depth=depth, limit=limit))

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Find classes, functions, methods, ... by name anywhere in the workspace: matching "
            "symbols with name paths and 1-based locations. Use it when you know a name but "
            "not its file. `query` must not be empty."
        ),
    )
    async def workspace_symbols(
        query: Annotated[str, Field(description="A name or part of one, e.g. `Greeter`.")],
        kind: Annotated[
            str | None,
            Field(description="Only this kind: `class`, `function`, `method`, `variable`, ..."),
        ] = None,
        limit: Annotated[int, _limit(50)] = 50,
        ctx: Context[Any, Any] | None = None,
    ) -> WorkspaceSymbolsResult:
        return await run(ctx, ops.workspace_symbols(ws, query, kind=kind, limit=limit))

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "Who calls the function at a position (`incoming`) or what it calls (`outgoing`), "
            "with the call sites. Use it to trace the impact of a change up or down the call "
            "graph, one level per call." + _POSITION
        ),
    )
    async def call_hierarchy(
        path: Path = None,
        line: Line = None,
        column: Column = None,
        symbol: SymbolName = None,
        direction: Annotated[
            Direction, Field(description="`incoming` (callers) or `outgoing` (callees).")
        ] = "incoming",
        limit: Annotated[int, _limit(100)] = 100,
        ctx: Context[Any, Any] | None = None,
    ) -> CallHierarchyResult:
        return await run(
            ctx,
            ops.call_hierarchy(ws, path, line, column, symbol, direction=direction, limit=limit),
        )

    @server.tool(
        annotations=READ_ONLY,
        description=(
            "The daemon's state: workspace root, pid, version, uptime and each language "
            "server's state (`starting`, `indexing`, `ready`, `crashed`, `stopped`) with its "
            "open documents. Use it when answers are slow or a server seems missing."
        ),
    )
    async def status() -> StatusResult:
        return ops.status(ws)

    return server


async def _report(ctx: Context[Any, Any], ws: Workspace, ticks: int) -> None:
    busy = [s for s in ops.status(ws).servers if s.state in ("starting", "indexing")]
    if busy:
        message = ", ".join(f"{s.server} is {s.state}" for s in busy)
    else:
        message = "waiting for the language server"
    try:
        await ctx.report_progress(ticks * PROGRESS_INTERVAL_S, None, f"{message} ...")
    except Exception:  # a client that went away must not fail the call
        log.debug("progress notification failed", exc_info=True)


TOOL_NAMES = (
    "diagnostics",
    "workspace_diagnostics",
    "hover",
    "definition",
    "type_definition",
    "implementation",
    "references",
    "document_symbols",
    "workspace_symbols",
    "call_hierarchy",
    "status",
)
