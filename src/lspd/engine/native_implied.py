"""A JSX pragma changed on disk, told to TypeScript 7's server as its program's change.

TypeScript 7.0.2's server keeps a file's implied jsx-runtime import across a change of that
file alone (`lsp/pragmas.py`): a `/** @jsxImportSource preact */` written by the shell
reached it as a watched file's change, and the daemon's check, `diagnostics FILE`, the
post-edit hook and the stop gate said nothing of it (tsc -p: TS2875). The texts lspd gives
a server are looked at where they are sent (`lsp/documents.py`); the disk's are here: the
pragmas of each file as the server's program was last built with them (read by the checks,
`native_reach.read_imports`, and by a file's `diagnostics`), and where a file's now differ,
the server is told its program's configuration changed, before it is asked.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from pathlib import Path

from lspd.engine.builders import tsconfig_of
from lspd.lsp.pragmas import Pragmas, configs_near, disk_pragmas, rebuilt, scripted
from lspd.lsp.session import Session
from lspd.workspace import Workspace

# The pragmas of each file read from disk, as the session's program last had them.
_built: weakref.WeakKeyDictionary[Session, dict[Path, Pragmas]] = weakref.WeakKeyDictionary()


def renew(ws: Workspace, sessions: Mapping[Path, Session], now: Mapping[Path, Pragmas]) -> None:
    """`now`: the pragmas of files just read from disk; each file whose pragmas its
    session's program had otherwise is told as its configuration's change (once per
    session, before it is asked)."""
    told: dict[Session, set[Path]] = {}
    for path, pragmas in now.items():
        session = sessions.get(path)
        if session is None:
            continue
        built = _built.setdefault(session, {})
        if path in built and built[path] != pragmas:
            told.setdefault(session, set()).update(_configs(ws, path))
        built[path] = pragmas
    for session, configs in told.items():
        session.notify_watched_files(rebuilt(sorted(configs)))


def renew_file(ws: Workspace, session: Session, path: Path) -> None:
    """`renew` of one file's text on disk (a file's `diagnostics` of the disk's text)."""
    if scripted(path):
        renew(ws, {path: session}, {path: disk_pragmas(path)})


def _configs(ws: Workspace, path: Path) -> set[Path]:
    config = tsconfig_of(ws, path)
    return set(configs_near(path)) | ({config} if config is not None else set())
