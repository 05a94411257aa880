"""Where a name leads: hover, definition, type definition, implementation.

Every location that stands for a symbol carries its name path (`Console.print`), so an
agent can tell two `__init__`s apart without asking for symbols. Lists are paged
(`lspd.ops.budget.page`). The uses of a name are `lspd.ops.references`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack

from lspd.errors import InvalidInput
from lspd.lsp import answers, shapes
from lspd.ops import aliases, candidates, kept_answers, outside, unsaved
from lspd.ops.arguments import check_flag, check_positive
from lspd.ops.budget import Window, check_paging, page
from lspd.ops.convert import Converter
from lspd.ops.markdown import clean, markdown
from lspd.ops.models import Location
from lspd.ops.navigation_models import (
    HoverResult,
    ImplementationResult,
    LocationsResult,
    SymbolLocation,
)
from lspd.ops.resolve import undefined
from lspd.ops.target import Target
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import Namer

LocationMethod = answers.Method[shapes.PositionParams, shapes.Locations]


async def hover(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    content: str | None = None,
) -> HoverResult:
    """The type, signature and docs at a position (or at the symbol named), as markdown;
    with `content`, as if `path` held it."""
    async with unsaved.held(ws, path, content):
        target = await unsaved.target_at(ws, (path, line, column, symbol), content)
        answer = await target.session.request(answers.HOVER, target.params())
        contents = clean(markdown(answer["contents"])) if answer else ""
        span = None
        if answer and "range" in answer:  # in the text held now (`content`'s too)
            convert = Converter(ws, target.session.encoding)
            span = convert.span(target.document.path, answer["range"])
        unfolded = await aliases.unfolded(ws, target, contents)
    if unfolded:  # what the aliases it names stand for, one level
        contents += "\n\n" + "\n".join(["Aliases:", "```", *unfolded, "```"])
    toolchain = target.session.toolchain  # which TypeScript or Python answered
    found = bool(contents.strip())
    result = HoverResult(contents=contents, found=found, range=span, toolchain=toolchain)
    if symbol is not None:  # where the name led: not implied by the request
        result.path = ws.display(target.document.path)
        result.line, result.column = target.line, target.column
    return result


async def _locations(
    ws: Workspace,
    method: LocationMethod,
    at: unsaved.At,
    limit: int,
    offset: int,
    content: str | None = None,
    more: Callable[[], Awaitable[list[Location]]] | None = None,
) -> tuple[Target, LocationsResult]:
    """The body of every location question (definition, type definition, implementation):
    the places `method` answers at the position `at` (and those `more` adds), each named
    by its name path, paged."""
    check_positive("limit", limit)
    path = at[0]
    async with unsaved.held(ws, path, content):
        target = await unsaved.target_at(ws, at, content)
        if method.provider is not None and not target.session.supports(method.provider):
            raise InvalidInput(
                f"{target.session.name} does not offer {method.name.split('/')[-1]}; "
                "try `definition` instead"
            )

        async def places() -> tuple[int, list[SymbolLocation]]:
            found = Converter(ws, target.session.encoding).locations(answer)
            if more is not None:
                seen = {(loc.path, loc.line, loc.column) for loc in found}
                found += [
                    loc for loc in await more() if (loc.path, loc.line, loc.column) not in seen
                ]
            check_paging(offset, limit, len(found))
            namer = Namer(ws)
            return len(found), [
                SymbolLocation(
                    **loc.model_dump(), symbol=await namer.name(loc.path, loc.line, loc.column)
                )
                for loc in found[offset : offset + limit]
            ]

        if method is answers.DEFINITION and content is None:  # kept while nothing changed
            answer, kept = await kept_answers.definition(ws, target.session, target.params())
            made = kept_answers.places(ws, answer, (offset, limit), places) if kept else places()
            total, named = await made
        else:
            answer = await target.session.request(method, target.params())
            total, named = await places()

    def build(w: Window) -> LocationsResult:
        toolchain = target.session.toolchain
        return LocationsResult(locations=named[: w.count], toolchain=toolchain, **w.paging)

    return target, page(total, offset, limit, build)


async def definition(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    limit: int = 50,
    offset: int = 0,
    content: str | None = None,
) -> LocationsResult:
    """Where the name at a position is defined, each place named by its name path."""
    at = (path, line, column, symbol)
    target, found = await _locations(ws, answers.DEFINITION, at, limit, offset, content)
    if symbol is not None and not found.total:  # a symbol found has one: its declaration
        where = f"{ws.display(target.document.path)}:{target.line}:{target.column}"
        raise undefined(symbol, where, target.session.name)
    return found


async def type_definition(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    limit: int = 50,
    offset: int = 0,
    content: str | None = None,
) -> LocationsResult:
    """Where the type of the name at a position is defined."""
    at = (path, line, column, symbol)
    return (await _locations(ws, answers.TYPE_DEFINITION, at, limit, offset, content))[1]


async def implementation(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    limit: int = 50,
    offset: int = 0,
    all: bool = False,
) -> ImplementationResult:
    """The implementations of the interface or method at a position, each named by its
    name path; `asked` marks the declaration the question was about when it is listed.
    Beside them, the name's uses in source files the gate does not check (`outside`); with
    `all`, the server is asked with those files open."""
    check_flag("all", all)
    at = (path, line, column, symbol)
    target, found = await _locations(ws, answers.IMPLEMENTATION, at, limit, offset)
    prepared = await candidates.prepare(ws, target)
    if all and prepared.outside_texts:
        async with AsyncExitStack() as stack:
            held = [
                await stack.enter_async_context(ws.sync.visiting(held_path))
                for held_path in list(prepared.outside_texts)[: outside.MAX_OPENED]
            ]

            async def more() -> list[Location]:
                return await outside.implementations_from(ws, held, prepared)

            target, found = await _locations(
                ws, answers.IMPLEMENTATION, at, limit, offset, more=more
            )
    result = ImplementationResult(**dict(found))
    if not all:
        await outside.listed(ws, prepared, result, offset, limit)
    declared = await target.session.request(answers.DEFINITION, target.params())
    places = {
        (loc.path, loc.line) for loc in Converter(ws, target.session.encoding).locations(declared)
    }
    for index, location in enumerate(result.locations):
        if (location.path, location.line) in places:
            result.asked = index
            break
    return result
