"""The whole-workspace check: every error and warning of the files the project's gate
checks (`workspace.scope`: its pyright and tsconfig configurations; every source file with
`all`, or the files matching `paths`), complete.

`lspd check` prints all of it; the MCP `workspace_diagnostics` tool pages it (`offset` in,
`next_offset` out) and never drops a file or a diagnostic without saying so. A daemon keeps
the last complete check while no file changes (its watcher counts changes), so paging
through it costs one check, not one per page.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lspd.errors import InvalidInput, ServerCrashed, ServerTimeout
from lspd.ops.affected import python_unaffected, typescript_checked
from lspd.ops.baseline import changes_since, check_baseline
from lspd.ops.budget import check_paging, compact_json, fits, page
from lspd.ops.check_scope import scope_lines
from lspd.ops.checks import check_globs
from lspd.ops.file_diagnostics import Known, check_file, selected
from lspd.ops.models import (
    Changes,
    DiagnosticsResult,
    FileDiagnostic,
    FileDiagnosticCounts,
    SkippedFile,
    WorkspaceDiagnosticsResult,
)
from lspd.ops.native_check import native_checked
from lspd.ops.tsconfig import config_results
from lspd.workspace import Workspace
from lspd.workspace.scope import GateScope, gate_scope

log = logging.getLogger(__name__)

CONCURRENCY = 4  # files asked about at once: more only queues at a single-threaded server
# In a daemon, the files a check opened stay open (up to this many): see `check_all`. Each
# open document costs every later question a stat (255: 0.6 ms), so not without end.
KEEP_OPEN = 1000
MAX_LIMIT = 1000  # diagnostics per page; the answer budget may stop a page sooner
PER_FILE = 100_000  # diagnostics of one file kept (all, in practice)

Progress = Callable[[int, int], None]  # (files checked, files matched)


@dataclass
class Running:
    """How far the check running in a workspace is (`lspd check` shows it through a daemon)."""

    done: int
    total: int
    began: float  # time.monotonic()


_running: weakref.WeakKeyDictionary[Workspace, Running] = weakref.WeakKeyDictionary()


def running(ws: Workspace) -> Running | None:
    """The check running in `ws` now (the latest one begun), or None."""
    return _running.get(ws)


@dataclass
class Stamp:
    """One file's diagnostics with its path set, and their JSON text once asked for."""

    result: DiagnosticsResult
    made: list[FileDiagnostic]
    texts: list[str] | None = None


Stamped = dict[str, Stamp]  # by path, shared by the checks of a workspace


@dataclass
class Checked:
    """A complete check: every matched file's diagnostics, in path order."""

    matched: int
    results: list[DiagnosticsResult]
    changes: int  # the workspace's change count it was made at
    stamped: Stamped = field(default_factory=dict)  # shared by the checks of a workspace
    asked: list[Path] = field(default_factory=list)  # the files a server checked for it
    scope: GateScope | None = None  # the gate's files (no paths, not `all`)
    skipped: list[SkippedFile] = field(default_factory=list)  # matched, left out

    @functools.cached_property
    def everything(self) -> list[FileDiagnostic]:
        """Every diagnostic with its file, errors first: made once, however many pages."""
        found = [d for r in self.results for d in self._stamp(r).made]
        found.sort(key=lambda d: (d.severity != "error", d.path or "", d.line, d.column))
        return found

    def _stamp(self, result: DiagnosticsResult) -> Stamp:
        """The file's diagnostics with its path, made again only for a result not seen."""
        last = self.stamped.get(result.path)
        if last is None or last.result is not result:
            made = [d.model_copy(update={"path": result.path}) for d in result.diagnostics]
            last = self.stamped[result.path] = Stamp(result, made)
        return last

    def texts(self) -> list[str]:
        """Each diagnostic of `everything` as compact JSON, made once per file result: the
        whole check of a large project is tens of MB, most of it unchanged since the last."""
        text_of: dict[int, str] = {}
        for result in self.results:
            stamp = self._stamp(result)
            if stamp.texts is None:
                stamp.texts = [compact_json(d) for d in stamp.made]
            text_of.update(zip(map(id, stamp.made), stamp.texts, strict=True))
        return [text_of[id(d)] for d in self.everything]

    def json_text(self) -> str:
        """`summary` as compact JSON text (`lspd check` through the daemon)."""
        head = compact_json(summary(self).model_copy(update={"diagnostics": []}))
        assert head.endswith("}") and '"diagnostics"' not in head
        listed = ",".join(self.texts())
        return f'{head[:-1]}{"," if head != "{}" else ""}"diagnostics":[{listed}]}}'

    @functools.cached_property
    def sizes(self) -> list[int]:
        """The characters each diagnostic adds to an answer."""
        return [len(text) for text in self.texts()]


# The last complete check per workspace and globs.
_last: weakref.WeakKeyDictionary[Workspace, dict[tuple[tuple[str, ...], bool], Checked]] = (
    weakref.WeakKeyDictionary()
)


