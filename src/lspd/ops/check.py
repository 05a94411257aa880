"""The whole-workspace check: every error and warning of the files the project's gate
checks (`workspace.scope`: its pyright and tsconfig configurations; every source file with
`all`, or the files matching `paths`), complete.

`lspd check` prints all of it; the MCP `workspace_diagnostics` tool pages it (`offset` in,
`next_offset` out) and never drops a file or a diagnostic without saying so. A daemon keeps
the last complete check while no file changes (its watcher counts changes), so paging
through it costs one check, not one per page (`ops/check_memory.py`).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from pathlib import Path

from lspd.engine.builders import typescript_checked
from lspd.engine.check_files import Skipped, ask_each
from lspd.engine.check_state import Progress, Running
from lspd.engine.mypy_step import mypy_checked
from lspd.engine.native_check import native_checked
from lspd.engine.python_affected import python_asked
from lspd.engine.steps import Step, chain
from lspd.engine.yielding import Turn, background, free
from lspd.ops.arguments import check_globs
from lspd.ops.baseline import check_baseline
from lspd.ops.budget import check_paging, page
from lspd.ops.changes_page import FromKept, workspace_page
from lspd.ops.check_memory import CheckMemory, memory_of, running
from lspd.ops.check_models import SkippedFile, WorkspaceDiagnosticsResult, not_answered
from lspd.ops.checked import Checked, result_page, summary
from lspd.ops.file_diagnostics import FileAnswers, Known, selected
from lspd.ops.models import DiagnosticsResult
from lspd.ops.mypy_answers import merged, result_of
from lspd.ops.since_kept import since_committed
from lspd.ops.tsconfig import config_results
from lspd.workspace import Workspace
from lspd.workspace.scope import GateScope, gate_scope

__all__ = ["check_all", "from_kept", "running", "summary", "workspace_diagnostics"]

log = logging.getLogger(__name__)

# In a daemon, the files a check opened stay open (up to this many): see `check_all`. Each
# open document costs every later question a stat (255: 0.6 ms), so not without end.
KEEP_OPEN = 1000
MAX_LIMIT = 1000  # diagnostics per page; the answer budget may stop a page sooner
Reply = tuple[list[DiagnosticsResult], list[Path], list[Path]]  # a checker step's answer


async def check_all(
    ws: Workspace,
    paths: list[str] | None = None,
    progress: Progress | None = None,
    all: bool = False,
    busy: Callable[[], bool] | None = None,
) -> Checked:
    """Diagnostics of the files the project's gate checks (`workspace.scope`), or of every
    source file under the root (`all`), or of those matching `paths` globs.

    Fresh: after the catch-up, so every change made before the call is in. Reused while no
    file under the root has changed since.

    TypeScript projects are checked by their own TypeScript's builder (`engine/builders.py`),
    TypeScript 7 ones by their `tsc --lsp` without opening a file (`engine/native_check.py`):
    after an edit only what it can affect is checked again. Python: only the edited files
    when no declaration another file sees changed. The rest is asked file by file
    (`engine/check_files.py`); where a watcher keeps open documents in step with the disk (a
    daemon), the files a pull server checked stay open, up to `KEEP_OPEN`, so that the next
    check costs what the edit affects: the server answers "unchanged" for the rest, whose
    results are reused. SQLAlchemy's 255 files, 84,000 diagnostics, unchanged: 2.3 s closed
    and opened again, 0.15 s kept open. The daemon closes documents nobody asked about for a
    while (`workspace.memory`).

    With `busy` it is a background check (the daemon's keeping of HEAD's result): it gives
    way between files while `busy()` says a question is in flight (`engine/yielding.py`).
    """
    check_globs(paths)
    memory = memory_of(ws)
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
        return await _checked(ws, paths, progress, all, turn)
    finally:
        memory.lock.release()


async def _checked(
    ws: Workspace, paths: list[str] | None, progress: Progress | None, all: bool, turn: Turn
) -> Checked:
    """`check_all` once caught up, alone."""
    memory, changes = memory_of(ws), ws.changes_seen
    question = (tuple(paths or ()), all and not paths)
    if (cached := memory.fresh(question, changes)) is not None:
        return cached
    memory.drop_stale(changes)  # their results can go as soon as this check replaces them
    scope, matched = await _matched(ws, paths, all)
    skipped, matched = _left_out(ws, matched)  # too large, or set aside
    counted, watched = len(matched) + len(skipped), changes is not None
    if watched and not paths:
        memory.keep_only(set(matched), {ws.display(p) for p in matched})
    known: Known = memory.known if watched else {}
    before = {id(r) for _, r in known.values()}
    run = memory.begin(len(matched), progress)
    try:
        async with turn():  # a builder's step is one request: one turn
            found = await _reused_or_built(ws, matched, known, changes, memory, run)
        results, asked, rest = found
        kept = known if watched and len(matched) <= KEEP_OPEN else None
        left: list[Skipped] = []
        tick, answers = lambda: run.tick(run.done + 1), FileAnswers(ws)
        results += await ask_each(ws, rest, kept, answers, tick, left, memory.renewed, turn)
        skipped += [SkippedFile(path=ws.display(s.path), reason=s.reason) for s in left]
    except BaseException:
        memory.python = None  # not every file answered: every file is asked next time
        raise
    finally:
        memory.end(run)
    results = merged(results)  # a file both mypy and basedpyright judge: one result
    order = {ws.display(p): i for i, p in enumerate(matched)}
    results.sort(key=lambda r: order.get(r.path, -1))
    # TypeScript 7's LSP never reports its tsconfig's errors, which stop its `tsc`.
    async with turn():
        results += [r for r in await config_results(ws) if selected(r.path, paths)]
    anew = sum(id(r) not in before for r in results)
    took = time.monotonic() - run.began
    log.info("checked %d files in %.2f s, %d answered anew", len(results), took, anew)
    skipped.sort(key=lambda s: s.path)
    stamped = memory.stamped if watched else {}
    made_at = changes if changes is not None else -1
    checked = Checked(counted, results, made_at, stamped, sorted(asked + rest), scope, skipped)
    if watched and not not_answered(skipped):
        memory.last[question] = checked  # a file not answered is asked again next time
    else:  # and its last result is not reused as if no edit could have changed it
        memory.python = None
    return checked


async def _matched(
    ws: Workspace, paths: list[str] | None, every: bool
) -> tuple[GateScope | None, list[Path]]:
    """The files to check, and the gate's scope that chose them (None: `paths` or `all`)."""
    if paths or every:
        found = ws.projects.source_files(limit=10_000_000)
        return None, sorted(p for p in found if selected(ws.display(p), paths))
    scope = await gate_scope(ws)
    return scope, list(scope.files)


