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
from collections.abc import Callable, Collection, Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from lspd.engine.builders import tsconfig_of
from lspd.engine.check_files import Answers, Known, Said
from lspd.engine.check_state import CheckState
from lspd.engine.native_declared import edits_alike
from lspd.engine.native_emitted import beside_syntax, kept
from lspd.engine.native_implied import renew
from lspd.engine.native_items import FILE_TIMEOUT_S, Items, code_of, pulled
from lspd.engine.native_items import tsc_item as tsc_item  # its callers' import
from lspd.engine.native_libraries import library_results
from lspd.engine.native_own import own_programs
from lspd.engine.native_program import (
    State,
    background,
    compiler,
    configs_of,
    prime,
    program_state,
    quietly,
    settled,
)
from lspd.engine.native_reach import (
    NativeSeen,
    native,
    native_asked,
    native_edits,
    native_seen,
    native_sessions,
    read_imports,
)
from lspd.engine.results import FileResult
from lspd.engine.revisions import program_data
from lspd.engine.second_server import ask_all
from lspd.engine.stops import PARSER_CODES, TSC, Stop, stop_of
from lspd.lsp.session import Session
from lspd.workspace import Workspace

# The first files asked of a server also wait for its project to load (a file's own time:
# `native_items.FILE_TIMEOUT_S`).
LOAD_TIMEOUT_S = 600.0
R = TypeVar("R")
F = TypeVar("F", bound=FileResult)
Aside = Callable[[], Coroutine[Any, Any, object]]  # work done while the server loads
# tsc reports a program's semantic diagnostics only when none of its files has a syntactic
# one (TypeScript 7's `tsc -p` as 5's emitFilesAndReportErrors): with a syntax error anywhere,
# its whole answer is the syntax errors. The LSP says both kinds alike, so the items of the
# parser's codes (TS1xxx; JSX's TS17xxx; a JavaScript file's TS8xxx; the checker's grammar
# errors are among them too) are kept per file; which are syntax errors, and which files are
# the program's, is `native_program`'s (`tsc -p --listFilesOnly` once, then the changed files
# parsed alone). Such a program is a `Stop`: the baseline's other errors were not checked.
# TypeScript 7's tsc then emits anyway: the declaration pass's errors are said beside them
# (`native_emitted`), taken from the files' LSP answers, so their server is asked.


@dataclass
class _Parsed:
    """A workspace's items of the parser's codes, per file (a file not asked since tsc
    stopped: its syntax errors), and the tsconfigs a syntax error stopped at the last check."""

    items: dict[Path, Items] = field(default_factory=dict)
    stopped: set[Path] = field(default_factory=set)
    emitted: dict[Path, Items] = field(default_factory=dict)  # the declaration pass's items


_parsed: weakref.WeakKeyDictionary[Workspace, _Parsed] = weakref.WeakKeyDictionary()
# When a check without a watcher began (`native_once` reuses what was read since).
_once: weakref.WeakKeyDictionary[Workspace, float] = weakref.WeakKeyDictionary()


