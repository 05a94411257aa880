"""The files TypeScript 7's server must answer from their own programs: where one server
holds several programs that reference each other (a solution, npm workspaces), the first
file asked of each program is asked alone, the server told first that it changed.

TypeScript 7.0.2's `tsc --lsp` answers `textDocument/diagnostic` of a file from its
snapshot's default project for it, and where no request has loaded the file's own project
(one is looked up and loaded only when a request comes with a file change pending, or for
a file opened), from any loaded project holding it. A program referencing another holds
that one's sources through the reference's redirect and leaves them unchecked (as tsc -b
checks each program's own files alone), so a file answered from it says no error: with
packages app -> core -> utils, core's index.ts asked after app's main.ts was answered by
app's program, before and after an edit of utils' types.ts that tsc -b says breaks core
(TS2741), and core's own TS2322 was missed at a cold check. Its server log (its
`window/logMessage`) shows no snapshot made for core's request and one project loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import Any, TypeVar

from lspd.engine.native_program import configs_of
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.workspace import Workspace

R = TypeVar("R")


async def own_programs(
    sessions: Mapping[Path, Session],
    paths: list[Path],
    of: Mapping[Path, Path],
    ask: Callable[[Session, Path, float], Coroutine[Any, Any, R]],
    timeout: float,
    answered: Callable[[], None] = lambda: None,
) -> dict[Path, R]:
    """The first of `paths` of each program (`of`: a file's tsconfig), where a server's
    `paths` are of more than one, each asked alone (`ask`) after telling its server it
    changed (one not held open): the server then loads its project and answers it, and the
    program's files asked after it, from its own program."""
    firsts: dict[tuple[Session, Path], Path] = {}
    for path in paths:
        if (config := of.get(path)) is not None:
            firsts.setdefault((sessions[path], config), path)
    servers = [session for session, _ in firsts]
    said: dict[Path, R] = {}
    for (session, _), path in firsts.items():
        if servers.count(session) > 1:
            if (uri := path_to_uri(path)) not in session.documents:
                session.notify_watched_files([{"uri": uri, "type": 2}])
            said[path] = await ask(session, path, timeout)
            answered()
    return said


def program_of(ws: Workspace, sessions: Mapping[Path, Session]) -> dict[Path, Path]:
    """Each TypeScript 7 file's tsconfig (`configs_of`)."""
    return {p: c for c, (_, files) in configs_of(ws, sessions).items() for p in files}