async def _reused_or_built(
    ws: Workspace,
    matched: list[Path],
    known: Known,
    changes: int | None,
    memory: CheckMemory,
    run: Running,
) -> tuple[list[DiagnosticsResult], list[Path], list[Path]]:
    """The results of the files a builder checks or an edit cannot have changed; the files
    checked anew for them; and the files left to ask one by one: the chain of checker steps
    (`lspd.engine.steps`)."""

    def one_more() -> None:  # a file answered: the progress `lspd check` shows
        run.tick(run.done + 1)

    async def unaffected(rest: list[Path]) -> Reply:  # Python: nothing asked, results reused
        memory.python, ask = python_asked(ws, matched, rest, changes, memory.python)
        known = memory.known
        if ask is None or any(p not in known for p in rest if p not in ask):
            return [], [], rest
        return [known[p][1] for p in rest if p not in ask], [], [p for p in rest if p in ask]

    answers = FileAnswers(ws)  # each file's result as a DiagnosticsResult
    # TypeScript 7's LSP never reports its tsconfig's errors: asked while its server loads.
    configs = functools.partial(config_results, ws)
    steps: list[Step[DiagnosticsResult]] = [
        # TypeScript projects: their own builder, re-checking what the edits affect.
        lambda rest: typescript_checked(ws, rest, known, answers, run.tick),
        # mypy-gated: the project's dmypy, each file's result a DiagnosticsResult.
        lambda rest: mypy_checked(ws, rest, functools.partial(result_of, ws)),
        unaffected,  # Python: only the edited files, when no declaration others see changed
        # TypeScript 7: nothing opened, only what the edits reach asked again.
        lambda rest: native_checked(ws, rest, changes, memory, answers, one_more, configs),
    ]
    results, asked, rest = await chain(steps, matched)
    if rest != matched:
        run.tick(len(matched) - len(rest))
    return results, asked, rest


