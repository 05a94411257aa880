"""The whole check's run: the files it checks (the gate's, every source file, or those
matching globs; those workspace-wide work leaves out named), one whole check at a time, the
chain of checker steps (`engine/steps.py`), the rest asked one by one, and the last check of
a question answered again while no file has changed.

TypeScript projects are checked by their own TypeScript's builder (`engine/builders.py`),
TypeScript 7 ones by their `tsc --lsp` without opening a file (`engine/native_check.py`):
after an edit only what it can affect is checked again. Python: only the edited files when
no declaration another file sees changed (`engine/python_affected.py`). The rest is asked
file by file (`engine/check_files.py`); where a watcher keeps open documents in step with
the disk (a daemon), the files a pull server checked stay open, up to `KEEP_OPEN`, so that
the next check costs what the edit affects: the server answers "unchanged" for the rest,
whose results are reused. SQLAlchemy's 255 files, 84,000 diagnostics, unchanged: 2.3 s
closed and opened again, 0.15 s kept open. The daemon closes documents nobody asked about
for a while (`workspace.memory`).

The results and the whole check are the caller's (`Checks`: `ops/check.py` makes
`DiagnosticsResult`s and `Checked`); what the engine says of a run is `Whole`, its own.
"""

from __future__ import annotations

import asyncio
import fnmatch
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from lspd.engine.builders import typescript_checked
from lspd.engine.check_files import NOT_ANSWERED, Answers, Known, Skipped, ask_each
from lspd.engine.check_state import Progress, Running, WholeState
from lspd.engine.config_stops import config_stopped
from lspd.engine.mypy_check import MypyRun
from lspd.engine.mypy_step import MypyStep, mypy_step
from lspd.engine.native_check import native_checked, native_once
from lspd.engine.python_affected import answered, python_asked
from lspd.engine.python_trivia import Moves
from lspd.engine.results import FileResult, WholeCheck
from lspd.engine.solution_check import Steps, also_checked, also_runs, unbuilt_checked
from lspd.engine.steps import Step, chain
from lspd.engine.stops import Stop
from lspd.engine.yielding import Turn, background, free
from lspd.workspace import Workspace
from lspd.workspace.scope import GateScope, gate_scope
from lspd.workspace.scope_walk import in_hidden_folder

log = logging.getLogger(__name__)

# In a daemon, the files a check opened stay open (up to this many): see the module's
# docstring. Each open document costs every later question a stat (255: 0.6 ms), so not
# without end.
KEEP_OPEN = 1000
R = TypeVar("R", bound=FileResult)
C = TypeVar("C", bound=WholeCheck)
C_co = TypeVar("C_co", bound=WholeCheck, covariant=True)
Reply = tuple[list[R], list[Path], list[Path]]  # a checker step's answer
# The steps' answers, and mypy's steps whose runs are made while the files left are asked
Built = tuple[list[R], list[Path], list[Path], list[MypyStep]]


@dataclass(frozen=True)
class Whole(Generic[R]):
    """What a whole check found, in the engine's terms (the caller's whole check is made of
    it: `Checks.made`)."""

    counted: int  # the files matched, those left out included
    results: list[R]  # one per file, in the files' order; TypeScript 7's tsconfigs' last
    changes: int  # the watcher's count of changes it was made at (-1: no watcher)
    watched: bool  # a watcher says what changed (a daemon): results are kept between checks
    asked: list[Path]  # the files a server checked for it, in path order
    scope: GateScope | None  # the gate's files (no globs, not every file)
    skipped: list[Skipped]  # matched and left out: too large, set aside, not answered
    stopped: list[Stop] = field(default_factory=list)  # checkers stopped at syntax errors


