"""A definition asked again of a server that was told nothing since: the answer it gave.

A warm by-name definition on click took ~5 ms over one kept-alive connection, 2 ms of them
basedpyright's round trip (issue 43: <= 3 ms). The pyright family answers a definition from
the program it holds, computed on demand: the texts lspd sent (`didOpen`, `didChange`), the
workspace's files on disk as lspd reported their changes (`didChangeWatchedFiles`), its
settings. Every message that may change those is counted on the connection
(`JsonRpcConnection.told`), so the same question at the same position of the same
connection at the same count is answered as it was. Kept only:

- from the pyright family (`PYRIGHT_SERVERS`): clangd's background index and gopls's
  package loading change their answers with nothing told;
- while lspd's watcher runs (without it the disk may change unreported) and the server is
  `ready`, when nothing was told between the request and its answer;
- when every location is in a source file of the workspace the symbol index knows: the
  watcher reports their changes; a library's are seen by basedpyright's own watcher only.

What this cannot see: a file basedpyright reads for the first time in the moment between its
write and the watcher's report (asked, it could answer from the new text a moment early;
every later question is answered anew once the report is sent), and a library changed under
a wildcard import that adds a declaration to a workspace name. `definition` only: the
question measured (docs/benchmarks.md, bench/latency.py). A kept answer's places are also
converted and named once (`places`) while the files they are in are open with the same text
and symbol tree: what they are made from, compared by identity.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from lspd.errors import LspdError
from lspd.lsp import answers, shapes
from lspd.lsp.session import Session
from lspd.lsp.text import uri_to_path
from lspd.workspace import Workspace
from lspd.workspace.scope import PYRIGHT_SERVERS

MAX_KEPT = 512  # answers kept (positions), the least recently used dropped first

_Key = tuple[int, str, str, int, int]  # the session's id, method, uri, line, character
_KEPT: OrderedDict[_Key, tuple[Session, object, int, shapes.Locations]] = OrderedDict()
T = TypeVar("T")
Made = Awaitable[tuple[int, list[T]]]
# By the answer's id and window: the answer, what its places were made from, the places.
_PLACES: OrderedDict[tuple[int, int, int], tuple[shapes.Locations, list[object], Any]] = (
    OrderedDict()
)


async def definition(
    ws: Workspace, session: Session, params: shapes.PositionParams
) -> tuple[shapes.Locations, bool]:
    """`textDocument/definition` at `params`, and whether it is an answer kept: the one kept
    for them while the server was told nothing since, else asked (and kept, see the
    module's docstring)."""
    method = answers.DEFINITION
    keeps = ws.changes_seen is not None and session.definition.name in PYRIGHT_SERVERS
    position = params["position"]
    key = (id(session), method.name, params["textDocument"]["uri"], *_at(position))
    if keeps:  # (as `request` does first: what it was told is then what it answers from)
        await session.start()
        await session.wait_ready()
    told = session.told
    kept = _KEPT.get(key) if keeps else None
    if kept is not None and told is not None and kept[:3] == (session, *told):
        _KEPT.move_to_end(key)
        session.last_used = time.monotonic()  # as `request` says: a used server stays
        return kept[3], True
    answer = await session.request(method, params)
    unchanged = told is not None and session.told == told and session.state == "ready"
    if keeps and told is not None and unchanged and _followed(ws, answer):
        _KEPT[key] = (session, *told, answer)
        while len(_KEPT) > MAX_KEPT:
            _KEPT.popitem(last=False)
    return answer, False


async def places(
    ws: Workspace, answer: shapes.Locations, window: tuple[int, int], make: Callable[[], Made[T]]
) -> tuple[int, list[T]]:
    """`make()`: how many places a kept answer has, and the window `window` (offset, limit)
    of them converted and named; made once while each file they are in is open with the
    same text and has the same symbol tree (what they are made from, by identity)."""
    key = (id(answer), *window)
    held = await _made_from(ws, answer)
    done = _PLACES.get(key)
    if done is not None and held is not None and done[0] is answer and _same(done[1], held):
        _PLACES.move_to_end(key)
        kept: tuple[int, list[T]] = done[2]
        return kept
    made = await make()
    if held is not None:
        _PLACES[key] = (answer, held, made)
        while len(_PLACES) > MAX_KEPT:
            _PLACES.popitem(last=False)
    return made


async def _made_from(ws: Workspace, answer: shapes.Locations) -> list[object] | None:
    """The lines and symbol tree of each file of the answer's locations (an open document's
    lines, the index's tree); None when one is not open or has no tree."""
    held: list[object] = []
    for path in _paths(answer):
        document = None if path is None else ws.document(path)
        if path is None or document is None:
            return None
        try:
            held += [document.lines, await ws.symbols.tree(path)]
        except LspdError:
            return None
    return held


def _same(before: list[object], now: list[object]) -> bool:
    return len(before) == len(now) and all(a is b for a, b in zip(before, now, strict=True))


def _at(position: shapes.Position) -> tuple[int, int]:
    return position["line"], position["character"]


def _followed(ws: Workspace, answer: shapes.Locations) -> bool:
    """Whether every location of the answer is in a source file the symbol index has read
    (the watcher reports its changes)."""
    return all(path is not None and ws.symbols.known(path) for path in _paths(answer))


def _paths(answer: shapes.Locations) -> list[Path | None]:
    """The file of each location of the answer (None: not a file)."""
    items = answer if isinstance(answer, list) else [answer] if answer else []
    return [uri_to_path(i["targetUri"] if "targetUri" in i else i["uri"]) for i in items]
