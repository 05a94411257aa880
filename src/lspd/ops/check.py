"""The whole-workspace check as answers: every error and warning of the files the project's
gate checks (`workspace.scope`: its pyright and tsconfig configurations; every source file
with `all`, or the files matching `paths`), complete.

The check's run is the engine's (`engine/whole_check.py`: which files are asked, by whom,
what is reused); this module makes its answers: each file's result a `DiagnosticsResult`
(`FileAnswers`, mypy's `result_of`), the whole check a `Checked` (`CheckAnswers`). `lspd
check` prints all of it; the MCP `workspace_diagnostics` tool pages it (`offset` in,
`next_offset` out) and never drops a file or a diagnostic without saying so. A daemon keeps
the last complete check while no file changes (its watcher counts changes), so paging
through it costs one check, not one per page (`ops/check_memory.py`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.engine.check_state import Progress
from lspd.engine.mypy_check import MypyRun
from lspd.engine.python_trivia import Moves
from lspd.engine.whole_check import Whole, matched_files, selected, whole_check
from lspd.ops.arguments import check_globs
from lspd.ops.baseline import check_baseline
from lspd.ops.budget import check_paging, page
from lspd.ops.check_memory import memory_of, running
from lspd.ops.check_models import SkippedFile, WorkspaceDiagnosticsResult
from lspd.ops.checked import Checked, result_page, summary
from lspd.ops.file_diagnostics import FileAnswers
from lspd.ops.models import DiagnosticsResult
from lspd.ops.moved import moved
from lspd.ops.mypy_answers import result_of
from lspd.ops.programs_joined import joined
from lspd.ops.tsconfig import config_results
from lspd.workspace import Workspace
from lspd.workspace.scope import GateScope, gate_scope

if TYPE_CHECKING:
    from lspd.ops.changes_page import FromKept

__all__ = ["check_all", "from_kept", "running", "summary", "workspace_diagnostics"]

MAX_LIMIT = 1000  # diagnostics per page; the answer budget may stop a page sooner


async def check_all(
    ws: Workspace,
    paths: list[str] | None = None,
    progress: Progress | None = None,
    all: bool = False,
    busy: Callable[[], bool] | None = None,
) -> Checked:
    """Diagnostics of the files the project's gate checks (`workspace.scope`), or of every
    source file under the root (`all`), or of those matching `paths` globs: the engine's
    whole check (`engine/whole_check.py`) with this layer's answers.

    Fresh: after the catch-up, so every change made before the call is in. Reused while no
    file under the root has changed since. With `busy` it is a background check (the
    daemon's keeping of HEAD's result): it gives way between files while `busy()` says a
    question is in flight (`engine/yielding.py`).
    """
    check_globs(paths)
    return await whole_check(ws, paths, all, progress, busy, CheckAnswers(ws), memory_of(ws))


@dataclass(frozen=True)
class CheckAnswers(FileAnswers):
    """The engine's `Checks`: a whole check's results as `DiagnosticsResult`s (each file's:
    `FileAnswers`) and the whole check as a `Checked`."""

    def of_mypy(self, run: MypyRun, path: Path, toolchain: str) -> DiagnosticsResult:
        """mypy's errors of `path` in `run` (`mypy_answers.result_of`)."""
        return result_of(self.ws, run, path, toolchain)

    def merged(self, results: list[DiagnosticsResult]) -> list[DiagnosticsResult]:
        """One result per file, mypy's and basedpyright's joined, and a file's programs'
        (`ops/programs_joined.py`)."""
        return joined(self.ws, results)

    def moved(self, result: DiagnosticsResult, moves: Moves) -> DiagnosticsResult | None:
        """`result` after an edit of comments and blank lines (`ops/moved.py`)."""
        return moved(result, moves)

    async def configs(self) -> list[DiagnosticsResult]:
        """TypeScript 7's tsconfigs' errors (`ops/tsconfig.py`)."""
        return await config_results(self.ws)

    def made(self, whole: Whole[DiagnosticsResult]) -> Checked:
        """The whole check as answers: its skipped files named as shown, in path order; the
        results' stamped JSON texts shared by the workspace's checks (with a watcher)."""
        ws = self.ws
        skipped = [SkippedFile(path=ws.display(s.path), reason=s.reason) for s in whole.skipped]
        skipped.sort(key=lambda s: s.path)
        stamped = memory_of(ws).stamped if whole.watched else {}
        counted, results, changes, scope = whole.counted, whole.results, whole.changes, whole.scope
        asked, stopped = whole.asked, whole.stopped
        return Checked(counted, results, changes, stamped, asked, scope, skipped, stopped)


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
        from lspd.ops.changes_page import workspace_page  # here: a plain check runs without

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

    from lspd.ops.since_kept import since_committed  # here: a plain check runs without

    return functools.partial(
        since_committed, ws, baseline, whole=whole, wider=wider if paths or all else None
    )


async def _in_gate(ws: Workspace, paths: list[str]) -> bool:
    """Whether every file `paths` match is one of the gate's (then the gate's check, against
    the kept result, answers alone)."""
    gate = set((await gate_scope(ws)).files)
    return all(p in gate for p in (await matched_files(ws, paths, False))[1])


def _gate_of(scope: GateScope, every: Checked, ws: Workspace) -> Checked:
    """The gate's part of a check of every file (with its configurations' results)."""
    gate = {ws.display(p) for p in scope.files}
    results = [r for r in every.results if r.path in gate or ws.handler(ws.root / r.path) is None]
    skipped = [s for s in every.skipped if s.path in gate]
    asked = [p for p in every.asked if ws.display(p) in gate]
    matched = len(scope.files)
    stopped = every.stopped
    return Checked(matched, results, every.changes, every.stamped, asked, scope, skipped, stopped)


def _matches(ws: Workspace, paths: list[str] | None, path: Path) -> bool:
    """Whether the file `path` matches the `paths` globs (every file without them)."""
    return selected(ws.display(path), paths)
