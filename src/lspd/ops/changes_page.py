"""What a change introduced and fixed, a page at a time, from a comparison made once.

Deleting a module many files import introduces thousands of diagnostics: listed whole,
`changes.introduced` passed the answer budget many times over. So it is paged like every
list (`budget.page`: `limit` and `offset` in; the answer's `total`, `truncated` and
`next_offset` are about it; a larger limit never lists fewer), `fixed` is listed on the
first page as far as the budget allows (`fixed_total` counts all of it); a preview's pages
are cut from its whole answer, kept the same way.

One comparison costs a whole check (incremental, against the baseline's kept result), so
the next page must not make it again: the
last comparisons of a workspace are kept, keyed on the commit the baseline names, the
question and the watcher's change count (as `check_memory` keeps the last whole check);
without a watcher nothing is kept. The commit is asked of git once a question and passed
down to the comparison (`engine/named.py`).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from pydantic import BaseModel

from lspd.engine.named import Named, named
from lspd.engine.stops import Stop
from lspd.ops import check_memory
from lspd.ops.arguments import check_globs
from lspd.ops.baseline import Compared, check_baseline
from lspd.ops.budget import BUDGET_CHARS, MAX_LIMIT, Window, fits, fitting, item_sizes, page, size
from lspd.ops.check_models import WorkspaceDiagnosticsResult
from lspd.ops.checked import introduced
from lspd.ops.file_since_baseline import file_since
from lspd.ops.models import Changes, DiagnosticsResult, PreviewResult
from lspd.workspace import Workspace
from lspd.workspace.per_workspace import PerWorkspace
from lspd.workspace.question import one_question

FIXED_SHARE = BUDGET_CHARS // 4  # the first page's room for `fixed` before `introduced` fills it
FILES_SHARE = BUDGET_CHARS // 4  # a page's room for the counts per file
KEEP = 4  # comparisons kept per workspace (a few questions paged side by side)

M = TypeVar("M", bound=BaseModel)
Key = tuple[object, ...]


@dataclass
class Kept:
    """One comparison, as the pages are cut from it: what changed, how many files were
    compared and, of a preview, its whole answer (the counts per file)."""

    changes: Changes
    compared: int
    whole: PreviewResult | None = None

    @functools.cached_property
    def introduced_sizes(self) -> list[int]:
        """The characters each introduced diagnostic adds to a page: measured once."""
        return item_sizes(self.changes.introduced)

    @functools.cached_property
    def fixed_sizes(self) -> list[int]:
        """The characters each fixed diagnostic adds to the first page."""
        return item_sizes(self.changes.fixed)

    @functools.cached_property
    def counts(self) -> WorkspaceDiagnosticsResult:
        """The whole-workspace answer's counts of what was introduced, per file too."""
        return introduced(self.compared, self.changes)


@dataclass
class ComparisonMemory:
    """The last comparisons of one workspace, oldest first, and how many were made."""

    kept: dict[Key, Kept] = field(default_factory=dict)
    made: int = 0  # comparisons made: a page cut from a kept one makes none
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one comparison at a time


_memories = PerWorkspace(ComparisonMemory)


def memory_of(ws: Workspace) -> ComparisonMemory:
    """The comparisons' memory of `ws` (made at its first comparison, gone with it)."""
    return _memories.of(ws)


def question(ws: Workspace, asked: Named, *what: object, at: int | None = None) -> Key | None:
    """What names a comparison while no file changes: the commit the baseline names now
    (`asked`: a commit moves HEAD without changing a file), the watcher's change count (now,
    or `at`: the count its answers were made at), the files no watcher follows as they are,
    and `what` was asked; None when nothing says the files are unchanged (no watcher)."""
    changes = ws.changes_seen if at is None else at
    if changes is None:
        return None
    # a hidden folder's file (ty checks them) changes no count: told by its stamp
    return (asked.commit, changes, check_memory.memory_of(ws).unfollowed_now(), *what)


