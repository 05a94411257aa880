"""The pieces of a call hierarchy: the function asked about, its callers or callees as the
server lists them, and each call site once, named (`lspd.ops.references.call_hierarchy`)."""

from __future__ import annotations

import os
from pathlib import PurePath

from lspd.errors import InvalidInput
from lspd.lsp import answers, shapes
from lspd.lsp.capabilities import symbol_kind_name
from lspd.lsp.session import Session
from lspd.lsp.text import uri_to_path
from lspd.ops.convert import Converter
from lspd.ops.navigation_models import Call, CallItem, Direction
from lspd.ops.target import Target
from lspd.ops.unresolved import Place
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import Namer


async def prepare(ws: Workspace, namer: Namer, target: Target) -> shapes.CallHierarchyItem:
    """The function at the target as its server's call hierarchy knows it; `InvalidInput`
    when the server has no call hierarchy or the target is no function."""
    session = target.session
    if not session.supports(answers.PREPARE_CALL_HIERARCHY.provider or ""):
        raise InvalidInput(f"{session.name} does not offer a call hierarchy; try `references`")
    items = await session.request(answers.PREPARE_CALL_HIERARCHY, target.params())
    if not items:
        raise await not_callable(ws, namer, target)
    return items[0]


# Each caller (incoming) or callee (outgoing), the file of its call sites, the sites.
Ends = list[tuple[shapes.CallHierarchyItem, str, list[shapes.Range]]]


async def ends(session: Session, root: shapes.CallHierarchyItem, direction: Direction) -> Ends:
    """The callers or callees of `root` as the server lists them."""
    asked: shapes.CallHierarchyParams = {"item": root}
    if direction == "incoming":
        incoming = await session.request(answers.INCOMING_CALLS, asked) or []
        return [(c["from"], c["from"]["uri"], c["fromRanges"]) for c in incoming]
    outgoing = await session.request(answers.OUTGOING_CALLS, asked) or []
    return [(c["to"], root["uri"], c["fromRanges"]) for c in outgoing]


async def sites(
    convert: Converter, namer: Namer, ends: Ends, direction: Direction
) -> dict[Place, Call]:
    """Each call site once, by place: incoming, named by what encloses it (as `references`
    names a use); outgoing, by the callee, with where the callee is defined."""
    calls: dict[Place, Call] = {}
    for other, sites_uri, site_ranges in ends:
        end = await call_item(convert, namer, other)
        for site_range in site_ranges:
            site = convert.location(sites_uri, site_range)
            if site is None or (site.path, site.line, site.column) in calls:
                continue
            symbol, kind = end.symbol, end.kind
            if direction == "incoming":
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
    return calls


async def caller(namer: Namer, place: Place, text: str) -> Call:
    """An unresolved use as a call site of whatever encloses it (a module: its file)."""
    path, line, column = place
    symbol, kind = await namer.caller(path, line, column)
    return Call(symbol=symbol, kind=kind, path=path, line=line, column=column, text=text)


async def call_item(convert: Converter, namer: Namer, item: shapes.CallHierarchyItem) -> CallItem:
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


async def not_callable(ws: Workspace, namer: Namer, target: Target) -> InvalidInput:
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