@dataclass
class _Made:
    """What the checks of a workspace made of each file, kept to be reused while the server
    answers a file's diagnostics "unchanged": converting 84,000 diagnostics again took
    longer than basedpyright's answers (SQLAlchemy in "recommended" mode)."""

    known: Known = field(default_factory=dict)
    stamped: Stamped = field(default_factory=dict)

    def keep_only(self, paths: set[Path], shown: set[str]) -> None:
        """Forget the files a whole-workspace check no longer has (deleted, ignored)."""
        self.known = {p: v for p, v in self.known.items() if p in paths}
        self.stamped = {p: v for p, v in self.stamped.items() if p in shown}


_made: weakref.WeakKeyDictionary[Workspace, _Made] = weakref.WeakKeyDictionary()


async def check_all(
    ws: Workspace,
    paths: list[str] | None = None,
    progress: Progress | None = None,
    all: bool = False,
) -> Checked:
    """Diagnostics of the files the project's gate checks (`workspace.scope`), or of every
    source file under the root (`all`), or of those matching `paths` globs.

    Fresh: after the catch-up, so every change made before the call is in. Reused while no
    file under the root has changed since.

    TypeScript projects are checked by their own TypeScript's builder (`ops/affected.py`):
    after an edit it re-checks what the edit can affect, as `tsc --watch` does, and nothing
    is opened in tsserver for it (tsserver with every file open took 2.7 GB where
    `tsc --watch` takes 1.9).

    Where a watcher keeps open documents in step with the disk (a daemon), the files the
    check opened on a pull server stay open, up to `KEEP_OPEN`, so the next check after an
    edit costs what the edit affects: the server re-checks only the files it affects and
    answers "unchanged" for the rest (`Inbox.pull`), whose results from last time are reused
    (`check_file`'s `known`). SQLAlchemy's 255 files, 84,000 diagnostics, unchanged:
    2.3 s closed and opened again (basedpyright parses and checks a reopened file anew, and
    sends every diagnostic again), 0.15 s kept open. The daemon closes documents nobody
    asked about for a while (`workspace.memory`). Without a watcher nothing would keep them
    in step, so they are closed again.
    """
    check_globs(paths)
    await ws.refresh_open_documents(catch_up=True)
    key = (tuple(paths or ()), all and not paths)
    changes = ws.changes_seen
    cached = _last.get(ws, {}).get(key)
    if cached is not None and changes is not None and cached.changes == changes:
        return cached
    scope = None
    if paths or all:
        matched = sorted(
            p for p in ws.projects.source_files(limit=10_000_000) if selected(ws.display(p), paths)
        )
    else:
        scope = await gate_scope(ws)
        matched = list(scope.files)
    skipped, matched = _left_out(ws, matched)  # too large, or set aside
    gate = asyncio.Semaphore(CONCURRENCY)
    done = 0
    keep = changes is not None and len(matched) <= KEEP_OPEN
    made = _made.setdefault(ws, _Made()) if changes is not None else _Made()
    if changes is not None and not paths:
        made.keep_only(set(matched), {ws.display(p) for p in matched})

    def built(count: int) -> None:
        state.done = count
        if progress is not None:
            progress(count, len(matched))

    began, before = time.monotonic(), {id(r) for _, r in made.known.values()}
    state = _running[ws] = Running(0, len(matched), began)  # for GET /check/progress
    built(0)
    # TypeScript projects: their own builder, re-checking what the edits affect (`affected`).
    answered, rebuilt, rest = await typescript_checked(ws, matched, made.known, built)
    # Python: only the edited files, when no declaration another file sees changed.
    reused, rest = python_unaffected(ws, matched, rest, made.known, changes)
    answered += reused
    # TypeScript 7: nothing opened, only what the edits reach asked again (`native_check`).
    native, asked, rest = await native_checked(ws, rest, made.known, changes)
    answered, rebuilt = answered + native, rebuilt + asked
    done = len(matched) - len(rest)

    async def one(target: Path) -> DiagnosticsResult | None:
        nonlocal done
        async with gate:
            was_open = ws.holds(target)
            # Kept open where the server then answers "unchanged" for what an edit did not
            # affect (pull); tsserver answers everything anew, so its files are closed again.
            handler = ws.handler(target)
            kept = keep and handler is not None and handler.diagnostics != "tsserver"
            shown = ws.display(target)
            try:
                known = made.known if kept else None  # closed files answer anew
                return await check_file(ws, shown, None, PER_FILE, False, known)
            except InvalidInput:
                return None  # not a readable source file (binary, not UTF-8, a link leading out)
            except (ServerTimeout, ServerCrashed) as exc:  # the rest is answered all the same
                skipped.append(SkippedFile(path=shown, reason=str(exc)))
                return None
            finally:
                if not (was_open or kept):
                    ws.close_document(target)
                done += 1
                state.done = done
                if progress is not None:
                    progress(done, len(matched))

    results = answered + [r for r in await asyncio.gather(*(one(t) for t in rest)) if r is not None]
    order = {ws.display(p): i for i, p in enumerate(matched)}
    results.sort(key=lambda r: order.get(r.path, -1))
    # TypeScript 7's LSP never reports its tsconfig's errors, which stop its `tsc`.
    results += [r for r in await config_results(ws) if selected(r.path, paths)]
    if _running.get(ws) is state:
        del _running[ws]
    anew = sum(id(r) not in before for r in results)
    log.info(
        "checked %d files in %.2f s, %d answered anew", len(results), time.monotonic() - began, anew
    )
    timed_out = any(s.reason.startswith("language server") for s in skipped)
    for skip in skipped:  # a timeout that got its server restarted: the file is set aside
        skip.reason = ws.left_out.set_aside(ws.resolve(skip.path)) or skip.reason
    skipped.sort(key=lambda s: s.path)
    checked = Checked(
        len(matched) + len(skipped),
        results,
        changes if changes is not None else -1,
        made.stamped,
        scope=scope,
        skipped=skipped,
    )
    checked.asked = sorted(rebuilt + rest)
    if changes is not None and not timed_out:  # a file timed out: ask it again next time
        _last.setdefault(ws, {})[key] = checked
    return checked


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


