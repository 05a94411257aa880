"""Position questions: hover, definition, type definition, implementation, references, calls.

Every location that stands for a symbol carries its name path (`Console.print`), so an
agent can tell two `__init__`s apart without asking for symbols. Lists are paged
(`lspd.ops.budget.page`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import PurePath

from lspd.errors import InvalidInput
from lspd.lsp import answers, shapes
from lspd.lsp.capabilities import symbol_kind_name
from lspd.lsp.text import uri_to_path
from lspd.ops import aliases, unsaved
from lspd.ops import unresolved as scan
from lspd.ops.arguments import check_flag, check_positive
from lspd.ops.budget import Window, check_paging, page
from lspd.ops.convert import Converter
from lspd.ops.markdown import clean, markdown
from lspd.ops.models import (
    Call,
    CallHierarchyResult,
    CallItem,
    Direction,
    FileReferences,
    HoverResult,
    LocationsResult,
    Reference,
    ReferencesResult,
    SymbolLocation,
)
from lspd.ops.outline import Namer
from lspd.ops.target import Target, resolve_target
from lspd.ops.unresolved import Place
from lspd.workspace import Workspace


async def _target(
    ws: Workspace,
    path: str | None,
    line: int | None,
    column: int | None,
    symbol: str | None,
    content: str | None = None,
) -> Target:
    if content is not None and path is not None:  # within `unsaved.held`
        target = await unsaved.target(ws, path, line, column, symbol, content)
    else:
        target = await resolve_target(ws, path, line, column, symbol)
    await ws.refresh_open_documents()  # passes over the file held
    return target


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
        target = await _target(ws, path, line, column, symbol, content)
        answer = await target.session.request(answers.HOVER, target.params())
        contents = clean(markdown(answer["contents"])) if answer else ""
        unfolded = await aliases.unfolded(ws, target, contents)
    if unfolded:  # what the aliases it names stand for, one level
        contents += "\n\n" + "\n".join(["Aliases:", "```", *unfolded, "```"])
    result = HoverResult(contents=contents, found=bool(contents.strip()))
    if symbol is not None:  # where the name led: not implied by the request
        result.path = ws.display(target.document.path)
        result.line, result.column = target.line, target.column
    return result


async def _locations(
    method: answers.Method[shapes.PositionParams, shapes.Locations],
    capability: str,
    ws: Workspace,
    target: Target,
    limit: int,
    offset: int,
) -> LocationsResult:
    if not target.session.supports(capability):
        raise InvalidInput(
            f"{target.session.name} does not offer {method.name.split('/')[-1]}; "
            "try `definition` instead"
        )
    answer = await target.session.request(method, target.params())
    found = Converter(ws, target.session.encoding).locations(answer)
    check_paging(offset, limit, len(found))
    namer = Namer(ws)
    named = [
        SymbolLocation(**loc.model_dump(), symbol=await namer.name(loc.path, loc.line, loc.column))
        for loc in found[offset : offset + limit]
    ]

    def build(w: Window) -> LocationsResult:
        return LocationsResult(
            locations=named[: w.count],
            total=w.total,
            truncated=w.truncated,
            next_offset=w.next_offset,
        )

    return page(len(found), offset, limit, build)


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
    check_positive("limit", limit)
    async with unsaved.held(ws, path, content):
        target = await _target(ws, path, line, column, symbol, content)
        return await _locations(answers.DEFINITION, "definitionProvider", ws, target, limit, offset)


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
    check_positive("limit", limit)
    async with unsaved.held(ws, path, content):
        target = await _target(ws, path, line, column, symbol, content)
        method = answers.TYPE_DEFINITION
        return await _locations(method, "typeDefinitionProvider", ws, target, limit, offset)


async def implementation(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> LocationsResult:
    """The implementations of the interface or method at a position, each named by its
    name path; `asked` marks the declaration the question was about when it is listed."""
    check_positive("limit", limit)
    target = await _target(ws, path, line, column, symbol)
    result = await _locations(
        answers.IMPLEMENTATION, "implementationProvider", ws, target, limit, offset
    )
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
) -> ReferencesResult:
    """Every use of the name at a position, grouped by file with complete counts per file;
    each use names its enclosing symbol. Paged in path order, the same-name uses the checker
    ties to no declaration (`unresolved`) beside them."""
    check_positive("limit", limit)
    check_flag("include_declaration", include_declaration)
    check_flag("unresolved", unresolved)
    target = await _target(ws, path, line, column, symbol)
    context: shapes.ReferenceContext = {"includeDeclaration": include_declaration}
    params: shapes.ReferenceParams = {**target.params(), "context": context}
    scanning = scan.start(ws, target, unresolved)
    try:
        answer = await target.session.request(answers.REFERENCES, params)
    except BaseException:
        await scan.stop(scanning)
        raise
    found = Converter(ws, target.session.encoding).locations(answer)
    found.sort(key=lambda loc: (loc.path.startswith("/"), loc.path, loc.line, loc.column))
    namer = Namer(ws)
    known = {(loc.path, loc.line, loc.column) for loc in found}
    scanned = await scan.finish(ws, target, scanning, known, namer)
    rows = max(len(found), len(scanned.uses))  # both lists are paged by the same window
    check_paging(offset, limit, rows)
    counts = _counts(loc.path for loc in found)
    uses = [
        Reference(
            line=loc.line,
            column=loc.column,
            text=loc.text,
            symbol=await namer.name(loc.path, loc.line, loc.column),
        )
        for loc in found[offset : offset + limit]
    ]
    unknown = [
        Reference(line=line, column=column, text=text, symbol=await namer.name(path, line, column))
        for (path, line, column), text in scanned.page(offset, limit)
    ]
    unknown_counts = _counts(path for path, _, _ in scanned.uses)
    summary = scan.summary(scan.references_head(len(found), len(counts)), scanned)

    def build(w: Window) -> ReferencesResult:
        places = [(loc.path, loc.line, loc.column) for loc in found[w.offset : w.end]]
        unknown_places = scanned.uses[w.offset : w.end]
        return ReferencesResult(
            summary=summary,
            files=_by_file(counts, places, uses),
            total=len(found),
            truncated=w.truncated,
            next_offset=w.next_offset,
            unresolved=_by_file(unknown_counts, unknown_places, unknown),
            unresolved_total=len(scanned.uses),
            candidates=scanned.candidates,
        )

    return page(rows, offset, limit, build)


def _counts(paths: Iterable[str]) -> dict[str, int]:
    """How many places each file has, files in the order they come."""
    counts: dict[str, int] = {}
    for path in paths:
        counts[path] = counts.get(path, 0) + 1
    return counts


def _by_file(
    counts: dict[str, int], places: list[Place], uses: list[Reference]
) -> list[FileReferences]:
    """Each file with its complete count and the uses of this page (`places` and `uses`
    in step; `uses` may run past the page)."""
    by_file: dict[str, list[Reference]] = {path: [] for path in counts}
    for (path, _, _), use in zip(places, uses, strict=False):
        by_file[path].append(use)
    return [FileReferences(path=p, count=counts[p], references=by_file[p]) for p in counts]


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
) -> CallHierarchyResult:
    """The callers (`incoming`) or callees (`outgoing`) of the function at a position:
    one entry per call site, each naming the caller or callee by its name path; incoming,
    the same-name uses the checker ties to no declaration (`unresolved`) beside them."""
    check_positive("limit", limit)
    if direction not in ("incoming", "outgoing"):
        raise InvalidInput(f"`direction` must be 'incoming' or 'outgoing', not {direction!r}")
    check_flag("unresolved", unresolved)
    target = await _target(ws, path, line, column, symbol)
    session = target.session
    if not session.supports("callHierarchyProvider"):
        raise InvalidInput(f"{session.name} does not offer a call hierarchy; try `references`")
    items = await session.request(answers.PREPARE_CALL_HIERARCHY, target.params())
    namer = Namer(ws)
    if not items:
        raise await _not_callable(ws, namer, target)
    convert = Converter(ws, session.encoding)
    root = items[0]
    asked: shapes.CallHierarchyParams = {"item": root}
    # Each caller (incoming) or callee (outgoing), the file of its call sites, the sites.
    ends: list[tuple[shapes.CallHierarchyItem, str, list[shapes.Range]]]
    scanning = scan.start(ws, target, unresolved and direction == "incoming")
    try:
        if direction == "incoming":
            incoming = await session.request(answers.INCOMING_CALLS, asked) or []
            ends = [(c["from"], c["from"]["uri"], c["fromRanges"]) for c in incoming]
        else:
            outgoing = await session.request(answers.OUTGOING_CALLS, asked) or []
            ends = [(c["to"], root["uri"], c["fromRanges"]) for c in outgoing]
    except BaseException:
        await scan.stop(scanning)
        raise
    calls: dict[tuple[str, int, int], Call] = {}
    for other, sites_uri, site_ranges in ends:
        end = await _call_item(convert, namer, other)
        for site_range in site_ranges:
            site = convert.location(sites_uri, site_range)
            if site is None or (site.path, site.line, site.column) in calls:
                continue
            symbol, kind = end.symbol, end.kind
            if direction == "incoming":  # named as `references` names the site
                symbol, kind = await namer.caller(site.path, site.line, site.column)
            calls[(site.path, site.line, site.column)] = Call(
                symbol=symbol,
                kind=kind,
                path=site.path,
                line=site.line,
                column=site.column,
                text=site.text,
                defined=f"{end.path}:{end.line}" if direction == "outgoing" else None,
            )
    ordered = [calls[key] for key in sorted(calls)]
    if direction == "incoming":
        scanned = await scan.finish(ws, target, scanning, set(calls), namer)
    else:
        scanned = scan.Scan(scan.name_at(target), skipped="callees have no unresolved uses")
    rows = max(len(ordered), len(scanned.uses))  # both lists are paged by the same window
    check_paging(offset, limit, rows)
    item = await _call_item(convert, namer, root)
    unknown = [await _caller(namer, place, text) for place, text in scanned.page(offset, limit)]
    files = len({path for path, _, _ in calls})
    head = f"{scan.plural(len(ordered), 'call')} in {scan.plural(files, 'file')}"
    summary = scan.summary(head, scanned) if direction == "incoming" else head

    def build(w: Window) -> CallHierarchyResult:
        return CallHierarchyResult(
            summary=summary,
            item=item,
            direction=direction,
            calls=ordered[w.offset : w.end],
            total=len(ordered),
            truncated=w.truncated,
            next_offset=w.next_offset,
            unresolved=unknown[: w.count],
            unresolved_total=len(scanned.uses),
            candidates=scanned.candidates,
        )

    return page(rows, offset, limit, build)


async def _caller(namer: Namer, place: Place, text: str) -> Call:
    """An unresolved use as a call site of whatever encloses it (a module: its file)."""
    path, line, column = place
    symbol, kind = await namer.caller(path, line, column)
    return Call(symbol=symbol, kind=kind, path=path, line=line, column=column, text=text)


async def _call_item(convert: Converter, namer: Namer, item: shapes.CallHierarchyItem) -> CallItem:
    """The function of a call hierarchy item, named and kinded from its file's symbols
    (servers name a method just `__init__` and may call it a function)."""
    path = uri_to_path(item["uri"])
    start = item["selectionRange"]["start"]
    shown = convert.ws.display(path) if path else item["uri"]
    line = start["line"] + 1
    column = convert.column(path, start["line"], start["character"]) if path else 1
    node = await namer.at(shown, line, column) if path else None
    exact = node is not None and node.line == line and node.name == item["name"]
    # A file's top level: tsserver names it by the file's name, TypeScript 7 by its path.
    name = PurePath(item["name"]).name if os.path.isabs(item["name"]) else item["name"]
    return CallItem(
        symbol=node.name_path if node is not None and exact else name,
        kind=node.kind if node is not None and exact else symbol_kind_name(item["kind"]),
        path=shown,
        line=line,
        column=column,
    )


async def _not_callable(ws: Workspace, namer: Namer, target: Target) -> InvalidInput:
    """Why there is no call hierarchy here: what the position holds instead."""
    shown = ws.display(target.document.path)
    where = f"{shown}:{target.line}:{target.column}"
    node = await namer.at(shown, target.line, target.column)
    exact = node is not None and node.line == target.line
    what = f"`{node.name_path}` ({node.kind})" if node is not None and exact else "what is there"
    return InvalidInput(
        f"{what} at {where} is not a function or method, so it has no callers or callees "
        f"to list; use `references` for its uses, or point at a function's name"
    )
