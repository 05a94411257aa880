"""Use questions: references and call hierarchy, each with the unresolved scan's lists beside it.

Each use names its enclosing symbol by its name path; the same-name uses the checker ties
to no declaration (`lspd.ops.unresolved`) and those in files the gate does not check
(`lspd.ops.outside`) are paged in the same window as the answer's own list
(`lspd.ops.budget.page`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Literal, TypeVar

from lspd.errors import InvalidInput
from lspd.lsp import answers, shapes
from lspd.ops import call_sites, listing, outside, unsaved
from lspd.ops import unresolved as scan
from lspd.ops.arguments import check_flag, check_positive
from lspd.ops.budget import Window, check_paging, page
from lspd.ops.candidates import Prepared, name_at
from lspd.ops.convert import Converter
from lspd.ops.models import Location
from lspd.ops.navigation_models import Call, CallHierarchyResult, Direction, ReferencesResult
from lspd.ops.target import Target
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import Namer

T = TypeVar("T")


async def _asked(scanning: asyncio.Task[Prepared] | None, question: Awaitable[T]) -> T:
    """The server's answer, asked while the scan runs; the scan stopped if it fails."""
    try:
        return await question
    except BaseException:
        await scan.stop(scanning)
        raise


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
    target = await unsaved.target_at(ws, (path, line, column, symbol))
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
    target = await unsaved.target_at(ws, (path, line, column, symbol))
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
        scanned = scan.Scan(name_at(target), skipped="callees have no unresolved uses")
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
    scanning: asyncio.Task[Prepared] | None,
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
