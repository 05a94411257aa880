"""Position questions: hover, definition, type definition, implementation, references, calls.

Every location that stands for a symbol carries its name path (`Console.print`), so an
agent can tell two `__init__`s apart without asking for symbols. Lists are paged
(`lspd.ops.budget.page`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Literal, TypeVar

from lspd.errors import InvalidInput
from lspd.lsp import answers, shapes
from lspd.ops import aliases, call_sites, kept_answers, listing, outside, unsaved
from lspd.ops import unresolved as scan
from lspd.ops.arguments import check_flag, check_positive
from lspd.ops.budget import Window, check_paging, page
from lspd.ops.convert import Converter
from lspd.ops.markdown import clean, markdown
from lspd.ops.models import (
    Call,
    CallHierarchyResult,
    Direction,
    HoverResult,
    ImplementationResult,
    Location,
    LocationsResult,
    ReferencesResult,
    SymbolLocation,
)
from lspd.ops.resolve import undefined
from lspd.ops.target import Target, resolve_target
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import Namer

T = TypeVar("T")
LocationMethod = answers.Method[shapes.PositionParams, shapes.Locations]


At = tuple[str | None, int | None, int | None, str | None]  # path, line, column, symbol


async def _target(ws: Workspace, at: At, content: str | None = None) -> Target:
    path = at[0]
    if content is not None and path is not None:  # within `unsaved.held`
        target = await unsaved.target(ws, path, *at[1:], content)
    else:
        target = await resolve_target(ws, *at)
    await ws.refresh_open_documents()  # passes over the file held
    return target


async def _asked(scanning: asyncio.Task[scan.Prepared] | None, question: Awaitable[T]) -> T:
    """The server's answer, asked while the scan runs; the scan stopped if it fails."""
    try:
        return await question
    except BaseException:
        await scan.stop(scanning)
        raise


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
        target = await _target(ws, (path, line, column, symbol), content)
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
    at: At,
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
        target = await _target(ws, at, content)
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
    prepared = await scan.prepare(ws, target)
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


async def references(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    include_declaration: bool = True,
    limit: int = 25,
    offset: int = 0,
    unresolved: bool = True,
    kind: Literal["all", "calls"] = "all",
    all: bool = False,
) -> ReferencesResult:
    """Every use of the name at a position, grouped by file with complete counts per file;
    each use names its enclosing symbol. Paged in path order, the same-name uses the checker
    ties to no declaration (`unresolved`) and those in files the gate does not check
    (`outside`; with `all`, asked like the others) beside them; `kind: "calls"`: calls
    only (no declaration, import or re-export). `all` with `unresolved: false` still asks
    about the uses outside the gate: those tied to the symbol join the answer, no list of
    the others."""
    check_positive("limit", limit)
    check_flag("include_declaration", include_declaration)
    check_flag("unresolved", unresolved)
    check_flag("all", all)
    if kind not in listing.KINDS:
        raise InvalidInput(f"`kind` must be 'all' or 'calls', not {kind!r}")
    target = await _target(ws, (path, line, column, symbol))
    context: shapes.ReferenceContext = {"includeDeclaration": include_declaration}
    params: shapes.ReferenceParams = {**target.params(), "context": context}
    scanning = scan.start(ws, target, unresolved, everywhere=all)
    answer = await _asked(scanning, target.session.request(answers.REFERENCES, params))
    convert = Converter(ws, target.session.encoding)
    found = convert.locations(answer)
    namer = Namer(ws)
    known = {(loc.path, loc.line, loc.column) for loc in found}
    scanned = await scan.finish(ws, target, scanning, known, namer)
    found += [listing.located(place, text, scanned.name) for place, text in scanned.confirmed]
    found.sort(key=lambda loc: (loc.path.startswith("/"), loc.path, loc.line, loc.column))
    if kind == "calls":
        found = await _calls(listing.Calls(convert, namer, scanned.name), found, scanned)
    beside = (scanned, scanning is not None)
    noun = "call" if kind == "calls" else "reference"
    return await _references_page(target, namer, found, beside, noun, (offset, limit))