class Checks(Answers[R], Protocol[R, C_co]):
    """How the caller makes a whole check's results (each file's: `Answers`) and the whole
    check itself."""

    def of_mypy(self, run: MypyRun, path: Path, toolchain: str) -> R:
        """A file's result of mypy's errors in `run` (`engine/mypy_step.py`)."""
        ...

    def merged(self, results: list[R]) -> list[R]:
        """One result per file: a file both mypy and basedpyright judged gets both's."""
        ...

    def moved(self, result: R, moves: Moves) -> R | None:
        """`result` with its diagnostics moved to their lines after an edit of comments and
        blank lines (`engine/python_trivia.py`); None when one stands off the moved code."""
        ...

    async def configs(self) -> list[R]:
        """The errors of TypeScript 7's tsconfigs, which its LSP never reports (they stop
        its `tsc`): one result per file holding some."""
        ...

    def made(self, whole: Whole[R]) -> C_co:
        """The caller's whole check of what the engine found."""
        ...


async def whole_check(
    ws: Workspace,
    paths: list[str] | None,
    every: bool,
    progress: Progress | None,
    busy: Callable[[], bool] | None,
    checks: Checks[R, C],
    memory: WholeState[R, C],
) -> C:
    """The whole check of the gate's files (`workspace.scope`), of every source file under
    the root (`every`), or of those matching `paths` globs, with `checks`' results.

    Fresh: after the catch-up, so every change made before the call is in. Reused while no
    file under the root has changed since. With `busy` it is a background check (the
    daemon's keeping of HEAD's result): it gives way between files while `busy()` says a
    question is in flight (`engine/yielding.py`)."""
    turn = free if busy is None else background(ws, busy, lambda: memory.waiting > 0)
    async with turn():
        await ws.refresh_open_documents(catch_up=True)
    # One whole check at a time (a question's, the daemon's background one of the committed
    # state, a hook's): the next one waits, showing the running one's progress, and reuses
    # its result when no file changed meanwhile (a background run goes on unpaused for it).
    memory.waiting += busy is None
    try:
        await memory.lock.acquire()
    finally:
        memory.waiting -= busy is None
    try:
        return await _checked(ws, paths, progress, every, turn, checks, memory)
    finally:
        memory.lock.release()


async def _checked(
    ws: Workspace,
    paths: list[str] | None,
    progress: Progress | None,
    every: bool,
    turn: Turn,
    checks: Checks[R, C],
    memory: WholeState[R, C],
) -> C:
    """`whole_check` once caught up, alone."""
    changes = ws.changes_seen
    question = (tuple(paths or ()), every and not paths)
    if (cached := memory.fresh(question, changes)) is not None:
        return cached
    memory.drop_stale(changes)  # their results can go as soon as this check replaces them
    scope, matched, unfollowed = await matched_files(ws, paths, every)
    skipped, matched = _left_out(ws, matched)  # too large, or set aside
    counted, watched = len(matched) + len(skipped), changes is not None
    if watched and not paths:
        memory.keep_only(set(matched), {ws.display(p) for p in matched})
    known: Known[R] = memory.known if watched else {}
    before = {id(r) for _, r in known.values()}
    run = memory.begin(len(matched) + also_runs(ws, matched), progress)  # and tsc's runs
    stops: list[Stop] = []
    try:
        async with turn():  # a builder's step is one request: one turn
            found = await _reused_or_built(ws, matched, known, changes, checks, memory, run, stops)
        results, asked, rest, later = found
        kept = known if watched and len(matched) <= KEEP_OPEN else None

        def tick() -> None:  # a file answered: the progress `lspd check` shows
            run.tick(run.done + 1)

        mypy = _mypy_results(ws, later, checks, stops, turn, run) if later else None
        asking = ask_each(ws, rest, kept, checks, tick, skipped, memory.renewed, turn)
        results += await (asking if mypy is None else _beside(asking, mypy))  # no task more
        answered(ws, memory.python, rest)
        if not watched:  # TypeScript 7's files asked one by one: tsc's rule, once per program
            results = await native_once(ws, rest, results, checks, stops)
    except BaseException:
        memory.python = None  # not every file answered: every file is asked next time
        raise
    finally:
        memory.end(run)
    async with turn():  # TypeScript 7's LSP never reports its tsconfig's errors (`config_stops`)
        configs = [r for r in await checks.configs() if selected(r.path, paths)]
    results = _joined(ws, results, configs, matched, stops, checks)
    anew = sum(id(r) not in before for r in results)
    took = time.monotonic() - run.began
    log.info("checked %d files in %.2f s, %d answered anew", len(results), took, anew)
    made_at = changes if changes is not None else -1
    whole = Whole(counted, results, made_at, watched, sorted(asked + rest), scope, skipped, stops)
    checked = checks.made(whole)
    if watched and not any(s.reason.startswith(NOT_ANSWERED) for s in skipped):
        memory.keep(question, checked, unfollowed)  # a file not answered: asked again next time
    else:  # and its last result is not reused as if no edit could have changed it
        memory.python = None
    return checked