def summary(checked: Checked) -> WorkspaceDiagnosticsResult:
    """The whole check as one result: every file's counts and every diagnostic."""
    return _result(checked, checked.everything, 0, None)


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
    limit never returns fewer diagnostics. With `baseline`, only the files changed since it
    (matching `paths`) and the files naming what changed are checked, `changes` says which
    diagnostics the change introduced and fixed, and the counts are those it introduced.
    """
    check_paging(offset, limit)
    check_baseline(baseline)
    if baseline is not None:
        check_globs(paths)
        await ws.refresh_open_documents(catch_up=True)
        compared = await changes_since(ws, baseline, lambda p: selected(ws.display(p), paths))
        return _introduced(len(compared.after), compared.changes)
    checked = await check_all(ws, paths, all=all)
    everything = checked.everything
    return page(
        len(everything),
        offset,
        limit,
        lambda w: _result(checked, everything, w.offset, w.count),
        MAX_LIMIT,
        sizes=checked.sizes,  # measured once per check, not once per page
    )


def _introduced(compared: int, changes: Changes) -> WorkspaceDiagnosticsResult:
    """With a baseline the answer is about what is new: its counts, per file too, are the
    introduced diagnostics' (so is `lspd check`'s exit code), listed in `changes`."""
    by_path: dict[str, list[FileDiagnostic]] = {}
    for d in changes.introduced:
        by_path.setdefault(d.path or "", []).append(d)
    counts = [
        FileDiagnosticCounts(
            path=path,
            errors=sum(d.severity == "error" for d in found),
            warnings=sum(d.severity == "warning" for d in found),
        )
        for path, found in by_path.items()
    ]
    counts.sort(key=lambda c: (-c.errors, -c.warnings, c.path))
    return WorkspaceDiagnosticsResult(
        files_matched=compared,
        files_checked=compared,
        errors=sum(c.errors for c in counts),
        warnings=sum(c.warnings for c in counts),
        files=counts,
        files_with_problems=len(counts),
        total=len(changes.introduced),
        changes=changes,
    )


def _result(
    checked: Checked,
    everything: list[FileDiagnostic],
    offset: int,
    count: int | None,
) -> WorkspaceDiagnosticsResult:
    counts = [
        FileDiagnosticCounts(path=r.path, errors=r.errors, warnings=r.warnings)
        for r in checked.results
        if r.total
    ]
    counts.sort(key=lambda c: (-c.errors, -c.warnings, c.path))
    shown = everything[offset:] if count is None else everything[offset : offset + count]
    end = offset + len(shown)
    result = WorkspaceDiagnosticsResult(
        files_matched=checked.matched,
        files_checked=len(checked.results),
        errors=sum(c.errors for c in counts),
        warnings=sum(c.warnings for c in counts),
        files=counts,
        files_with_problems=len(counts),
        diagnostics=list(shown),
        total=len(everything),
        offset=offset,
        truncated=end < len(everything),
        next_offset=end if end < len(everything) else None,
        scope=None if checked.scope is None else scope_lines(checked.scope, count is not None),
        outside_gate=0 if checked.scope is None else checked.scope.outside,
        skipped=checked.skipped,
        environment=sorted({r.environment for r in checked.results if r.environment}),
    )
    if count is not None:  # a page: the counts list may not crowd out the diagnostics
        while len(result.files) > 1 and not fits(result.model_copy(update={"diagnostics": []})):
            result.files = result.files[: len(result.files) * 3 // 4]
            result.truncated = True
    return result
