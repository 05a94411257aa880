"""Symbols: a file's symbol tree (or a class's members), and a search across the workspace
(the symbols themselves: `workspace/symbols/`).

Both are paged (`lspd.ops.budget.page`). A file's tree is paged in file order with every
level kept: a page holds a run of symbols, nested under their parents when the parent is
on the page too, so a big file never collapses to its top level.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lspd.errors import InvalidInput, LspdError
from lspd.lsp.capabilities import SYMBOL_KINDS, symbol_kind_name
from lspd.lsp.session import Session
from lspd.lsp.text import uri_to_path
from lspd.ops.arguments import check_positive
from lspd.ops.budget import Window, check_paging, page
from lspd.ops.convert import Converter
from lspd.ops.navigation_models import (
    DocumentSymbolsResult,
    Symbol,
    WorkspaceSymbol,
    WorkspaceSymbolsResult,
)
from lspd.ops.resolve import find_nodes
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import member_of
from lspd.workspace.symbols.search import search
from lspd.workspace.symbols.tree import Node, read_tree, receiver_of, short_name


async def document_symbols(
    ws: Workspace,
    path: str,
    symbol: str | None = None,
    depth: int | None = None,
    limit: int = 100,
    offset: int = 0,
) -> DocumentSymbolsResult:
    """The symbol tree of one file, or the members of one of its symbols (`symbol`, a name
    path in the file), `depth` levels deep, paged in file order."""
    if depth is not None:
        check_positive("depth", depth, " (1 = top level only)")
    check_positive("limit", limit)
    session, document = await ws.open(path)
    shown = ws.display(document.path)
    tree = await ws.symbols.tree(document.path)
    if symbol is not None:
        tree = member_of(tree, symbol, shown).children
    rows = _rows(tree, depth)
    check_paging(offset, limit, len(rows))

    def build(w: Window) -> DocumentSymbolsResult:
        nested = _nest(rows[w.offset : w.end])
        return DocumentSymbolsResult(
            path=shown, symbols=nested, toolchain=session.toolchain, **w.paging
        )

    return page(len(rows), offset, limit, build)


@dataclass(frozen=True)
class _Row:
    node: Node
    parent: Node | None


def _rows(tree: list[Node], depth: int | None) -> list[_Row]:
    """The symbols in file order (parents first), `depth` levels deep."""
    out: list[_Row] = []

    def visit(nodes: list[Node], parent: Node | None, level: int) -> None:
        for node in nodes:
            out.append(_Row(node, parent))
            if depth is None or level < depth:
                visit(node.children, node, level + 1)

    visit(tree, None, 1)
    return out


def _nest(rows: list[_Row]) -> list[Symbol]:
    """A run of rows as trees: each under its parent when the parent is in the run."""
    made: dict[int, Symbol] = {}
    top: list[Symbol] = []
    for row in rows:
        n = row.node
        # model_construct: built here from checked values; validation would triple the cost
        # of a large file's page.
        symbol = Symbol.model_construct(
            name_path=n.name_path,
            kind=n.kind,
            line=n.line,
            column=n.column,
            end_line=n.end_line,
            detail=n.detail,
            children=[],
        )
        made[id(n)] = symbol
        parent = made.get(id(row.parent)) if row.parent is not None else None
        (parent.children if parent is not None else top).append(symbol)
    return top


async def workspace_symbols(
    ws: Workspace, query: str, kind: str | None = None, limit: int = 50, offset: int = 0
) -> WorkspaceSymbolsResult:
    """Symbols whose name matches `query` in every project, best matches first; a
    container-qualified query (`Console.` or `Console.pri`) lists that container's members."""
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput(
            "`query` is empty; send part of a symbol name (e.g. `Greeter`): several language "
            "servers return nothing for an empty query. To list a file's symbols use "
            "`document_symbols`"
        )
    check_positive("limit", limit)
    query = query.strip()
    wanted = kind.strip().lower() if kind is not None else None
    if wanted is not None and wanted not in SYMBOL_KINDS:
        raise InvalidInput(
            f"`kind` {kind!r:.60} is not a symbol kind; send one of {', '.join(SYMBOL_KINDS)}"
        )
    if "." in query.strip("."):
        container, _, prefix = query.rpartition(".")
    elif query.endswith("."):
        container, prefix = query.rstrip("."), ""
    else:
        container, prefix = "", query
    if container:
        found = await _members(ws, container, prefix, wanted)
        total = len(found)
        check_paging(offset, limit, total)
        found = found[offset : offset + limit]
    else:
        check_paging(offset, limit)
        found, total = await search_symbols(ws, query, wanted, slice(offset, offset + limit))

    def build(w: Window) -> WorkspaceSymbolsResult:
        return WorkspaceSymbolsResult(symbols=found[: w.count], **w.paging)

    return page(total, min(offset, total), limit, build)


