"""What `implementation`, `references` and `call_hierarchy` add about the name's uses in
source files the gate does not check: listed apart (`outside`) by default; with `all`,
asked from those files too. Beside references and calls, the scan's other list (the uses
tied to no declaration, `unresolved`) goes with them, in the same window."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lspd.lsp import answers, shapes
from lspd.lsp.documents import Document
from lspd.lsp.positions import to_units
from lspd.lsp.session import Session
from lspd.lsp.text import split_lines
from lspd.ops import call_sites, listing
from lspd.ops import unresolved as scan
from lspd.ops.budget import Window
from lspd.ops.candidates import Found, Prepared
from lspd.ops.convert import Converter
from lspd.ops.models import Location
from lspd.ops.navigation_models import FileReferences, ImplementationResult, Reference
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import Namer

MAX_OPENED = 200  # files outside the gate held open for `implementation` with `all`
_IMPORT = re.compile(r"\s*(?:import|from|export\s*\{)\b")


async def implementations_from(
    ws: Workspace, held: list[tuple[Session, Document]], prepared: Prepared
) -> list[Location]:
    """The implementations each held file's server sees from the file's first use of the
    name (past its imports): tsserver answers a file outside the project's tsconfig from a
    project of its own, which the question at the declaration never searches."""
    first: dict[Path, Found] = {}
    for found in prepared.outside:
        line = split_lines(prepared.outside_texts[found.path])[found.use.line - 1 : found.use.line]
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
    ws: Workspace, prepared: Prepared, result: ImplementationResult, offset: int, limit: int
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


Beside = Callable[[Window], dict[str, Any]]  # the scan's fields of an answer, for one window


async def beside_references(
    namer: Namer, scanned: scan.Scan, started: bool, offset: int, limit: int
) -> Beside:
    """The scan's lists beside the references, grouped by file like them: the uses tied
    to no declaration and those outside the gate (`outside_total` None: no scan started)."""
    unknown = await listing.named(namer, scanned.page(offset, limit))
    apart = await listing.named(namer, scanned.outside_page(offset, limit))

    def fields(w: Window) -> dict[str, Any]:
        return {
            "unresolved": _grouped(scanned.uses, w, unknown),
            "unresolved_total": len(scanned.uses),
            "candidates": scanned.candidates,
            "outside": _grouped(scanned.outside, w, apart) or None,
            "outside_total": len(scanned.outside) if started else None,
        }

    return fields


def _grouped(places: list[scan.Place], w: Window, uses: list[Reference]) -> list[FileReferences]:
    return listing.by_file(listing.counts(p for p, _, _ in places), places[w.offset : w.end], uses)


async def beside_calls(
    namer: Namer, scanned: scan.Scan, started: bool, offset: int, limit: int
) -> Beside:
    """The scan's lists beside the call sites, each use a call of what encloses it."""
    unknown = [
        await call_sites.caller(namer, place, text) for place, text in scanned.page(offset, limit)
    ]
    apart = [
        await call_sites.caller(namer, place, text)
        for place, text in scanned.outside_page(offset, limit)
    ]

    def fields(w: Window) -> dict[str, Any]:
        return {
            "unresolved": unknown[: w.count],
            "unresolved_total": len(scanned.uses),
            "candidates": scanned.candidates,
            "outside": apart[: w.count] or None,
            "outside_total": len(scanned.outside) if started else None,
        }

    return fields
