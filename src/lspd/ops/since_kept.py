"""`check --baseline HEAD` from the kept result: the work tree's incremental whole check
(`check_all`, re-checking what the edits affect) compared file by file with the committed
state's kept result (`lspd.ops.committed`), never a second check of the old texts.

Only the changed files and the files whose diagnostics differ from the kept ones are
compared (a result reused from the last check is known to be the same: its verdict is
kept with it); a diagnostic is the same in both when its file, severity, code, message and
the source text it points at agree, as `lspd.ops.changes.compare` has it, so lines shifted
by an edit above it do not make it new.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.comparison import Found
from lspd.engine.revisions import revision
from lspd.engine.seen import FileSeen, Seen
from lspd.ops.baseline import Compared
from lspd.ops.changes import compare
from lspd.ops.committed import Committed, NotKept, Whole, committed
from lspd.ops.kept_memory import enabled, found_of, seen_of
from lspd.ops.models import Diagnostic, DiagnosticsResult
from lspd.ops.per_workspace import PerWorkspace
from lspd.workspace import Workspace
from lspd.workspace.files import read_text


@dataclass
class Verdicts:
    """Whether a file's result is the kept one's, by result object (results are reused
    from check to check while the file cannot have changed)."""

    same: dict[str, tuple[DiagnosticsResult, FileSeen, bool]] = field(default_factory=dict)

    def of(self, result: DiagnosticsResult, kept: FileSeen) -> bool:
        last = self.same.get(result.path)
        if last is not None and last[0] is result and last[1] is kept:
            return last[2]
        verdict = _plain(result) == [_row(d) for d in kept.diagnostics]
        self.same[result.path] = (result, kept, verdict)
        return verdict


_verdicts = PerWorkspace(Verdicts)


async def since_committed(
    ws: Workspace, baseline: str, keep: Callable[[Path], bool], whole: Whole
) -> Compared | None:
    """What changed since `baseline` in the gate's files, from the kept result; None when
    it cannot answer (no watcher keeps the check, or `baseline` is not HEAD's commit nor
    `session`): the two-state comparison answers then."""
    if ws.changes_seen is None or not enabled():
        return None
    if baseline != "session":
        head, named = await asyncio.to_thread(
            lambda: (revision(ws, "HEAD"), revision(ws, baseline))
        )
        if head is None or named != head:
            return None
    try:
        found = await committed(ws, baseline, whole)
    except NotKept:  # a file not answered: both states are checked, as before
        return None
    return await asyncio.to_thread(against, ws, found, baseline, keep)


def against(
    ws: Workspace, found: Committed, baseline: str, keep: Callable[[Path], bool]
) -> Compared:
    """The work tree's check against the kept result: introduced, fixed, unchanged."""
    return against_found(ws, found, baseline, keep)[0]


def against_found(
    ws: Workspace, found: Committed, baseline: str, keep: Callable[[Path], bool]
) -> tuple[Compared, list[Found[Diagnostic]]]:
    """`against`, and the compared files' diagnostics now with their keys (the very
    objects `introduced` lists)."""
    gate = None if found.checked.scope is None else set(found.checked.scope.files)
    changed_paths = {p for p in {*found.delta.before, *found.delta.after} if keep(p)}
    changed_paths = {p for p in changed_paths if gate is None or p in gate}
    changed = {ws.display(p) for p in changed_paths}
    verdicts = _verdicts.of(ws)
    before: list[Found[Diagnostic]] = []
    after: list[Found[Diagnostic]] = []
    compared: list[DiagnosticsResult] = []
    for result in found.checked.results:
        kept = found.state.files.get(result.path)
        if result.path not in changed and kept is not None and verdicts.of(result, kept):
            continue
        compared.append(result)
        text = read_text(ws.root / result.path) if result.diagnostics else None
        now = seen_of(result, (text or "").splitlines())
        after += found_of(now)
        if kept is not None:
            before += found_of(kept)
    state = found.state
    note = (
        f"{len(changed)} changed file(s); the gate's {len(found.checked.results)} files as "
        f"`lspd check` has them against the kept result of {state.key.commit[:12]} "
        f"({found.note}); {len(compared)} file(s) differ from it"
    )
    changes = compare(before, after, baseline, sorted(changed), note)
    return Compared(changes, compared), after


def _plain(result: DiagnosticsResult) -> list[tuple[object, ...]]:
    return [_row(d) for d in result.diagnostics]


def _row(d: Diagnostic | Seen) -> tuple[object, ...]:
    """What must agree for a file's result to be the kept one (its text unchanged)."""
    return (d.severity, d.code, d.message, d.line, d.column, d.end_line, d.end_column)