async def kept(
    ws: Workspace,
    key: Key | None,
    compare: Callable[[], Awaitable[Kept]],
    before: int | None = None,
) -> Kept:
    """The comparison `key` names, made by `compare` unless it is kept. `before`: the
    watcher's count `key` holds was read before the question caught up with the watcher
    (`compare`'s check does): a kept comparison is then taken once a catch-up finds that
    count unchanged."""
    memory = memory_of(ws)
    async with memory.lock:  # a page asked while its comparison runs waits for it
        found = None if key is None else memory.kept.get(key)
        if found is not None and before is not None:
            await ws.refresh_open_documents(catch_up=True)  # a toolchain moved counts too
            found = found if ws.changes_seen == before else None
        if found is not None:
            return found
        made = await compare()
        memory.made += 1
        if key is not None:
            memory.kept[key] = made
            while len(memory.kept) > KEEP:
                del memory.kept[next(iter(memory.kept))]
        return made


def paged(kept: Kept, offset: int, limit: int, build: Callable[[Changes, Window], M]) -> M:
    """The answer `build` makes of a page of `kept`'s introduced diagnostics (the most that
    fit the budget from `offset`, up to `limit`) and, on the first page, of its fixed ones:
    up to `FIXED_SHARE` of the budget first, then whatever room the page leaves."""
    changes = kept.changes
    listed = fitting(kept.fixed_sizes, FIXED_SHARE) if offset == 0 else 0
    built: list[tuple[M, Window]] = []

    def made(w: Window, fixed: int = listed) -> M:
        part = changes.model_copy(
            update={
                "introduced": changes.introduced[w.offset : w.end],
                "fixed": changes.fixed[:fixed],
                "fixed_total": len(changes.fixed),
            }
        )
        answer = build(part, w)
        built.append((answer, w))
        return answer

    total = len(changes.introduced)
    answer = page(total, offset, limit, made, sizes=kept.introduced_sizes)
    if offset or listed == len(changes.fixed):
        return answer
    window = next(w for a, w in built if a is answer)
    more = fitting(kept.fixed_sizes[listed:], BUDGET_CHARS - size(answer))
    fuller = made(window, listed + more) if more else answer
    return fuller if fits(fuller) else answer


def _counts_that_fit(counts: WorkspaceDiagnosticsResult) -> int:
    """How many of the per-file counts a page lists: those that fit `FILES_SHARE`."""
    return fitting(item_sizes(counts.files), FILES_SHARE)


Keep = Callable[[Path], bool]  # which files a whole-workspace question is about


class FromKept(Protocol):
    """The comparison from the baseline's kept result (`lspd.ops.since_kept`), of the files
    `Keep` accepts; `named`: what the question found the baseline names."""

    def __call__(self, keep: Keep, *, named: Named | None = None) -> Awaitable[Compared]: ...


async def workspace_page(
    ws: Workspace,
    baseline: str,
    paths: list[str] | None,
    keep: Keep,
    offset: int,
    limit: int,
    from_kept: FromKept,
    every: bool = False,
) -> WorkspaceDiagnosticsResult:
    """`workspace_diagnostics` with a baseline: a page of what the change introduced in the
    files matching `paths` (those `keep` accepts; every source file with `every`; else the
    gate's files), from the baseline's kept result (`from_kept`)."""
    comparison = await workspace_comparison(ws, baseline, paths, keep, from_kept, every)
    return workspace_cut(comparison, offset, limit)


async def workspace_comparison(
    ws: Workspace,
    baseline: str,
    paths: list[str] | None,
    keep: Keep,
    from_kept: FromKept,
    every: bool = False,
) -> Kept:
    """The comparison of the files `keep` accepts, kept while no file changes. Every change
    made before the question is in: its whole check catches up with the watcher (and a kept
    comparison is taken only once a catch-up finds none since it). The commit `baseline`
    names is asked once (`named`), and the watcher caught up once before the check: before,
    the key asked git and the watcher, then the comparison both again."""
    check_baseline(baseline)
    check_globs(paths)
    asked = await named(ws, baseline)  # no git, or no such commit: refused, saying why

    async def compare() -> Kept:
        with one_question():  # without a watcher, the scope and programs are read once
            compared = await from_kept(keep, named=asked)
        return Kept(compared.changes, len(compared.after))

    before = ws.changes_seen  # not caught up yet: a kept comparison is taken once it is
    key = question(ws, asked, "workspace", tuple(paths or ()), every and not paths, at=before)
    return await kept(ws, key, compare, before)


def every_page(comparison: Kept) -> list[WorkspaceDiagnosticsResult]:
    """Every page of one comparison (`lspd check --baseline` without a daemon)."""
    pages = [workspace_cut(comparison, 0, MAX_LIMIT)]
    while (at := pages[-1].next_offset) is not None:
        pages.append(workspace_cut(comparison, at, MAX_LIMIT))
    return pages


