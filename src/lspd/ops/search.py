"""`workspace/symbol` on the server of every language present, best matches first."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lspd.errors import InvalidInput, LspdError
from lspd.lsp.capabilities import symbol_kind_name
from lspd.lsp.session import Session
from lspd.lsp.text import uri_to_path
from lspd.ops.convert import Converter
from lspd.ops.models import WorkspaceSymbol
from lspd.ops.outline import DECLARATIONS
from lspd.workspace import Workspace

log = logging.getLogger(__name__)


def _rank(item: dict[str, Any], root: str, query: str) -> tuple[int, int, bool, str, int]:
    name = item["name"]
    closeness = (
        0
        if name == query
        else 1
        if name.lower() == query.lower()
        else (2 if name.lower().startswith(query.lower()) else 3)
    )
    declaration = DECLARATIONS.get(symbol_kind_name(item.get("kind", 0)), 1)
    location = item.get("location") or {}
    uri = str(location.get("uri", ""))
    line = (location.get("range") or {}).get("start", {}).get("line", 0)
    return (closeness, declaration, not uri.startswith(root), uri, line)


async def search_symbols(
    ws: Workspace,
    query: str,
    kind: str | None = None,
    limit: int | None = None,
    exact: bool = False,
    offset: int = 0,
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
    end = None if limit is None else offset + limit
    for session, item in raw[offset:end]:
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
        kind=symbol_kind_name(item.get("kind", 0)),
        name_path=f"{container}.{item['name']}" if container else item["name"],
        path=ws.display(path),
        line=start["line"] + 1,
        column=at_name + 1 if at_name >= 0 else column,
    )
