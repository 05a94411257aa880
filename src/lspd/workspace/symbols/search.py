"""`workspace/symbol` on the server of every language present, best matches first: the
servers' own search, for names the index is not asked about (a part of a name)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, Protocol

from lspd.errors import InvalidInput, LspdError
from lspd.lsp.capabilities import symbol_kind_name
from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from lspd.servers.registry import ServerDefinition
from lspd.workspace.projects import Projects
from lspd.workspace.symbols.naming import DECLARATIONS

log = logging.getLogger(__name__)


class Servers(Protocol):
    """What the search uses of the workspace (`Workspace`): its projects and sessions."""

    @property
    def root(self) -> Path: ...
    @property
    def projects(self) -> Projects: ...
    def session(self, definition: ServerDefinition, project: Path | None = None) -> Session: ...
    async def open(self, raw_path: str, content: str | None = None) -> tuple[Session, Document]: ...


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


async def search(
    ws: Servers, query: str, kind: str | None = None
) -> list[tuple[Session, dict[str, Any]]]:
    """Every server's `SymbolInformation` for `query`, best matches first, each with the
    session that gave it (of `kind` only, when given). Raw (ranking and filters work on
    the answers as they came), so that only the ones kept pay for their conversion, which
    reads each file for its source columns."""
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
            if (key := _identity(item)) in seen:
                continue
            seen.add(key)
            if kind is None or symbol_kind_name(item.get("kind", 0)) == kind:
                raw.append((session, item))
    if errors and not raw:
        raise LspdError("; ".join(errors))
    root = ws.root.as_uri() + "/"
    raw.sort(key=lambda pair: _rank(pair[1], root, query))
    return raw


async def _workspace_searches(ws: Servers) -> list[tuple[Session, list[Path]]]:
    """The session of every project present (nested ones too; projects of one toolchain
    share one), with an open file of each of its projects (tsserver searches only the
    projects of its open files)."""
    searches: dict[Session, list[Path]] = {}
    for project in ws.projects.present():
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