def _left_out(ws: Workspace, matched: list[Path]) -> tuple[list[SkippedFile], list[Path]]:
    """The files workspace-wide work leaves out (too large, set aside: `left_out`), named,
    and the others."""
    skipped, kept = [], []
    for path in matched:
        if (reason := ws.left_out.reason(path)) is None:
            kept.append(path)
        else:
            skipped.append(SkippedFile(path=ws.display(path), reason=reason))
    return skipped, kept


async def workspace_diagnostics(
    ws: Workspace,
    paths: list[str] | None = None,
    limit: int = 50,
    offset: int = 0,
    baseline: str | None = None,
    all: bool = False,
) -> WorkspaceDiagnosticsResult:
    """Counts per file (complete) and one page of the diagnostics of the files the
    project's gate checks (every source file with `all`; those matching `paths` globs).

    `limit` (up to `MAX_LIMIT`) diagnostics from `offset`, fewer only when the answer budget
    is reached: then, and whenever more remain, `next_offset` says where to go on. A larger
    limit never returns fewer diagnostics. With `baseline`, the check is compared with the
    baseline's kept result (its files matching `paths`, or every file with `all`): `changes`
    says which diagnostics the change introduced and fixed, and the counts are those it
    introduced.
    """
    check_paging(offset, limit)
    check_baseline(baseline)
    if baseline is not None:  # a page of what it introduced (`ops/changes_page.py`)
        keep = functools.partial(_matches, ws, paths)
        kept = from_kept(ws, baseline, paths, all)
        return await workspace_page(ws, baseline, paths, keep, offset, limit, kept, all)
    checked = await check_all(ws, paths, all=all)
    everything = checked.everything
    return page(
        len(everything),
        offset,
        limit,
        lambda w: result_page(checked, everything, w.offset, w.count),
        MAX_LIMIT,
        sizes=checked.sizes,  # measured once per check, not once per page
    )


def from_kept(ws: Workspace, baseline: str, paths: list[str] | None, all: bool) -> FromKept:
    """The baseline's comparison from its kept result (`ops/since_kept.py`): the gate's
    whole check against it; with `paths` or `all`, their check's files outside the gate too.
    Without a watcher nothing is reused between two checks: `all`'s check (every file) is
    made once and the gate's part taken from it."""
    made: list[Checked] = []

    async def wider() -> Checked:
        if made and ws.changes_seen is not None and made[0].changes != ws.changes_seen:
            made.clear()  # a file changed since: compared again (`since_kept.settled`)
        if not made and paths and not all and await _in_gate(ws, paths):
            made.append(Checked(0, [], ws.changes_seen or -1))  # nothing outside the gate
        if not made:
            made.append(await check_all(ws, paths, all=all))
        return made[0]

    async def whole() -> Checked:  # the gate's, against the kept result
        if ws.changes_seen is not None or paths or not all:
            return await check_all(ws)
        return _gate_of(await gate_scope(ws), await wider(), ws)

    return functools.partial(
        since_committed, ws, baseline, whole=whole, wider=wider if paths or all else None
    )


async def _in_gate(ws: Workspace, paths: list[str]) -> bool:
    """Whether every file `paths` match is one of the gate's (then the gate's check, against
    the kept result, answers alone)."""
    gate = set((await gate_scope(ws)).files)
    return all(p in gate for p in (await _matched(ws, paths, False))[1])


def _gate_of(scope: GateScope, every: Checked, ws: Workspace) -> Checked:
    """The gate's part of a check of every file (with its configurations' results)."""
    gate = {ws.display(p) for p in scope.files}
    results = [r for r in every.results if r.path in gate or ws.handler(ws.root / r.path) is None]
    skipped = [s for s in every.skipped if s.path in gate]
    asked = [p for p in every.asked if ws.display(p) in gate]
    matched = len(scope.files)
    return Checked(matched, results, every.changes, every.stamped, asked, scope, skipped)


def _matches(ws: Workspace, paths: list[str] | None, path: Path) -> bool:
    """Whether the file `path` matches the `paths` globs (every file without them)."""
    return selected(ws.display(path), paths)
