"""Position questions: hover, definition, type definition, implementation, references, calls.

Every location that stands for a symbol carries its name path (`Console.print`), so an
agent can tell two `__init__`s apart without asking for symbols. Lists are paged
(`lspd.ops.budget.page`).
"""

from __future__ import annotations

from collections.abc import Iterable

from lspd.errors import InvalidInput
from lspd.lsp import answers, shapes
from lspd.ops import aliases, call_sites, unsaved
from lspd.ops import unresolved as scan
from lspd.ops.arguments import check_flag, check_positive
from lspd.ops.budget import Window, check_paging, page
from lspd.ops.convert import Converter
from lspd.ops.markdown import clean, markdown
from lspd.ops.models import (
    CallHierarchyResult,
    Direction,
    FileReferences,
    HoverResult,
    Location,
    LocationsResult,
    Reference,
    ReferencesResult,
    SymbolLocation,
)
from lspd.ops.target import Target, resolve_target
from lspd.ops.unresolved import Place
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import Namer


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
    toolchain = target.session.toolchain  # which TypeScript or Python answered
    result = HoverResult(contents=contents, found=bool(contents.strip()), toolchain=toolchain)
    if symbol is not None:  # where the name led: not implied by the request
        result.path = ws.display(target.document.path)
        result.line, result.column = target.line, target.column
    return result


async def _locations(
    ws: Workspace,
    method: answers.Method[shapes.PositionParams, shapes.Locations],
    at: tuple[str | None, int | None, int | None, str | None],
    limit: int,
    offset: int,
    content: str | None = None,
) -> tuple[Target, LocationsResult]:
    """The body of every location question (definition, type definition, implementation):
    the places `method` answers at the position `at`, each named by its name path, paged."""
    check_positive("limit", limit)
    path = at[0]
    async with unsaved.held(ws, path, content):
        target = await _target(ws, *at, content)
        if method.provider is not None and not target.session.supports(method.provider):
            raise InvalidInput(
                f"{target.session.name} does not offer {method.name.split('/')[-1]}; "
                "try `definition` instead"
            )
        answer = await target.session.request(method, target.params())
        found = Converter(ws, target.session.encoding).locations(answer)
        check_paging(offset, limit, len(found))
        namer = Namer(ws)
        named = [
            SymbolLocation(
                **loc.model_dump(), symbol=await namer.name(loc.path, loc.line, loc.column)
            )
            for loc in found[offset : offset + limit]
        ]

    def build(w: Window) -> LocationsResult:
        toolchain = target.session.toolchain
        return LocationsResult(locations=named[: w.count], toolchain=toolchain, **w.paging)

    return target, page(len(found), offset, limit, build)


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
    return (await _locations(ws, answers.DEFINITION, at, limit, offset, content))[1]


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
) -> LocationsResult:
    """The implementations of the interface or method at a position, each named by its
    name path; `asked` marks the declaration the question was about when it is listed."""
    at = (path, line, column, symbol)
    target, result = await _locations(ws, answers.IMPLEMENTATION, at, limit, offset)
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
    uses, unknown = await _named_uses(namer, found, scanned, offset, limit)
    unknown_counts = _counts(path for path, _, _ in scanned.uses)
    summary = scan.summary(scan.references_head(len(found), len(counts)), scanned)

    def build(w: Window) -> ReferencesResult:
        places = [(loc.path, loc.line, loc.column) for loc in found[w.offset : w.end]]
        unknown_places = scanned.uses[w.offset : w.end]
        return ReferencesResult(
            summary=summary,
            toolchain=target.session.toolchain,
            files=_by_file(counts, places, uses),
            total=len(found),
            truncated=w.truncated,
            next_offset=w.next_offset,
            unresolved=_by_file(unknown_counts, unknown_places, unknown),
            unresolved_total=len(scanned.uses),
            candidates=scanned.candidates,
        )

    return page(rows, offset, limit, build)


async def _named_uses(
    namer: Namer, found: list[Location], scanned: scan.Scan, offset: int, limit: int
) -> tuple[list[Reference], list[Reference]]:
    """The uses and the unresolved uses from `offset`, each named by its enclosing symbol."""
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
    return uses, unknown


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
    namer = Namer(ws)
    root = await call_sites.prepare(ws, namer, target)
    convert = Converter(ws, target.session.encoding)
    scanning = scan.start(ws, target, unresolved and direction == "incoming")
    try:
        ends = await call_sites.ends(target.session, root, direction)
    except BaseException:
        await scan.stop(scanning)
        raise
    calls = await call_sites.sites(convert, namer, ends, direction)
    if direction == "incoming":
        scanned = await scan.finish(ws, target, scanning, set(calls), namer)
    else:
        scanned = scan.Scan(scan.name_at(target), skipped="callees have no unresolved uses")
    ordered = [calls[key] for key in sorted(calls)]
    rows = max(len(ordered), len(scanned.uses))  # both lists are paged by the same window
    check_paging(offset, limit, rows)
    item = await call_sites.call_item(convert, namer, root)
    unknown = [
        await call_sites.caller(namer, place, text) for place, text in scanned.page(offset, limit)
    ]
    files = len({path for path, _, _ in calls})
    head = f"{scan.plural(len(ordered), 'call')} in {scan.plural(files, 'file')}"
    summary = scan.summary(head, scanned) if direction == "incoming" else head

    def build(w: Window) -> CallHierarchyResult:
        return CallHierarchyResult(
            summary=summary,
            toolchain=target.session.toolchain,
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
