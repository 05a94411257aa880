"""Symbols: a file's symbol tree and a search across the workspace."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lspd.errors import InvalidInput, LspdError
from lspd.lsp.capabilities import SYMBOL_KINDS, symbol_kind_name
from lspd.lsp.session import Session
from lspd.lsp.text import uri_to_path
from lspd.ops.budget import fits
from lspd.ops.checks import check_positive
from lspd.ops.convert import Converter
from lspd.ops.models import DocumentSymbolsResult, Symbol, WorkspaceSymbol, WorkspaceSymbolsResult
from lspd.workspace import Workspace

log = logging.getLogger(__name__)


async def document_symbols(
    ws: Workspace, path: str, depth: int | None = None, limit: int = 500
) -> DocumentSymbolsResult:
    """The symbol tree of one file, `depth` levels and `limit` symbols at most."""
    if depth is not None:
        check_positive("depth", depth, " (1 = top level only)")
    check_positive("limit", limit)
    session, document = await ws.open(path)
    tree = await symbol_tree(ws, session, document.path)
    total = _count(tree, None)
    if depth is None and total <= limit:
        pruned, kept = tree, total
    else:
        pruned, kept = _prune(tree, depth, limit)
    result = DocumentSymbolsResult(
        path=ws.display(document.path), symbols=pruned, total=total, truncated=kept < total
    )
    while not fits(result) and depth != 1:
        depth = max(1, (depth or _max_depth(tree)) - 1)
        pruned, kept = _prune(tree, depth, limit)
        result = DocumentSymbolsResult(
            path=result.path, symbols=pruned, total=total, truncated=True
        )
    return result


async def symbol_tree(ws: Workspace, session: Session, path: Path) -> list[Symbol]:
    """The file's symbols as a tree with name paths (from flat answers too)."""
    uri = path.as_uri()
    answer = await session.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    convert = Converter(ws, session.encoding)
    shown = ws.display(path)
    if not answer:
        return []
    if "location" in answer[0]:  # flat SymbolInformation[]
        return [_from_information(convert, shown, item) for item in answer]
    return [_from_document_symbol(convert, path, shown, item, "") for item in answer]


def _from_document_symbol(
    convert: Converter, path: Path, shown: str, item: dict[str, Any], parent: str
) -> Symbol:
    name_path = f"{parent}.{item['name']}" if parent else item["name"]
    selection = item.get("selectionRange") or item["range"]
    start = selection["start"]
    # model_construct: these values are built here from checked types; validation would
    # triple the cost of a large file's tree.
    return Symbol.model_construct(
        name=item["name"],
        kind=symbol_kind_name(item.get("kind", 0)),
        name_path=name_path,
        detail=item.get("detail") or None,
        path=shown,
        line=start["line"] + 1,
        column=convert.column(path, start["line"], start["character"]),
        end_line=item["range"]["end"]["line"] + 1,
        children=[
            _from_document_symbol(convert, path, shown, child, name_path)
            for child in item.get("children") or []
        ],
    )


def _from_information(convert: Converter, shown: str, item: dict[str, Any]) -> Symbol:
    location = item["location"]
    path = uri_to_path(location["uri"])
    start = location["range"]["start"]
    container = item.get("containerName")
    return Symbol(
        name=item["name"],
        kind=symbol_kind_name(item.get("kind", 0)),
        name_path=f"{container}.{item['name']}" if container else item["name"],
        path=shown,
        line=start["line"] + 1,
        column=convert.column(path, start["line"], start["character"]) if path else 1,
        end_line=location["range"]["end"]["line"] + 1,
    )


def _count(symbols: list[Symbol], depth: int | None) -> int:
    if depth == 0:
        return 0
    return sum(1 + _count(s.children, None if depth is None else depth - 1) for s in symbols)


def _max_depth(symbols: list[Symbol]) -> int:
    return 1 + max((_max_depth(s.children) for s in symbols), default=0) if symbols else 0


def _prune(symbols: list[Symbol], depth: int | None, limit: int) -> tuple[list[Symbol], int]:
    """At most `limit` symbols, `depth` levels deep; returns the tree and how many it holds."""
    kept = 0
    out: list[Symbol] = []
    for symbol in symbols:
        if kept >= limit:
            break
        kept += 1
        children: list[Symbol] = []
        if depth is None or depth > 1:
            children, count = _prune(
                symbol.children, None if depth is None else depth - 1, limit - kept
            )
            kept += count
        out.append(symbol.model_copy(update={"children": children}))
    return out, kept


def flatten(symbols: list[Symbol]) -> list[Symbol]:
    """Every symbol of a tree, parents before their members."""
    out: list[Symbol] = []
    for symbol in symbols:
        out.append(symbol)
        out.extend(flatten(symbol.children))
    return out


