"""The whole-workspace check of TypeScript 7 projects: nothing opened, and after edits only
what they can reach asked again (`engine/native_reach.py` says which files).

TypeScript 7's LSP (`tsc --lsp`) answers `textDocument/diagnostic` for any file of its
projects, opened or not: it reads the disk, and hears of changes through the file watchers
it registers (lspd's watcher tells it). So, where lspd's watcher runs (a daemon), a check
opens no document (no copy of every file held by lspd and by the server), asks the files
the engine says an edit reaches, and reuses the others' results.

Without a watcher nothing would tell the server of changes, so the files are opened and
closed as any other server's (`engine/check_files.py`). The results are the caller's
(`Answers`); what the step reads and renews of the checks' memory is in `CheckState`.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from lspd.engine.builders import tsconfig_of
from lspd.engine.check_files import Answers, Known, Said
from lspd.engine.check_state import CheckState
from lspd.engine.native_program import compiler, configs_of, prime, program_state, settled
from lspd.engine.native_reach import (
    native,
    native_asked,
    native_seen,
    native_sessions,
    read_imports,
)
from lspd.engine.results import FileResult
from lspd.engine.second_server import ask_all
from lspd.engine.stops import PARSER_CODES, TSC, Stop, stop_of
from lspd.lsp import shapes
from lspd.lsp.answers import PULL_DIAGNOSTICS
from lspd.lsp.session import Session
from lspd.workspace import Workspace
from lspd.workspace.tsc_native import ConfigError, config_errors

# A check is a gate, not an interactive answer: a slow file on a busy machine must not fail
# it. The first files asked of a server also wait for its project to load: effect's 572
# files (523,000 lines) took over 30 s on a 2-core machine at load 20.
FILE_TIMEOUT_S = 120.0
LOAD_TIMEOUT_S = 600.0
R = TypeVar("R")
F = TypeVar("F", bound=FileResult)
Aside = Callable[[], Coroutine[Any, Any, object]]  # work done while the server loads
Items = list[shapes.Diagnostic]
# tsc reports a program's semantic diagnostics only when none of its files has a syntactic
# one (TypeScript 7's `tsc -p` as 5's emitFilesAndReportErrors): with a syntax error anywhere,
# its whole answer is the syntax errors. The LSP says both kinds alike, so the items of the
# parser's codes (TS1xxx; JSX's TS17xxx; a JavaScript file's TS8xxx; the checker's grammar
# errors are among them too) are kept per file, and a check with any asks `tsc -p
# --listFilesOnly`, which parses alone and says the syntax errors (0.3 s for a few files,
# 4.4-6.1 s for effect's 572 at load 6): again only when those items changed, so a checker's
# grammar error that stays costs one run (`engine/stops.PARSER_CODES`). Such a program is a
# `Stop`: the baseline's other errors were not checked.


@dataclass
class _Parsed:
    """A workspace's items of the parser's codes, per file, and per tsconfig what tsc said
    of them last (the items it was asked for, its errors)."""

    items: dict[Path, Items] = field(default_factory=dict)
    said: dict[Path, tuple[str, list[ConfigError]]] = field(default_factory=dict)


_parsed: weakref.WeakKeyDictionary[Workspace, _Parsed] = weakref.WeakKeyDictionary()
# When a check without a watcher began (`native_once` reuses what was read since).
_once: weakref.WeakKeyDictionary[Workspace, float] = weakref.WeakKeyDictionary()


async def native_checked(
    ws: Workspace,
    rest: list[Path],
    changes: int | None,
    memory: CheckState[R],
    answers: Answers[R],
    answered: Callable[[], None] = lambda: None,
    aside: Aside | None = None,
    stops: list[Stop] | None = None,
) -> tuple[list[R], list[Path], list[Path]]:
    """Of `rest` (the files answered one by one), the TypeScript 7 files' results (made by
    `answers`), those of them asked anew, and the files left for the other servers;
    `answered` is called as each file is (the check's progress). `aside` runs while the
    server loads and checks, when any file is asked. A program whose syntax errors stopped
    its tsc is added to `stops`."""
    known = memory.known
    sessions = native_sessions(ws, rest)
    if not sessions:
        return [], [], rest
    if changes is None:  # asked one by one (`native_once` then), their programs read beside
        _once[ws] = time.monotonic()
    for config, (tsc, _) in configs_of(ws, sessions).items():
        prime(ws, tsc, config)  # beside the check: one file's `diagnostics` finds it read
    if changes is None:
        return [], [], rest
    seen = memory.native
    now, changed, unread = native_seen(ws, sessions, changes, seen)
    memory.native = now
    # The first check needs none of it (it asks every file): read while the server loads.
    reading = asyncio.create_task(read_imports(unread, now)) if seen is None else None
    if reading is None:
        await read_imports(unread, now)
    asked = native_asked(ws, sessions, changed, seen, now, known)

    async def ask(session: Session, path: Path, timeout: float) -> R:
        return await _pulled(ws, session, path, known, answers, timeout)

    # TypeScript 7's LSP says nothing of its tsconfig's errors: the caller asks `tsc -p` for
    # them (`ops/tsconfig.py`, kept until the file changes) while the server loads and checks.
    configs = asyncio.create_task(aside()) if asked and aside is not None else None
    try:
        timeouts = FILE_TIMEOUT_S, LOAD_TIMEOUT_S
        # From both ends (`from_ends`): TypeScript's answers do not depend on the order, and
        # effect 4.1's cold check took 0.98x `tsc -p` so, 1.18-1.31x in halves (quiet runs).
        checked_before = seen is not None
        fresh = await ask_all(
            asked, sessions, ask, timeouts, answered, checked_before, from_ends=True
        )
    finally:
        await asyncio.gather(*(task for task in (configs, reading) if task is not None))
    results = [fresh[p] if p in fresh else known[p][1] for p in sessions]
    syntax = await _syntax_errors(ws, sessions, stops)
    if syntax:  # tsc's answer: the syntax errors alone
        for index, path in enumerate(sessions):
            if path in syntax:
                results[index] = answers.of_items(Said.by(sessions[path]), path, syntax[path])
    return results, asked, [p for p in rest if p not in sessions]


async def _syntax_errors(
    ws: Workspace, sessions: dict[Path, Session], stops: list[Stop] | None = None
) -> dict[Path, Items]:
    """The items tsc reports of each file of a program with a syntax error (its syntax
    errors; none for the program's other files); empty when no file was said an error of the
    parser's codes (tsc is not asked then). Each such program is added to `stops`."""
    parsed = _parsed.setdefault(ws, _Parsed())
    configs: dict[Path, tuple[Session, list[Path]]] = {}
    for path, session in sessions.items():
        if parsed.items.get(path) and (config := tsconfig_of(ws, path)) is not None:
            configs.setdefault(config, (session, []))[1].append(path)
    said: dict[Path, Items] = {}
    for config, (session, paths) in configs.items():
        command = session.definition.resolved_command()
        if "--lsp" not in command:
            continue
        asked = repr([(p, parsed.items[p]) for p in sorted(paths)])
        if config in parsed.said and parsed.said[config][0] == asked:
            errors = parsed.said[config][1]
        else:
            tsc = command[: command.index("--lsp")]
            errors = await asyncio.to_thread(config_errors, tsc, config)
            parsed.said[config] = (asked, errors)
        found: dict[Path, Items] = {}
        for error in errors:
            if error.file in sessions and error.code and error.file.suffix != ".json":
                found.setdefault(error.file, []).append(tsc_item(parsed.items, error))
        if found:  # the program's files: those of this config
            program = [p for p in sessions if tsconfig_of(ws, p) == config]
            said.update((p, found.get(p, [])) for p in program)
            at = [(ws.display(e.file), e.line) for e in errors if e.file in found and e.code]
            if stops is not None:
                stops.append(stop_of(TSC, at, map(ws.display, program)))
    return said


async def native_once(
    ws: Workspace, paths: list[Path], results: list[F], answers: Answers[F], stops: list[Stop]
) -> list[F]:
    """`results`, those of `paths` asked one by one without a watcher (a one-shot check:
    `check_files`), as tsc says them: in a TypeScript 7 program with a syntax error, its
    files' syntax errors alone, none for its other files, and the program added to `stops`
    (each file's answer looked only at its own syntax: `file_diagnostics.check_file`)."""
    sessions = native_sessions(ws, paths)
    index = {r.path: i for i, r in enumerate(results)}
    since = _once.pop(ws, None)  # the programs read since the check began stand
    for config, (tsc, found) in configs_of(ws, sessions).items():
        state = await program_state(ws, tsc, config, since=since)
        broken = state.broken
        if not broken:
            continue
        files = set(state.files)
        checked = [p for p in found if p in files and ws.display(p) in index]
        for path in checked:
            i = index[ws.display(path)]
            errors = broken.get(path, ())
            said = {(d.line, d.code) for d in results[i].diagnostics}
            if said != {(e.line, e.code) for e in errors}:  # its own parse said them already
                items = [tsc_item({}, e) for e in errors]
                results[i] = answers.of_items(Said.by(sessions[path]), path, items)
        at = [(ws.display(f), e.line) for f, errors in broken.items() for e in errors]
        stops.append(stop_of(TSC, at, map(ws.display, checked)))
    return results


def settled_items(ws: Workspace, path: Path) -> tuple[Session, Items] | None:
    """tsc's answer of `path` in a one-shot check (`native_once`) once its program is read
    and has a syntax error: its syntax errors alone, or nothing, without asking its server
    (effect 4.1's 569 files took 72 s to ask where `tsc -p` says the error in 4.2 s); None
    otherwise: the server is asked (`native_once` makes it tsc's answer at the end)."""
    since = _once.get(ws)
    if since is None or (session := native(ws, path)) is None:
        return None
    if compiler(session) is None or (config := tsconfig_of(ws, path)) is None:
        return None
    state = settled(ws, config, since)
    if state is None or not state.broken or path not in state.files:
        return None
    return session, [tsc_item({}, e) for e in state.broken.get(path, ())]


def parser_items(ws: Workspace) -> dict[Path, Items]:
    """The items of the parser's codes the disk's files were said last, by file."""
    return _parsed.setdefault(ws, _Parsed()).items


def stopped_configs(ws: Workspace) -> set[Path]:
    """The tsconfigs whose programs a syntax error stopped at the last check (tsc said a
    source file's error of a file still said an item of the parser's codes)."""
    parsed = _parsed.setdefault(ws, _Parsed())
    return {
        config
        for config, (_, errors) in parsed.said.items()
        if any(e.file in parsed.items and e.code and e.file.suffix != ".json" for e in errors)
    }


def tsc_item(parsed: Mapping[Path, Items], error: ConfigError) -> shapes.Diagnostic:
    """tsc's syntax error as the LSP said it (its range), else as tsc says it."""
    line, code = error.line - 1, int(error.code)
    for item in parsed.get(error.file, []):
        said = item["range"]["start"]["line"], _code(item), item.get("message")
        if said == (line, code, error.message):
            return item
    point: shapes.Position = {"line": line, "character": error.column - 1}
    return {
        "range": {"start": point, "end": point},
        "severity": 1,
        "code": code,
        "source": "ts",
        "message": error.message,
    }


async def _pulled(
    ws: Workspace,
    session: Session,
    path: Path,
    known: Known[R],
    answers: Answers[R],
    timeout: float,
) -> R:
    """`path`'s diagnostics from the server, without opening it (its open document's when
    lspd holds it)."""
    async with ws.file_lock(path):  # not while unsaved content of it is being checked
        items = await pulled(session, path, timeout)
    parsed = _parsed.setdefault(ws, _Parsed()).items
    parsed[path] = [i for i in items if any(_code(i) in codes for codes in PARSER_CODES)]
    if not parsed[path]:
        del parsed[path]
    result = answers.of_items(Said.by(session), path, items)
    known[path] = (None, result)  # the result only: nothing of the answer kept twice
    return result


def _code(item: shapes.Diagnostic) -> int:
    """An item's TypeScript code (0: none)."""
    code = str(item.get("code"))
    return int(code) if code.isdigit() else 0


async def pulled(session: Session, path: Path, timeout: float) -> list[shapes.Diagnostic]:
    """`path`'s diagnostics pulled from `session` without opening it."""
    params: shapes.DocumentParams = {"textDocument": {"uri": path.as_uri()}}
    report = await session.request(PULL_DIAGNOSTICS, params, timeout)
    return cast(list[shapes.Diagnostic], (report.get("items") if report else None) or [])