def _joined(
    ws: Workspace,
    results: list[R],
    configs: list[R],
    matched: list[Path],
    stops: list[Stop],
    checks: Checks[R, C],
) -> list[R]:
    """The files' `results` and the configurations' (their errors: `configs`) as tsc says
    them (`config_stopped`: each program's part of a file's result stopped apart, before
    they are one), one result per file (mypy's and basedpyright's, a layout's programs'),
    in the order `matched`, the configurations' after."""
    results = checks.merged(config_stopped(ws, [*results, *configs], stops, checks))
    order = {ws.display(p): i for i, p in enumerate(matched)}
    last = {r.path for r in configs} - order.keys()
    results.sort(key=lambda r: (r.path in last, order.get(r.path, -1)))
    return results


async def matched_files(
    ws: Workspace, paths: list[str] | None, every: bool
) -> tuple[GateScope | None, list[Path], list[Path]]:
    """The files to check, the gate's scope that chose them (None: `paths` or `every`), and
    those of them no watcher follows (named past the walk, in a hidden folder ty walks)."""
    if paths or every:
        found = ws.projects.source_files(limit=10_000_000)
        chosen = {p for p in found if selected(ws.display(p), paths)}
        named = _named(ws, paths or []) - chosen
        return None, sorted(chosen | named), sorted(named)
    scope = await gate_scope(ws)
    ws.follow(path for path, _ in scope.read)  # a configuration outside the root (../base.json)
    unfollowed = [p for p in scope.files if in_hidden_folder(ws.root, p)]
    return scope, list(scope.files), unfollowed


def _named(ws: Workspace, paths: list[str]) -> set[Path]:
    """The source files `paths` name as they are (no glob), which the walk leaves out (the
    .gitignore's, a hidden folder's): asked about by name, they are checked, as a checker
    checks a file its command names whatever its excludes say (else "0 files, 0 errors")."""
    named = ((ws.root / p).resolve() for p in paths if not any(c in p for c in "*?["))
    return {p for p in named if p.is_file() and p.is_relative_to(ws.root) and ws.handler(p)}


def selected(shown: str, globs: list[str] | None) -> bool:
    """Whether the root-relative path `shown` matches one of `globs` (all when none)."""
    if not globs:
        return True
    return any(fnmatch.fnmatch(shown, g) or Path(shown).match(g) for g in globs)


