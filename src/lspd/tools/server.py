"""The MCP server: the tools an agent reads, derived from the table of operations.

One tool per operation of `lspd.surface.table` (its name, description, parameters and result
model): the SDK publishes the model's JSON Schema as the tool's `outputSchema`; the answer is
its compact wire form (`lspd.ops.budget.compact`) as `structuredContent` and, as compact
JSON, as the text block. An `LspdError`
becomes a tool error carrying the same message, which says what to send instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.jsonrpc_dispatcher import progress_token_from_params
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from lspd import __version__
from lspd.errors import ERROR_KIND_META, LspdError, kind_of
from lspd.ops.budget import compact, compact_json
from lspd.ops.state import status
from lspd.surface.table import OPERATIONS, RULES, TOOL_NAMES, Operation, call
from lspd.tools.arguments import LspdServer
from lspd.tools.calls import Activity, Calls, call_key
from lspd.tools.hints import Told, agent_of
from lspd.workspace import Workspace

__all__ = ["INSTRUCTIONS", "READ_ONLY", "TOOL_NAMES", "Activity", "build_server"]

log = logging.getLogger(__name__)

T = TypeVar("T")

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

# A call still running after this long reports progress while a server starts or indexes.
PROGRESS_INTERVAL_S = 1.0

INSTRUCTIONS = f"""\
lspd answers code-intelligence questions about this workspace from warm language servers:
types and docs (hover), definitions, references, implementations, call hierarchies, symbols
and errors. Everything is read-only. Prefer these tools over grep when you need what a name
*refers to*. Checking your work: `preview` says what proposed `changes` would break before you
write them; before you finish, `workspace_diagnostics` with `baseline: "HEAD"` lists what your
work introduced (`changes.introduced`), not the errors that were there before. If lspd's
hooks are installed, they tell you after each edit what it broke (no message: checked,
nothing new; "still checking": the rest follows at your next edit) and hold your stop while
your changes leave errors.
{RULES}"""


class _Refused(ToolError):
    """An lspd error as a tool error, with its kind."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def build_server(
    ws: Workspace,
    activity: Activity | None = None,
    calls: Calls | None = None,
    told: Told | None = None,
) -> MCPServer[Any]:
    """The MCP server for one workspace (call `streamable_http_app` on it once); `calls`
    records each tool call (the status page's list of requests); `told`: the hints each
    agent heard, shared with the calls answered before the SDK (`lspd.daemon.early`)."""
    server: MCPServer[Any] = LspdServer(
        name="lspd", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    activity = activity or Activity()
    told = told or Told()  # the environment hint: in full once per agent session

    async def run(ctx: Context[Any, Any] | None, work: Awaitable[T]) -> T:
        """Await an operation: errors become tool errors; slow starts send progress.

        The operation runs in the caller's task; a timer starts the progress reports only
        once it has run `PROGRESS_INTERVAL_S` (most calls end long before: no task per call).
        """
        activity.in_flight += 1
        progress = _Progress(ctx, ws) if ctx is not None and _reports(ctx) else None
        try:
            return await work
        except LspdError as exc:
            raise _Refused(str(exc), kind_of(exc)) from None
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
            if progress is not None:
                await progress.stop()

    for op in OPERATIONS:
        if op.tool:
            server.add_tool(
                _tool_function(op, ws, run, calls, told, activity.failed),
                name=op.name,
                description=op.description,
                annotations=READ_ONLY,
            )
    return server


def _reports(ctx: Context[Any, Any]) -> bool:
    """Whether the caller asked for progress: a call the SDK dispatched with a progress
    token. Without one the SDK sends nothing; the calls answered beside it
    (`lspd.daemon.mcp_direct`) never carry one (those go to the SDK) and, like calls made in
    process, have no request context to report through: no progress, by design."""
    try:
        request = ctx.request_context
    except ValueError:  # "Context is not available outside of a request"
        return False
    return progress_token_from_params(request.params) is not None


class _Progress:
    """Progress notifications of one call, every `PROGRESS_INTERVAL_S` from its first on."""

    def __init__(self, ctx: Context[Any, Any], ws: Workspace) -> None:
        self.ctx, self.ws = ctx, ws
        self.task: asyncio.Task[None] | None = None
        self.sent = asyncio.Event()  # set between reports: none is being sent
        self.timer = asyncio.get_running_loop().call_later(PROGRESS_INTERVAL_S, self._start)

    def _start(self) -> None:
        self.task = asyncio.ensure_future(self._report_each_interval())

    async def _report_each_interval(self) -> None:
        ticks = 0
        while True:
            ticks += 1
            self.sent.clear()
            await _report(self.ctx, self.ws, ticks)
            self.sent.set()
            await asyncio.sleep(PROGRESS_INTERVAL_S)

    async def stop(self) -> None:
        self.timer.cancel()
        if self.task is not None:
            # A report begun is sent whole: cancelled mid-send (a call ending just after its
            # first second, on a loaded machine), the call's one report was lost.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.sent.wait(), PROGRESS_INTERVAL_S)
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


async def _report(ctx: Context[Any, Any], ws: Workspace, ticks: int) -> None:
    busy = [s for s in status(ws).servers if s.state in ("starting", "indexing")]
    if busy:
        message = ", ".join(f"{s.server} is {s.state}" for s in busy)
    else:
        message = "waiting for the language server"
    try:
        await ctx.report_progress(ticks * PROGRESS_INTERVAL_S, None, f"{message} ...")
    except Exception:  # a client that went away must not fail the call
        log.debug("progress notification failed", exc_info=True)


async def _raising(error: Exception) -> Any:
    """The error a call met before the MCP SDK was up, raised where the call would run."""
    raise error


def _tool_function(
    op: Operation,
    ws: Workspace,
    run: Callable[[Context[Any, Any] | None, Awaitable[Any]], Any],
    calls: Calls | None,
    told: Told,
    failures: dict[str, Exception],
) -> Callable[..., Awaitable[Any]]:
    """A function with the operation's parameters as its signature: the SDK reads the
    input schema (with each parameter's description) and the output schema from it."""

    async def tool(**arguments: Any) -> CallToolResult:
        ctx = arguments.pop("ctx", None)
        began = time.perf_counter()
        failed = failures.pop(call_key(op.name, arguments), None)  # run before the SDK was up
        work = _raising(failed) if failed is not None else call(op, ws, arguments)
        try:
            data = told.shorten(agent_of(ctx), compact(await run(ctx, work)))
        except _Refused as exc:  # the error's kind for scripts (`lspd ... --json`): in _meta
            text = TextContent(type="text", text=str(exc))
            if calls is not None:
                calls.record(op.name, arguments, time.perf_counter() - began, 0, text.text)
            return CallToolResult(content=[text], is_error=True, _meta={ERROR_KIND_META: exc.kind})
        except ToolError as exc:  # lspd failed unexpectedly (`run` says so)
            if calls is not None:
                calls.record(op.name, arguments, time.perf_counter() - began, 0, str(exc))
            raise
        text = TextContent(type="text", text=compact_json(data))
        if calls is not None:
            calls.record(op.name, arguments, time.perf_counter() - began, len(text.text), None)
        return CallToolResult(content=[text], structured_content=data)

    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter(
            param.name,
            keyword,
            default=inspect.Parameter.empty if param.required else param.default,
            annotation=Annotated[param.annotation, Field(description=param.description)],
        )
        for param in op.all_params
    ]
    parameters.append(
        inspect.Parameter("ctx", keyword, default=None, annotation=Context[Any, Any] | None)
    )
    result = op.result_model()
    tool.__signature__ = inspect.Signature(parameters, return_annotation=result)  # type: ignore[attr-defined]
    tool.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": result}
    tool.__name__ = tool.__qualname__ = op.name
    return tool