class _Syntax:
    """A watched check's TypeScript 7 programs as tsc reads them (`native_program`): read
    beside the questions at the first check and while a program stays stopped or a file
    holds an item of the parser's codes, or a JSON module changed (no server says its
    syntax; else only once a file is said one: tsc is not started for a clean edit). Once a
    program is read with a syntax error, its files are tsc's answer without their server
    (`said`); effect 4.1's 569 files were all asked before its tsc -p said the error."""

    def __init__(
        self, ws: Workspace, sessions: dict[Path, Session], first: bool, changed: Collection[Path]
    ) -> None:
        self.ws, self.parsed = ws, _parsed.setdefault(ws, _Parsed())
        self.configs = configs_of(ws, sessions)
        self.of = {p: c for c, (_, files) in self.configs.items() for p in files}
        self.reading: dict[Path, asyncio.Task[State | None]] = {}
        self.beside: dict[Path, asyncio.Task[bool]] = {}  # `native_emitted.beside_syntax`
        data = any(program_data(ws, p) for p in changed)
        for config, (tsc, files) in self.configs.items():
            items = any(self.parsed.items.get(p) for p in files)  # said at the last check
            if first or data or config in self.parsed.stopped or items:
                self.reading[config] = background(quietly(program_state(ws, tsc, config), config))
                self.beside[config] = background(beside_syntax(tsc, config))

    async def settled(self) -> None:
        """Once the programs stopped at the last check are read again (their renewal: the
        files changed since parsed alone), before any question."""
        stopped = self.parsed.stopped
        await asyncio.gather(*(t for c, t in self.reading.items() if c in stopped))

    def said(self, path: Path) -> Items | None:
        """tsc's answer of `path` once its program is read with a syntax error (its own
        syntax errors, or none); None while that is not known: its server is asked."""
        config = self.of.get(path, path)
        task, beside = self.reading.get(config), self.beside.get(config)
        if task is None or not task.done() or (state := task.result()) is None:
            return None
        if not state.broken or path not in state.files:
            return None
        if beside is None or not beside.done() or beside.result():  # its declaration items
            return None
        return [tsc_item(self.parsed.items, e) for e in state.broken.get(path, ())]

    async def _beside(self, config: Path, tsc: list[str]) -> bool:
        """Whether `config`'s tsc says the declaration pass's errors beside syntax errors."""
        task = self.beside.get(config)
        return await (task if task is not None else beside_syntax(tsc, config))

    async def stopped(self, stops: list[Stop] | None) -> dict[Path, tuple[Path, Items]]:
        """The items tsc reports of each file of a program with a syntax error (its syntax
        errors; none for the program's other files), with the file whose server answers it
        (a JSON module's, no server's file: its program's first); each such program added
        to `stops`; beside them, where tsc says them, the declaration pass's items of each
        file (`native_emitted`: as its server said them last)."""
        ws, parsed, said = self.ws, self.parsed, dict[Path, tuple[Path, Items]]()
        for config, (tsc, files) in self.configs.items():
            reading = self.reading.get(config)
            if reading is None and any(parsed.items.get(p) for p in files):
                reading = background(quietly(program_state(ws, tsc, config), config))
            state = await reading if reading is not None else None
            if state is None or not state.broken:
                parsed.stopped.discard(config)
                continue
            parsed.stopped.add(config)
            for path, errors in state.broken.items():  # a file not asked: its syntax errors
                parsed.items.setdefault(path, [tsc_item({}, e) for e in errors])
            program = [p for p in files if p in state.files]
            beside = parsed.emitted if await self._beside(config, tsc) else {}
            said.update(
                (p, (p, [tsc_item(parsed.items, e) for e in state.broken.get(p, ())]))
                for p in program
            )
            for path in program:
                said[path][1].extend(beside.get(path, ()))
            if program:  # a JSON module's syntax errors: tsc's answer of it (no server's file)
                said.update((p, (program[0], items)) for p, items in _data_said(state).items())
            at = [(ws.display(f), e.line) for f, errors in state.broken.items() for e in errors]
            if stops is not None:
                stops.append(stop_of(TSC, at, map(ws.display, program)))
        return said


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
    reading = asyncio.create_task(_read(ws, sessions, unread, now)) if seen is None else None
    if reading is None:
        await _read(ws, sessions, unread, now)
    edits = native_edits(ws, sessions, changed, seen, now)
    alike = await edits_alike(ws, edits, seen, now)
    seeing = None if edits is None else edits - alike
    asked = native_asked(ws, sessions, changed, seeing, now, known)
    syntax = _Syntax(ws, sessions, seen is None, changed)
    # TypeScript 7's LSP says nothing of its tsconfig's errors: the caller asks `tsc -p` for
    # them (`ops/tsconfig.py`, kept until the file changes) while the server loads and checks.
    configs = asyncio.create_task(aside()) if asked and aside is not None else None
    try:
        fresh, by_tsc = await _asked(ws, sessions, asked, syntax, memory, answers, answered, seen)
    finally:
        await asyncio.gather(*(task for task in (configs, reading) if task is not None))
    said = await syntax.stopped(stops)  # tsc's answer: a stopped program's syntax errors alone
    results = [
        answers.of_items(Said.by(s), p, said[p][1])
        if p in said
        else fresh[p]
        if p in fresh
        else known[p][1]
        for p, s in sessions.items()
    ]
    results += await library_results(ws, sessions, asked, syntax.parsed.stopped, answers)
    results += [  # a JSON module's syntax errors
        answers.of_items(Said.by(sessions[by]), p, items)
        for p, (by, items) in said.items()
        if p not in sessions
    ]
    return results, [p for p in asked if p not in by_tsc], [p for p in rest if p not in sessions]


async def _read(
    ws: Workspace, sessions: dict[Path, Session], unread: set[Path], now: NativeSeen
) -> None:
    """`read_imports` of `unread`; a file whose JSX pragmas changed on disk is told to its
    server as its program's change (`native_implied`: built anew before it is asked)."""
    await read_imports(unread, now)
    renew(ws, sessions, now.pragmas)


