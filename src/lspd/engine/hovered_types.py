"""The types a proposed Python change gives the declarations `python_types` asks about: the
server's hover of each name with the disk's texts, then with the proposed texts held.

A type is the hover's code, without the docs after it (a docstring changed is not a type
changed). A name the server gives no type, or whose line the server does not hold as
expected, has none: `python_types` then counts it changed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lspd.engine.python_types import Spot
from lspd.lsp import answers, shapes
from lspd.lsp.positions import to_units
from lspd.workspace import Workspace
from lspd.workspace.overlay import overlaid

_AT_ONCE = 16  # hovers in flight at once: the server answers them one by one anyway


async def types_in_both(
    ws: Workspace, held: Mapping[Path, str | None], before: list[Spot], after: list[Spot]
) -> tuple[list[str | None], list[str | None]]:
    """The type of each of `before` as the disk's texts make it, and of each of `after` with
    `held` (file -> its text) held; the gate held exclusively. Files opened only for this
    are closed again."""
    opened: set[Path] = set()
    try:
        old = await _types(ws, before, opened)
        async with overlaid(ws, held):
            new = await _types(ws, after, opened)
    finally:
        for path in opened - set(held):
            ws.close_document(path)
    return old, new


async def _types(ws: Workspace, spots: list[Spot], opened: set[Path]) -> list[str | None]:
    for path in dict.fromkeys(spot.path for spot in spots):
        if not ws.holds(path):
            await ws.open(str(path))
            opened.add(path)
    limit = asyncio.Semaphore(_AT_ONCE)

    async def one(spot: Spot) -> str | None:
        async with limit:
            return await _type(ws, spot)

    return list(await asyncio.gather(*(one(spot) for spot in spots)))


async def _type(ws: Workspace, spot: Spot) -> str | None:
    document = ws.document(spot.path)
    if (
        document is None
        or spot.line >= len(document.lines)
        or (document.lines[spot.line] != spot.text)
    ):
        return None  # not the text the spot was read in
    session = ws.session_for(spot.path)
    position: shapes.Position = {
        "line": spot.line,
        "character": to_units(spot.text, spot.column, session.encoding),
    }
    params: shapes.PositionParams = {"textDocument": {"uri": document.uri}, "position": position}
    with contextlib.suppress(Exception):  # no answer: counted as changed
        answer = await session.request(answers.HOVER, params)
        return None if answer is None else _code(answer)
    return None


def _code(answer: shapes.Hover) -> str | None:
    """The hover's code: its markdown up to the docs (`---`)."""
    contents: Any = answer.get("contents")
    if isinstance(contents, dict):
        value = contents.get("value")
    elif isinstance(contents, list):
        value = "\n".join(c.get("value", "") if isinstance(c, dict) else str(c) for c in contents)
    else:
        value = contents
    if not isinstance(value, str) or not value.strip():
        return None
    return value.split("\n---")[0].strip()
