"""What `python_types` asks the server about a proposed Python change: the type of each
declaration it may change (a hover of its name) with the disk's texts, then with the
proposed texts held, and where a name used as a value is defined (the disk's).

A type is the hover's code, without the docs after it (a docstring changed is not a type
changed). A name the server gives no answer for, or whose line the server does not hold as
expected, has none: `python_types` then counts it changed, or used.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from lspd.engine.python_spots import Spot
from lspd.lsp import answers, shapes
from lspd.lsp.positions import to_units
from lspd.lsp.session import Session
from lspd.lsp.text import uri_to_path
from lspd.workspace import Workspace
from lspd.workspace.overlay import overlaid

T = TypeVar("T")
_AT_ONCE = 16  # questions in flight at once: the server answers them one by one anyway


class HeldTypes:
    """`python_types.Server`: the disk's texts are the old, `held` (file -> its text) the
    new; the gate held exclusively. Files opened only for a question are closed again."""

    def __init__(self, ws: Workspace, held: Mapping[Path, str | None]) -> None:
        self.ws = ws
        self.held = held

    async def types(
        self, before: list[Spot], after: list[Spot]
    ) -> tuple[list[str | None], list[str | None]]:
        """The type of each of `before` as the disk's texts make it, and of each of `after`
        with the texts held."""
        opened: set[Path] = set()
        try:
            old = await _asked(self.ws, before, opened, _type)
            async with overlaid(self.ws, self.held):
                new = await _asked(self.ws, after, opened, _type)
        finally:
            for path in opened - set(self.held):
                self.ws.close_document(path)
        return old, new

    async def defined(self, spots: list[Spot]) -> list[frozenset[Path] | None]:
        """The files each name is defined in, as the disk's texts say."""
        opened: set[Path] = set()
        try:
            return await _asked(self.ws, spots, opened, _defined)
        finally:
            for path in opened:
                self.ws.close_document(path)


async def _asked(
    ws: Workspace,
    spots: list[Spot],
    opened: set[Path],
    ask: Callable[[Session, shapes.PositionParams], Awaitable[T | None]],
) -> list[T | None]:
    """`ask` at each spot, its file open (`opened`: the files opened for it); None where
    the server holds another text there or gives no answer."""
    for path in dict.fromkeys(spot.path for spot in spots):
        if not ws.holds(path):
            await ws.open(str(path))
            opened.add(path)
    limit = asyncio.Semaphore(_AT_ONCE)

    async def one(spot: Spot) -> T | None:
        document = ws.document(spot.path)
        if document is None or document.lines[spot.line : spot.line + 1] != [spot.text]:
            return None  # not the text the spot was read in
        session = ws.session_for(spot.path)
        character = to_units(spot.text, spot.column, session.encoding)
        position: shapes.Position = {"line": spot.line, "character": character}
        params: shapes.PositionParams = {
            "textDocument": {"uri": document.uri},
            "position": position,
        }
        async with limit:
            with contextlib.suppress(Exception):  # no answer: counted as changed, or used
                return await ask(session, params)
        return None

    return list(await asyncio.gather(*(one(spot) for spot in spots)))


async def _type(session: Session, params: shapes.PositionParams) -> str | None:
    answer = await session.request(answers.HOVER, params)
    return None if answer is None else _code(answer)


async def _defined(session: Session, params: shapes.PositionParams) -> frozenset[Path] | None:
    found = await session.request(answers.DEFINITION, params)
    if not found:
        return None
    paths = set()
    for item in found if isinstance(found, list) else [found]:
        where: Any = item.get("targetUri") or item.get("uri")
        path = uri_to_path(where) if isinstance(where, str) else None
        if path is None:
            return None
        paths.add(path)
    return frozenset(paths)


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