def workspace_cut(kept: Kept, offset: int, limit: int) -> WorkspaceDiagnosticsResult:
    """One page of a kept workspace comparison: the counts complete, the per-file counts
    as many as fit `FILES_SHARE` (`truncated` when fewer), the introduced ones paged, the
    fixed ones on the first page as far as they fit (`truncated` when fewer, as a
    preview's: before, a first page whose introduced all fit was not, its `fixed` cut)."""
    counts = kept.counts
    files = counts.files[: _counts_that_fit(counts)]

    def build(changes: Changes, w: Window) -> WorkspaceDiagnosticsResult:
        cut = len(files) < len(counts.files) or _fixed_cut(changes, w)
        return counts.model_copy(
            update={
                "changes": changes,
                "files": files,
                "offset": w.offset,
                "truncated": w.truncated or cut,
                "next_offset": w.next_offset,
            }
        )

    return paged(kept, offset, limit, build)


async def file_page(
    ws: Workspace,
    path: Path,
    result: DiagnosticsResult,
    content: str | None,
    baseline: str,
    offset: int,
    limit: int,
    at: int | None = None,
    stops: Sequence[Stop] = (),
) -> DiagnosticsResult:
    """`diagnostics` with a baseline: `result` (the file now) as a page of what the change
    introduced in it; its counts are the introduced diagnostics' (the exit code follows
    them). The caller has caught up (`at`: the watcher's count `result` was made at). With
    HEAD's (or the session's) result kept, `result` (all of the file's diagnostics) is
    compared with the file's kept result, else with its state at the baseline's texts where
    the change can reach it (`lspd.ops.file_since_baseline`). `stops`: the checkers that
    stopped at a syntax error in `result`'s state (its baseline errors are not checked)."""

    asked = await named(ws, baseline)  # once: passed down to the comparison

    async def compare() -> Kept:
        return Kept(await file_since(ws, path, result, content, asked, stops), 1)

    key = question(ws, asked, "file", path, content, at=at)
    return introduced_page(result, await kept(ws, key, compare), offset, limit)


def introduced_page(
    result: DiagnosticsResult, comparison: Kept, offset: int, limit: int
) -> DiagnosticsResult:
    """`result` (a file now) as a page of what `comparison` says was introduced in it: its
    counts the introduced diagnostics' (the exit code follows them), its own list empty."""
    listed = comparison.changes.introduced

    def build(changes: Changes, w: Window) -> DiagnosticsResult:
        return result.model_copy(
            update={
                "errors": sum(d.severity == "error" for d in listed),
                "warnings": sum(d.severity == "warning" for d in listed),
                "diagnostics": [],
                "total": w.total,
                "truncated": w.truncated or _fixed_cut(changes, w),
                "next_offset": w.next_offset,
                "changes": changes,
            }
        )

    return paged(comparison, offset, limit, build)


def _fixed_cut(changes: Changes, w: Window) -> bool:
    """Whether the first page lists fewer fixed diagnostics than there are (the others:
    `fixed_total`; narrower `paths`, or a file's diagnostics, list them)."""
    return w.offset == 0 and len(changes.fixed) < changes.fixed_total


def preview_cut(kept: Kept, offset: int, limit: int) -> PreviewResult:
    """A page of a kept preview: the counts complete, the per-file counts as many as fit
    `FILES_SHARE`, the introduced diagnostics paged, the fixed ones on the first page as far
    as they fit; `truncated` when a list holds fewer than all (`files_total`, `next_offset`
    and `changes.fixed_total` say how many)."""
    whole = kept.whole
    assert whole is not None, "a preview's comparison keeps its whole answer"
    files = whole.files[: fitting(item_sizes(whole.files), FILES_SHARE)]

    def build(changes: Changes, w: Window) -> PreviewResult:
        fixed_cut = offset == 0 and len(changes.fixed) < len(whole.changes.fixed)
        return whole.model_copy(
            update={
                "changes": changes,
                "files": files,
                "total": w.total,
                "truncated": w.truncated or len(files) < len(whole.files) or fixed_cut,
                "files_total": len(whole.files),
                "next_offset": w.next_offset,
            }
        )

    return paged(kept, offset, limit, build)