async def _asked(
    ws: Workspace,
    sessions: dict[Path, Session],
    asked: list[Path],
    syntax: _Syntax,
    memory: CheckState[R],
    answers: Answers[R],
    answered: Callable[[], None],
    seen: NativeSeen | None,
) -> tuple[dict[Path, R], set[Path]]:
    """The results of `asked`, each pulled from its server unless its program is read with
    a syntax error (then tsc's answer: `_Syntax.said`), and those tsc's answer made;
    `seen`: what the last check saw (None: this is the first)."""
    await syntax.settled()  # a program still stopped: its files are tsc's answer at once
    by_tsc = {p: items for p in asked if (items := syntax.said(p)) is not None}
    fresh: dict[Path, R] = {}
    for path, items in by_tsc.items():
        fresh[path] = answers.of_items(Said.by(sessions[path]), path, items)
        answered()

    async def ask(session: Session, path: Path, timeout: float) -> R:
        if (items := syntax.said(path)) is not None:  # read meanwhile: tsc stopped
            by_tsc[path] = items
            return answers.of_items(Said.by(session), path, items)
        return await _pulled(ws, session, path, memory.known, answers, timeout)

    left = [p for p in asked if p not in fresh]
    fresh |= await own_programs(sessions, left, syntax.of, ask, LOAD_TIMEOUT_S, answered)
    timeouts = FILE_TIMEOUT_S, LOAD_TIMEOUT_S
    # From both ends (`from_ends`): TypeScript's answers do not depend on the order, and
    # effect 4.1's cold check took 0.98x `tsc -p` so, 1.18-1.31x in halves (quiet runs).
    left = [p for p in asked if p not in fresh]
    checked_before = seen is not None
    fresh |= await ask_all(left, sessions, ask, timeouts, answered, checked_before, from_ends=True)
    for path in by_tsc:  # its last answer is of an older text: asked once tsc goes on
        memory.known.pop(path, None)
    return fresh, set(by_tsc)


async def native_once(
    ws: Workspace, paths: list[Path], results: list[F], answers: Answers[F], stops: list[Stop]
) -> list[F]:
    """`results`, those of `paths` asked one by one without a watcher (a one-shot check:
    `check_files`), as tsc says them: in a TypeScript 7 program with a syntax error, its
    files' syntax errors alone, none for its other files, and the program added to `stops`
    (each file's answer looked only at its own syntax: `file_diagnostics.check_file`); the
    declaration pass's items beside where tsc says them (asked of the server again)."""
    sessions = native_sessions(ws, paths)
    index = {r.path: i for i, r in enumerate(results)}
    since = _once.pop(ws, None)  # the programs read since the check began stand
    stopped: set[Path] = set()  # and their library files' errors are not tsc's answer
    for config, (tsc, found) in configs_of(ws, sessions).items():
        state = await program_state(ws, tsc, config, since=since)
        broken = state.broken
        if not broken:
            continue
        stopped.add(config)
        files = set(state.files)
        checked = [p for p in found if p in files and ws.display(p) in index]
        beside = await _emitted(sessions, checked) if await beside_syntax(tsc, config) else {}
        for path in checked:
            i = index[ws.display(path)]
            errors = broken.get(path, ())
            said = {(d.line, d.code) for d in results[i].diagnostics}
            if beside.get(path) or said != {(e.line, e.code) for e in errors}:  # or its own
                items = [tsc_item({}, e) for e in errors] + beside.get(path, [])  # parse's
                results[i] = answers.of_items(Said.by(sessions[path]), path, items)
        if checked:  # a JSON module's syntax errors: tsc's answer of it (no server's file)
            by = Said.by(sessions[checked[0]])
            results += [answers.of_items(by, p, i) for p, i in _data_said(state).items()]
        at = [(ws.display(f), e.line) for f, errors in broken.items() for e in errors]
        stops.append(stop_of(TSC, at, map(ws.display, checked)))
    return results + await library_results(ws, sessions, None, stopped, answers, since)


async def _emitted(sessions: Mapping[Path, Session], paths: list[Path]) -> dict[Path, Items]:
    """The declaration pass's items of `paths`, pulled from their servers."""
    pulls = [pulled(sessions[path], path, FILE_TIMEOUT_S) for path in paths]
    said = await asyncio.gather(*pulls)
    return {path: kept(items) for path, items in zip(paths, said, strict=True)}


def _data_said(state: State) -> dict[Path, Items]:
    """The syntax errors of the JSON modules of a program in `state` (`resolveJsonModule`):
    no server's files, tsc's answer of them (`tsc -p`: `defaults.json(2,1): error TS1005`)."""
    return {
        path: [tsc_item({}, e) for e in errors]
        for path, errors in state.broken.items()
        if path.suffix == ".json"
    }


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
    """The tsconfigs whose programs a syntax error stopped at the last check."""
    return set(_parsed.setdefault(ws, _Parsed()).stopped)


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
    async with ws.file_lock(path, disk=True):  # not while unsaved content of it is held
        items = await pulled(session, path, timeout)
    memory = _parsed.setdefault(ws, _Parsed())
    parsed, emitted = memory.items, memory.emitted
    parsed[path] = [i for i in items if any(code_of(i) in codes for codes in PARSER_CODES)]
    if not parsed[path]:
        del parsed[path]
    emitted[path] = kept(items)
    if not emitted[path]:
        del emitted[path]
    result = answers.of_items(Said.by(session), path, items)
    known[path] = (None, result)  # the result only: nothing of the answer kept twice
    return result
