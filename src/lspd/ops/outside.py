"""What `implementation` adds about the name's uses in source files the gate does not check:
listed apart (`outside`) by default; with `all`, asked from those files too."""

from __future__ import annotations

import re
from pathlib import Path

from lspd.lsp import answers, shapes
from lspd.lsp.documents import Document
from lspd.lsp.positions import to_units
from lspd.lsp.session import Session
from lspd.ops import listing
from lspd.ops import unresolved as scan
from lspd.ops.convert import Converter
from lspd.ops.models import ImplementationResult, Location
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import Namer

MAX_OPENED = 200  # files outside the gate held open for `implementation` with `all`
_IMPORT = re.compile(r"\s*(?:import|from|export\s*\{)\b")


async def implementations_from(
    ws: Workspace, held: list[tuple[Session, Document]], prepared: scan.Prepared
) -> list[Location]:
    """The implementations each held file's server sees from the file's first use of the
    name (past its imports): tsserver answers a file outside the project's tsconfig from a
    project of its own, which the question at the declaration never searches."""
    first: dict[Path, scan.Found] = {}
    for found in prepared.outside:
        line = prepared.outside_texts[found.path].splitlines()[found.use.line - 1 : found.use.line]
        if found.path not in first and not (line and _IMPORT.match(line[0])):
            first[found.path] = found
    places: list[Location] = []
    for session, document in held:
        use = first.get(document.path)
        if use is None:
            continue
        text = document.lines[use.use.line - 1]
        character = to_units(text, use.use.column - 1, session.encoding)
        params: shapes.PositionParams = {
            "textDocument": {"uri": document.uri},
            "position": {"line": use.use.line - 1, "character": character},
        }
        answer = await session.request(answers.IMPLEMENTATION, params)
        places += Converter(ws, session.encoding).locations(answer)
    return places


async def listed(
    ws: Workspace, prepared: scan.Prepared, result: ImplementationResult, offset: int, limit: int
) -> None:
    """The name's uses outside the gate, beside the implementations (one window for both)."""
    places = sorted(
        ((ws.display(f.path), f.use.line, f.use.column), f.path)
        for f in prepared.outside
        if not f.use.keyword
    )
    if prepared.outside_skipped is not None or not places:
        result.outside_total = 0 if prepared.skipped is None else None
        return
    namer = Namer(ws)
    shown = [
        (place, scan.source_line(prepared.outside_texts[full], place[1])) for place, full in places
    ]
    uses = await listing.named(namer, shown[offset : offset + limit])
    result.outside = listing.by_file(
        listing.counts(p for (p, _, _), _ in shown),
        [p for p, _ in shown[offset : offset + limit]],
        uses,
    )
    result.outside_total = len(places)
    if len(places) > offset + limit and not result.truncated:  # one window for both
        result.truncated, result.next_offset = True, offset + limit