async def workspace_symbols(
    ws: Workspace, query: str, kind: str | None = None, limit: int = 50
) -> WorkspaceSymbolsResult:
    """Symbols whose name matches `query` in every project, best matches first."""
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
    found, total = await search_symbols(ws, query, wanted, limit)
    return WorkspaceSymbolsResult(
        query=query, symbols=found, total=total, truncated=total > len(found)
    )


def _rank(item: dict[str, Any], root: str, query: str) -> tuple[int, bool, str, int]:
    name = item["name"]
    closeness = (
        0
        if name == query
        else 1
        if name.lower() == query.lower()
        else (2 if name.lower().startswith(query.lower()) else 3)
    )
    location = item.get("location") or {}
    uri = str(location.get("uri", ""))
    line = (location.get("range") or {}).get("start", {}).get("line", 0)
    return (closeness, not uri.startswith(root), uri, line)


async def search_symbols(
    ws: Workspace,
    query: str,
    kind: str | None = None,
    limit: int | None = None,
    exact: bool = False,
) -> tuple[list[WorkspaceSymbol], int]:
    """`workspace/symbol` on the server of every language present, best matches first.

    Ranking and the filters (`kind`; `exact`: only symbols named `query`) work on the raw
    answers, so only the kept ones pay for the conversion (which reads each file for its
    source columns). Returns them and the total.
    """
    searches = await _workspace_searches(ws)
    sessions = [session for session, _ in searches]
    answers = await asyncio.gather(
        *(_search(session, samples, query) for session, samples in searches),
        return_exceptions=True,
    )
    raw: list[tuple[Session, dict[str, Any]]] = []
    errors: list[str] = []
    seen: set[tuple[str, str, int, int]] = set()  # a parent project's server sees nested ones
    for session, answer in zip(sessions, answers, strict=True):
        if isinstance(answer, BaseException):
            if not isinstance(answer, LspdError):
                raise answer
            errors.append(str(answer))
            continue
        for item in answer or []:
            if exact and item.get("name") != query:
                continue
            if (key := _identity(item)) in seen:
                continue
            seen.add(key)
            if kind is None or symbol_kind_name(item.get("kind", 0)) == kind:
                raw.append((session, item))
    if errors and not raw:
        raise LspdError("; ".join(errors))
    root = ws.root.as_uri() + "/"
    raw.sort(key=lambda pair: _rank(pair[1], root, query))
    found: list[WorkspaceSymbol] = []
    converters = {s.encoding: Converter(ws, s.encoding) for s in sessions}
    for session, item in raw[:limit]:
        symbol = _workspace_symbol(ws, converters[session.encoding], item)
        if symbol is not None:
            found.append(symbol)
    return found, len(raw)


async def _workspace_searches(ws: Workspace) -> list[tuple[Session, list[Path]]]:
    """The session of every project present (nested ones too; projects of one toolchain
    share one), with an open file of each of its projects (tsserver searches only the
    projects of its open files)."""
    searches: dict[Session, list[Path]] = {}
    for project in ws.projects_present():
        session = ws.session(project.definition, project.root)
        held = [d.path for d in session.documents.values() if d.path.is_relative_to(project.root)]
        if not held:
            try:
                await ws.open(str(project.sample))
            except LspdError as exc:
                log.warning("cannot open %s: %s", project.sample, exc)
                continue
            held = [project.sample]
        searches.setdefault(session, []).append(held[0])
    if not searches:
        raise InvalidInput(f"no source file of a known language was found under {ws.root}")
    return list(searches.items())


async def _search(session: Session, samples: list[Path], query: str) -> list[Any]:
    """`workspace/symbol` on one session: once, or once per project for a server that
    searches only the project of the document opened last."""
    if session.definition.symbol_search != "last-file" or len(samples) == 1:
        return list(await session.request("workspace/symbol", {"query": query}) or [])
    found: list[Any] = []
    for sample in samples:
        session.touch(sample)
        found += await session.request("workspace/symbol", {"query": query}) or []
    return found


def _identity(item: dict[str, Any]) -> tuple[str, str, int, int]:
    location = item.get("location") or {}
    start = (location.get("range") or {}).get("start") or {}
    return (
        item.get("name", ""),
        location.get("uri", ""),
        start.get("line", 0),
        start.get("character", 0),
    )


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
        name=item["name"],
        kind=symbol_kind_name(item.get("kind", 0)),
        name_path=f"{container}.{item['name']}" if container else item["name"],
        container=container,
        path=ws.display(path),
        line=start["line"] + 1,
        column=at_name + 1 if at_name >= 0 else column,
    )
