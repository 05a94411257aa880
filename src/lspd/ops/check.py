"""The whole-workspace check: every error and warning of every source file, complete.

`lspd check` prints all of it; the MCP `workspace_diagnostics` tool pages it (`offset` in,
`next_offset` out) and never drops a file or a diagnostic without saying so. A daemon keeps
the last complete check while no file changes (its watcher counts changes), so paging
through it costs one check, not one per page.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.ops.baseline import changes_since, check_baseline
from lspd.ops.budget import BUDGET_CHARS, fits, size
from lspd.ops.checks import check_globs, check_positive
from lspd.ops.file_diagnostics import check_file, selected
from lspd.ops.models import (
    Changes,
    DiagnosticsResult,
    FileDiagnostic,
    FileDiagnosticCounts,
    WorkspaceDiagnosticsResult,
)
from lspd.workspace import Workspace

CONCURRENCY = 4  # files asked about at once: more only queues at a single-threaded server
MAX_LIMIT = 1000  # diagnostics per page; the answer budget may stop a page sooner
PER_FILE = 100_000  # diagnostics of one file kept (all, in practice)

Progress = Callable[[int, int], None]  # (files checked, files matched)


@dataclass
class Checked:
    """A complete check: every matched file's diagnostics, in path order."""

    matched: int
    results: list[DiagnosticsResult]
    changes: int  # the workspace's change count it was made at

    @functools.cached_property
    def everything(self) -> list[FileDiagnostic]:
        """Every diagnostic with its file, errors first: made once, however many pages."""
        found = [d.model_copy(update={"path": r.path}) for r in self.results for d in r.diagnostics]
        found.sort(key=lambda d: (d.severity != "error", d.path or "", d.line, d.column))
        return found

    @functools.cached_property
    def sizes(self) -> list[int]:
        """The characters each diagnostic adds to an answer."""
        return [size(d) for d in self.everything]


# The last complete check per workspace and globs.
_last: weakref.WeakKeyDictionary[Workspace, dict[tuple[str, ...], Checked]] = (
    weakref.WeakKeyDictionary()
)


async def check_all(
    ws: Workspace, paths: list[str] | None = None, progress: Progress | None = None
) -> Checked:
    """Diagnostics of every source file under the root (or matching `paths` globs).

    Fresh: after the catch-up, so every change made before the call is in. Files opened
    only for the check are closed again, so a scan does not leave the servers holding the
    whole tree. Reused while no file under the root has changed since.
    """
    check_globs(paths)
    await ws.refresh_open_documents(catch_up=True)
    key = tuple(paths or ())
    changes = ws.changes_seen
    cached = _last.get(ws, {}).get(key)
    if cached is not None and changes is not None and cached.changes == changes:
        return cached
    matched = sorted(
        p for p in ws.projects.source_files(limit=10_000_000) if selected(ws.display(p), paths)
    )
    gate = asyncio.Semaphore(CONCURRENCY)
    done = 0

    async def one(target: Path) -> DiagnosticsResult | None:
        nonlocal done
        async with gate:
            was_open = ws.holds(target)
            try:
                return await check_file(ws, ws.display(target), None, PER_FILE, budget=False)
            except InvalidInput:
                return None  # not a readable source file (binary, not UTF-8, a link leading out)
            finally:
                if not was_open:
                    ws.close_document(target)
                done += 1
                if progress is not None:
                    progress(done, len(matched))

    results = [r for r in await asyncio.gather(*(one(t) for t in matched)) if r is not None]
    checked = Checked(len(matched), results, changes if changes is not None else -1)
    if changes is not None:
        _last.setdefault(ws, {})[key] = checked
    return checked


def summary(checked: Checked) -> WorkspaceDiagnosticsResult:
    """The whole check as one result: every file's counts and every diagnostic."""
    return _result(checked, checked.everything, 0, None)


async def workspace_diagnostics(
    ws: Workspace,
    paths: list[str] | None = None,
    limit: int = 50,
    offset: int = 0,
    baseline: str | None = None,
) -> WorkspaceDiagnosticsResult:
    """Counts per file (complete) and one page of the diagnostics of the whole workspace.

    `limit` (up to `MAX_LIMIT`) diagnostics from `offset`, fewer only when the answer budget
    is reached: then, and whenever more remain, `next_offset` says where to go on. A larger
    limit never returns fewer diagnostics. With `baseline`, only the files changed since it
    (matching `paths`) and the files naming what changed are checked, and `changes` says
    which diagnostics the change introduced and fixed.
    """
    check_positive("limit", limit)
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InvalidInput(f"`offset` must be 0 or a positive integer, not {offset!r}")
    check_baseline(baseline)
    changes = None
    if baseline is None:
        checked = await check_all(ws, paths)
    else:
        check_globs(paths)
        await ws.refresh_open_documents(catch_up=True)
        compared = await changes_since(ws, baseline, lambda p: selected(ws.display(p), paths))
        checked = Checked(len(compared.after), compared.after, -1)
        changes = compared.changes
    everything = checked.everything
    if offset > len(everything):
        raise InvalidInput(f"`offset` {offset} is past the last diagnostic ({len(everything)})")
    count = min(limit, MAX_LIMIT, len(everything) - offset)
    # The most diagnostics that fit, from each one's size (measured once per check) and
    # the rest of the answer's: one serialization per page, not one per halving.
    room = BUDGET_CHARS - size(_result(checked, everything, offset, 0, changes))
    fitting = 0
    for item in checked.sizes[offset : offset + count]:
        room -= item + 1  # and its comma
        if room < 0:
            break
        fitting += 1
    count = max(1, fitting)  # at least one, to make progress
    answer = _result(checked, everything, offset, count, changes)
    while count > 1 and not fits(answer):  # the estimate was short: rarely more than once
        count = max(1, count * 9 // 10)
        answer = _result(checked, everything, offset, count, changes)
    return answer


def _result(
    checked: Checked,
    everything: list[FileDiagnostic],
    offset: int,
    count: int | None,
    changes: Changes | None = None,
) -> WorkspaceDiagnosticsResult:
    counts = [
        FileDiagnosticCounts(path=r.path, errors=r.errors, warnings=r.warnings)
        for r in checked.results
        if r.total
    ]
    counts.sort(key=lambda c: (-c.errors, -c.warnings, c.path))
    page = everything[offset:] if count is None else everything[offset : offset + count]
    end = offset + len(page)
    result = WorkspaceDiagnosticsResult(
        files_matched=checked.matched,
        files_checked=len(checked.results),
        errors=sum(c.errors for c in counts),
        warnings=sum(c.warnings for c in counts),
        files=counts,
        files_with_problems=len(counts),
        diagnostics=list(page),
        total=len(everything),
        offset=offset,
        truncated=end < len(everything),
        next_offset=end if end < len(everything) else None,
        changes=changes,
    )
    if count is not None:  # a page: the counts list may not crowd out the diagnostics
        while len(result.files) > 1 and not fits(result.model_copy(update={"diagnostics": []})):
            result.files = result.files[: len(result.files) * 3 // 4]
            result.truncated = True
    return result
