"""What `tsc -p` says of a TypeScript 7 program's library files: a package's .d.ts (TS2416 in
node_modules/@types/node/globals.d.ts), TypeScript's own lib files; nothing where
skipLibCheck leaves them unchecked (and TypeScript's under skipDefaultLibCheck: the server
skips their check as tsc does).

TypeScript 7's LSP answers a library file pulled (it reads it from the disk: 1 ms for a
package's small .d.ts, 50 ms for lib.es5.d.ts on 7.0.2), though the check asks the program's
own files alone (`native_program._own`). So each program's library files (those its `tsc -p
--listFilesOnly` listed, `Program.libraries`) are pulled at its first check, and again only
after a change the engine cannot place (`native_reach.placed`: global declarations, a
configuration, a file come or gone), the only edits of own files a library's errors can
see (a global type a package's .d.ts uses); their errors are kept in between. A program
stopped at a syntax error says none of them: tsc's answer is the syntax errors alone.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Collection, Container, Mapping
from pathlib import Path
from typing import TypeVar

from lspd.engine.check_files import Answers, Said
from lspd.engine.native_items import FILE_TIMEOUT_S, Items, pulled
from lspd.engine.native_program import configs_of, program_of
from lspd.lsp.session import Session
from lspd.workspace import Workspace
from lspd.workspace.tsc_native import shown

R = TypeVar("R")
ERROR, WARNING = 1, 2  # the severities tsc prints (the server's hints: `'x' is deprecated`)
# Per workspace, per tsconfig: its library files with errors, as last pulled.
_kept: weakref.WeakKeyDictionary[Workspace, dict[Path, dict[Path, Items]]]
_kept = weakref.WeakKeyDictionary()


async def library_results(
    ws: Workspace,
    sessions: Mapping[Path, Session],
    asked: Collection[Path] | None,
    stopped: Container[Path],
    answers: Answers[R],
    since: float | None = None,
) -> list[R]:
    """The results of the library files with errors of the programs of `sessions` (own file
    -> its server): pulled for a program not asked before, or again where the check asks
    every own file again (`asked`: a change not placed; None: a one-shot check), else as
    kept. A program in `stopped` (its tsconfig: a syntax error stopped its tsc) says none; a
    library two programs hold is said once. `since`: a one-shot check's start (the listing
    made since stands: `native_program.program_of`)."""
    kept = _kept.setdefault(ws, {})
    again = asked is None or not sessions.keys() - set(asked)
    said: dict[Path, R] = {}
    for config, (tsc, files) in configs_of(ws, sessions).items():
        if config in stopped or not files:
            continue
        session = sessions[files[0]]
        if again or config not in kept:
            kept[config] = await _pulled(ws, tsc, config, session, since)
        for path, items in kept[config].items():
            if path not in said:
                said[path] = answers.of_items(Said.by(session), path, items)
    return list(said.values())


async def _pulled(
    ws: Workspace, tsc: list[str], config: Path, session: Session, since: float | None
) -> dict[Path, Items]:
    """`config`'s library files with errors, each pulled from `session` (none asked under
    skipLibCheck: `tsc --showConfig` says the options its tsconfig extends too)."""
    if shown(tsc, config).get("compilerOptions", {}).get("skipLibCheck") is True:
        return {}
    libraries = (await program_of(ws, tsc, config, since)).libraries
    said = await asyncio.gather(*(pulled(session, path, FILE_TIMEOUT_S) for path in libraries))
    errors = [[i for i in items if i.get("severity") in (ERROR, WARNING)] for items in said]
    return {path: items for path, items in zip(libraries, errors, strict=True) if items}