async def _reused_or_built(
    ws: Workspace,
    matched: list[Path],
    known: Known[R],
    changes: int | None,
    checks: Checks[R, C],
    memory: WholeState[R, C],
    run: Running,
    stops: list[Stop],
) -> Built[R]:
    """The results of the files a builder checks or an edit cannot have changed; the files
    checked anew for them; the files left to ask one by one: the chain of checker steps
    (`lspd.engine.steps`); and mypy's steps, their runs still to make (`MypyStep`). A
    checker stopped at syntax errors is added to `stops`."""
    later: list[MypyStep] = []

    def one_more() -> None:  # a file answered: the progress `lspd check` shows
        run.tick(run.done + 1)

    async def unaffected(rest: list[Path]) -> Reply[R]:  # Python: nothing asked, reused
        moved: dict[Path, R] = {}

        def move(path: Path, moves: Moves) -> bool:  # comments, blank lines: lines moved
            last = known.get(path)
            result = None if last is None else checks.moved(last[1], moves)
            if result is not None:
                moved[path] = result
            return result is not None

        memory.python, ask = python_asked(ws, matched, rest, changes, memory.python, move)
        if ask is None or any(p not in known for p in rest if p not in ask):
            return [], [], rest
        for path, result in moved.items():
            if path not in ask:
                known[path] = (None, result)  # the server's next answer is converted anew
        return [known[p][1] for p in rest if p not in ask], [], [p for p in rest if p in ask]

    steps: list[Step[R]] = [
        # TypeScript projects: their own builder, re-checking what the edits affect.
        lambda rest: typescript_checked(ws, rest, known, checks, run.tick, stops),
        # mypy-gated: the project's dmypy, each file's result made by the caller (later).
        lambda rest: _mypy_chosen(ws, rest, later),
        unaffected,  # Python: only the edited files, when no declaration others see changed
        # TypeScript 7: nothing opened, only what the edits reach asked again; its tsconfigs'
        # errors (which its LSP never reports) asked while its server loads.
        lambda rest: native_checked(
            ws, rest, changes, memory, checks, one_more, checks.configs, stops
        ),
    ]
    results, asked, rest = await chain(steps, matched)
    if rest != matched:  # mypy's files: once its runs are made
        run.tick(len(matched) - len(rest) - sum(step.alone for step in later))
    # TypeScript 7's file whose nearest tsconfig.json no tsc -b builds: its build's answer
    replaced, own = await unbuilt_checked(ws, matched, checks, progress=_counted(run))
    if replaced:
        shown = {ws.display(p) for p in replaced}
        results = [r for r in results if r.path not in shown] + own
    # A file of a solution-style layout in more than one program: each one's errors (tsc -b).
    results += await also_checked(ws, matched, checks, _counted(run))
    return results, asked, rest, later


async def _mypy_chosen(ws: Workspace, rest: list[Path], later: list[MypyStep]) -> Reply[R]:
    """mypy's step of the chain: its files chosen, its runs left for `later`."""
    step = mypy_step(ws, rest)
    if step.groups:
        later.append(step)
    return [], step.asked, step.left


async def _beside(asking: Awaitable[list[R]], mypy: Awaitable[list[R]]) -> list[R]:
    """The results of `asking` (the files left, asked of their servers), then `mypy`'s, its
    runs made meanwhile; the first to fail (no mypy in the environment, a file's question)
    ends both, the other cancelled (dmypy's run is then left to end by itself)."""
    tasks = (asyncio.ensure_future(asking), asyncio.ensure_future(mypy))
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                await task  # raises its error, the other still running: cancelled below
        return [*await tasks[0], *await tasks[1]]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _mypy_results(
    ws: Workspace,
    later: list[MypyStep],
    checks: Checks[R, C],
    stops: list[Stop],
    turn: Turn,
    run: Running,
) -> list[R]:
    """The results of mypy's steps' runs, each in a turn; their files ticked as made."""
    results: list[R] = []
    for step in later:
        async with turn():
            results += await step.results(ws, checks.of_mypy, stops)
        run.tick(run.done + step.alone)
    return results


def _counted(run: Running) -> Steps:
    """`also_checked`'s and `unbuilt_checked`'s tsc runs counted in `run` (its total holds
    them from the start,
    `also_runs`: a solution's tsconfigs' errors, `tsc --listFilesOnly` each, seconds on a
    cold program): before, `run` said every file checked while they ran (a post-edit hook:
    'the gate's files: 250 of 250 checked', the check running seconds more)."""
    before = run.done
    return lambda done, _: run.tick(before + done)


def _left_out(ws: Workspace, matched: list[Path]) -> tuple[list[Skipped], list[Path]]:
    """The files workspace-wide work leaves out (too large, set aside: `left_out`), named,
    and the others."""
    skipped, kept = [], []
    for path in matched:
        if (reason := ws.left_out.reason(path)) is None:
            kept.append(path)
        else:
            skipped.append(Skipped(path, reason))
    return skipped, kept
