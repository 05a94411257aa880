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
question measured (docs/benchmarks.md, bench/latency.py).
"""

from __future__ import annotations

import time
from collections import OrderedDict

from lspd.lsp import answers, shapes
from lspd.lsp.session import Session
from lspd.lsp.text import uri_to_path
from lspd.workspace import Workspace
from lspd.workspace.scope import PYRIGHT_SERVERS

MAX_KEPT = 512  # answers kept (positions), the least recently used dropped first

_Key = tuple[int, str, str, int, int]  # the session's id, method, uri, line, character
_KEPT: OrderedDict[_Key, tuple[Session, object, int, shapes.Locations]] = OrderedDict()


async def definition(
    ws: Workspace, session: Session, params: shapes.PositionParams
) -> shapes.Locations:
    """`textDocument/definition` at `params`: the answer kept for them while the server
    was told nothing since, else asked (and kept, see the module's docstring)."""
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
        return kept[3]
    answer = await session.request(method, params)
    unchanged = told is not None and session.told == told and session.state == "ready"
    if keeps and told is not None and unchanged and _followed(ws, answer):
        _KEPT[key] = (session, *told, answer)
        while len(_KEPT) > MAX_KEPT:
            _KEPT.popitem(last=False)
    return answer


def _at(position: shapes.Position) -> tuple[int, int]:
    return position["line"], position["character"]


def _followed(ws: Workspace, answer: shapes.Locations) -> bool:
    """Whether every location of the answer is in a source file the symbol index has read
    (the watcher reports its changes)."""
    items = answer if isinstance(answer, list) else [answer] if answer else []
    for item in items:
        path = uri_to_path(item["targetUri"] if "targetUri" in item else item["uri"])
        if path is None or not ws.symbols.known(path):
            return False
    return True
