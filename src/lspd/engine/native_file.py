"""One file's diagnostics on TypeScript 7 as tsc reports them.

TypeScript 7's LSP (`tsc --lsp`) pulls a file's syntactic and semantic items alike, where
`tsc -p` reports a program's semantic diagnostics only when none of its files has a syntax
error: a broken function's TS1005 came with TS2391 and TS7010, and a type error beside a
syntax error of the same file. Its syntax errors share the parser's range of codes with the
checker's grammar errors (TS1102), so tsc's parser alone tells them
(`tsc_native.parsed_errors`: the text parsed alone), asked only when an item has one of
those codes, once per text. Another own file's syntax error makes tsc say nothing of this
file: `others` reads the program's files (`engine/native_program.py`: listed and parsed
once, then only the files changed since parsed again) while the server answers the file,
and the answer is then empty, `Stopped` where tsc stopped. Beside the syntax errors tsc 7
says the declaration pass's errors where its options emit declarations (`native_emitted`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from lspd.engine.builders import tsconfig_of
from lspd.engine.native_emitted import beside_syntax, emitted, kept
from lspd.engine.native_implied import renew_file
from lspd.engine.native_items import tsc_item
from lspd.engine.native_program import background, compiler, parsed, program_state
from lspd.engine.stops import TSC, syntax_code
from lspd.lsp import shapes
from lspd.lsp.diagnostics import Stopped
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.workspace import Workspace

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Program:
    """What a file's program says of its answer: where tsc stops at another own file (None:
    nowhere), and whether tsc says the declaration pass's errors beside syntax errors."""

    stop: Stopped | None
    beside: bool


Others = asyncio.Task[Program | None]


def others(ws: Workspace, session: Session, path: Path) -> Others | None:
    """Where tsc stops at another own file of `path`'s program (None: nowhere), started now,
    while the server answers the file; None when TypeScript 7 does not answer it or no
    tsconfig holds it. A failure is logged and said None (nothing known)."""
    tsc = compiler(session)
    if tsc is None:
        return None
    if _disk_text(session, path):  # its JSX pragmas changed on disk: the program anew
        renew_file(ws, session, path)
    if (config := tsconfig_of(ws, path)) is None:
        return None
    return background(_elsewhere(ws, tsc, config, path))


def _disk_text(session: Session, path: Path) -> bool:
    """Whether `session` holds `path` with its text on disk (or not at all)."""
    document = session.documents.get(path_to_uri(path))
    if document is None:
        return True
    try:
        return path.read_text("utf-8") == document.text
    except (OSError, UnicodeDecodeError):
        return False


async def _elsewhere(ws: Workspace, tsc: list[str], config: Path, path: Path) -> Program | None:
    try:
        state = await program_state(ws, tsc, config)
        beside = await beside_syntax(tsc, config)
    except Exception:  # nothing known of the others: the file's own answer stands
        log.warning("could not read the syntax of %s's program", path, exc_info=True)
        return None
    if path not in state.files and path.exists():  # tsc -p does not check it (a new one: it
        return Program(None, beside)  # is one of the program's, as a held state's)
    for file, errors in state.broken.items():
        if file != path:
            return Program(Stopped(file, min(e.line for e in errors)), beside)
    if state.configured:  # its configuration's options errors stop its semantic check
        return Program(Stopped(state.configured[0].file, state.configured[0].line), False)
    return Program(None, beside)


async def as_tsc(
    session: Session,
    path: Path,
    text: str,
    items: list[shapes.Diagnostic],
    elsewhere: Others | None = None,
) -> list[shapes.Diagnostic]:
    """`items`, what TypeScript 7's `session` said of `path` holding `text`, as tsc says
    them: the file's syntax errors alone when it has any (`Stopped` at the first: its other
    errors not checked); none when another own file of its program has some (`elsewhere`,
    from `others`: `Stopped` there); else `items` themselves (the same list: a caller
    keeping what it made of an answer knows it again). Beside the syntax errors, the items
    of the declaration pass where its program's tsc says them (`Program.beside`)."""
    told = await elsewhere if elsewhere is not None and any(map(emitted, items)) else None
    beside = kept(items) if told is not None and told.beside else []
    if (own := await _own_errors(session, path, text, items, beside)) is not None:
        return own
    told = await elsewhere if elsewhere is not None else None
    if told is None or (stop := told.stop) is None:
        return items
    kept_items = cast("list[dict[str, Any]]", beside)  # nothing else of this file's: tsc stopped
    return cast("list[shapes.Diagnostic]", Stopped(stop.file, stop.line, kept_items))


async def _own_errors(
    session: Session,
    path: Path,
    text: str,
    items: list[shapes.Diagnostic],
    beside: list[shapes.Diagnostic],
) -> list[shapes.Diagnostic] | None:
    """The file's syntax errors alone (`beside` too), `Stopped` at the first; None when it
    has none."""
    if not any(syntax_code(TSC, str(i.get("code"))) for i in items):
        return None
    tsc = compiler(session)
    if tsc is None:
        return None
    errors = (await parsed(tsc, {path: text}))[path]
    if not errors:
        return None
    # tsc stopped at them: the file's other errors are not checked (`Stopped`)
    said = [tsc_item({path: items}, error) for error in errors] + beside
    stopped = Stopped(path, min(e.line for e in errors), cast("list[dict[str, Any]]", said))
    return cast("list[shapes.Diagnostic]", stopped)