async def _references_page(
    target: Target,
    namer: Namer,
    found: list[Location],
    beside: tuple[scan.Scan, bool],
    noun: str,
    window: tuple[int, int],
) -> ReferencesResult:
    """One page of the references, grouped by file, and in the same window the scan's
    lists (`beside`: the scan and whether it was started)."""
    (scanned, started), (offset, limit) = beside, window
    rows = max(len(found), len(scanned.uses), len(scanned.outside))  # one window for all
    check_paging(offset, limit, rows)
    counts = listing.counts(loc.path for loc in found)
    uses = await listing.named(
        namer,
        [((loc.path, loc.line, loc.column), loc.text) for loc in found[offset : offset + limit]],
    )
    fields = await outside.beside_references(namer, scanned, started, offset, limit)
    head = f"{scan.plural(len(found), noun)} in {scan.plural(len(counts), 'file')}"
    summary = scan.summary(head, scanned)

    def build(w: Window) -> ReferencesResult:
        places = [(loc.path, loc.line, loc.column) for loc in found[w.offset : w.end]]
        return ReferencesResult(
            summary=summary,
            toolchain=target.session.toolchain,
            files=listing.by_file(counts, places, uses),
            total=len(found),
            truncated=w.truncated,
            next_offset=w.next_offset,
            **fields(w),
        )

    return page(rows, offset, limit, build)


async def _calls(calls: listing.Calls, found: list[Location], scanned: scan.Scan) -> list[Location]:
    """Only the calls among the references, and among the scan's lists (in place)."""
    keep = await calls.keep([(loc.path, loc.line, loc.column) for loc in found])
    for uses, texts in ((scanned.uses, scanned.texts), (scanned.outside, scanned.outside_texts)):
        kept = await calls.keep(uses)
        pairs = [(u, t) for u, t in zip(uses, texts, strict=True) if u in kept]
        uses[:] = [u for u, _ in pairs]
        texts[:] = [t for _, t in pairs]
    return [loc for loc in found if (loc.path, loc.line, loc.column) in keep]


async def call_hierarchy(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    direction: Direction = "incoming",
    limit: int = 50,
    offset: int = 0,
    unresolved: bool = True,
    all: bool = False,
) -> CallHierarchyResult:
    """The callers (`incoming`) or callees (`outgoing`) of the function at a position:
    one entry per call site, each naming the caller or callee by its name path; incoming,
    the same-name uses the checker ties to no declaration (`unresolved`) and those in files
    the gate does not check (`outside`; with `all`, asked like the others) beside them;
    `all` with `unresolved: false`: the callers found outside the gate, no list of others."""
    check_positive("limit", limit)
    if direction not in ("incoming", "outgoing"):
        raise InvalidInput(f"`direction` must be 'incoming' or 'outgoing', not {direction!r}")
    check_flag("unresolved", unresolved)
    check_flag("all", all)
    target = await _target(ws, (path, line, column, symbol))
    namer = Namer(ws)
    root = await call_sites.prepare(ws, namer, target)
    convert = Converter(ws, target.session.encoding)
    incoming = direction == "incoming"  # callees have no unresolved uses
    scanning = scan.start(ws, target, unresolved and incoming, everywhere=all and incoming)
    ends = await _asked(scanning, call_sites.ends(target.session, root, direction))
    calls = await call_sites.sites(convert, namer, ends, direction)
    if direction == "incoming":
        scanned = await _callers(ws, target, scanning, calls, convert, namer)
    else:
        scanned = scan.Scan(scan.name_at(target), skipped="callees have no unresolved uses")
    ordered = [calls[key] for key in sorted(calls)]
    rows = max(len(ordered), len(scanned.uses), len(scanned.outside))  # one window for all
    check_paging(offset, limit, rows)
    item = await call_sites.call_item(convert, namer, root)
    fields = await outside.beside_calls(namer, scanned, scanning is not None, offset, limit)
    files = len({path for path, _, _ in calls})
    head = f"{scan.plural(len(ordered), 'call')} in {scan.plural(files, 'file')}"
    result = CallHierarchyResult(
        summary=scan.summary(head, scanned) if direction == "incoming" else head,
        toolchain=target.session.toolchain,
        item=item,
        direction=direction,
        total=len(ordered),
    )
    return page(rows, offset, limit, lambda w: _calls_page(result, ordered, w, fields))


async def _callers(
    ws: Workspace,
    target: Target,
    scanning: asyncio.Task[scan.Prepared] | None,
    calls: dict[scan.Place, Call],
    convert: Converter,
    namer: Namer,
) -> scan.Scan:
    """The scan beside the callers; the uses it ties to the function in files the server's
    search left out that are calls join `calls` (in place)."""
    scanned = await scan.finish(ws, target, scanning, set(calls), namer)
    found = listing.Calls(convert, namer, scanned.name)
    for place, text in scanned.confirmed:  # in files the server's search left out
        if await found.is_call(place):
            calls[place] = await call_sites.caller(namer, place, text)
    return scanned


def _calls_page(
    result: CallHierarchyResult, ordered: list[Call], w: Window, fields: outside.Beside
) -> CallHierarchyResult:
    """`result` with the window `w` of the calls and of the scan's lists."""
    calls = ordered[w.offset : w.end]
    paging = {"truncated": w.truncated, "next_offset": w.next_offset}
    return result.model_copy(update={"calls": calls, **paging, **fields(w)})