async def _members(
    ws: Workspace, container: str, prefix: str, kind: str | None
) -> list[WorkspaceSymbol]:
    """The members of every symbol the container name path means, whose names start with
    `prefix` (any case)."""
    out: list[WorkspaceSymbol] = []
    for parent in await find_nodes(ws, container):
        for child in [*parent.children, *await _methods_beside(ws, parent)]:
            if not short_name(child).lower().startswith(prefix.lower()):
                continue
            if kind is not None and child.kind != kind:
                continue
            out.append(
                WorkspaceSymbol(
                    name_path=child.name_path,
                    kind=child.kind,
                    path=child.path,
                    line=child.line,
                    column=child.column,
                )
            )
    return out


async def _methods_beside(ws: Workspace, parent: Node) -> list[Node]:
    """The methods of a type its server lists beside it, not in it: gopls lists
    `(*Cart).Total` at a file's top level, in any file of the type's package (its
    directory). Only where the type's own file lists methods so."""
    here = ws.resolve(parent.path)
    own = await ws.symbols.tree(here)
    if not any(receiver_of(node) for node in own):
        return []
    out = []
    for path in sorted(here.parent.glob(f"*{here.suffix}")):
        try:
            tree = own if path == here else await ws.symbols.tree(path)
        except LspdError:  # unreadable, too large: it lists nothing
            continue
        out += [node for node in tree if receiver_of(node) == parent.name]
    return out


async def symbol_tree(ws: Workspace, session: Session, path: Path) -> list[Node]:
    """The symbols the server lists for `path`, opened in `session`, asked now (uncached:
    `ws.symbols.tree` answers from the workspace's index)."""
    document = ws.document(path)
    lines = document.lines if document is not None else Converter(ws, session.encoding).lines(path)
    return await read_tree(session, path, ws.display(path), lines)


async def search_symbols(
    ws: Workspace, query: str, kind: str | None, rows: slice
) -> tuple[list[WorkspaceSymbol], int]:
    """The servers' `workspace/symbol` search (`workspace/symbols/search.py`), the page
    `rows` of it converted; and the total."""
    raw = await search(ws, query, kind)
    converters = {s.encoding: Converter(ws, s.encoding) for s, _ in raw}
    found: list[WorkspaceSymbol] = []
    for session, item in raw[rows]:
        symbol = _workspace_symbol(ws, converters[session.encoding], item)
        if symbol is not None:
            found.append(symbol)
    return found, len(raw)


def _workspace_symbol(
    ws: Workspace, convert: Converter, item: dict[str, Any]
) -> WorkspaceSymbol | None:
    location = item.get("location") or {}
    path = uri_to_path(location.get("uri", ""))
    if path is None:
        return None
    start = (location.get("range") or {}).get("start", {"line": 0, "character": 0})
    container = item.get("containerName") or None
    column = convert.column(path, start["line"], start["character"])
    # tsserver's range starts at the declaration (`export class Greeter` at column 1): point
    # at the name, so the position can be fed back to hover or references as it is.
    at_name = convert.line_text(path, start["line"]).find(item["name"], column - 1)
    return WorkspaceSymbol(
        kind=symbol_kind_name(item.get("kind", 0)),
        name_path=f"{container}.{item['name']}" if container else item["name"],
        path=ws.display(path),
        line=start["line"] + 1,
        column=at_name + 1 if at_name >= 0 else column,
    )
