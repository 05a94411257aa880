"""Baselines: "which errors did my change introduce?" against HEAD, a revision, or the session.

`HEAD` (or any git revision) is the committed text, read with `git show` and held by the
servers as unsaved content: the work tree and the index are never touched. `session` is the
text of each file when lspd first read it (for a workspace without git). Only the changed
files and the files naming what changed are compared (see `lspd.ops.changes`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.dependents import Texts, dependents
from lspd.engine.revisions import differences
from lspd.errors import InvalidInput
from lspd.ops.changes import compare, diagnose_both, scope_note
from lspd.ops.models import Changes, DiagnosticsResult
from lspd.ops.unwritten import set_aside, unwritten
from lspd.workspace import Workspace
from lspd.workspace.files import read_text


@dataclass(frozen=True)
class Compared:
    """A comparison: what changed, and the files compared as they are after."""

    changes: Changes
    after: list[DiagnosticsResult]


def check_baseline(baseline: object) -> None:
    """`baseline` is None, `session` or a git revision name."""
    if baseline is None:
        return
    if not isinstance(baseline, str) or not baseline.strip() or baseline.startswith("-"):
        raise InvalidInput(
            f"`baseline` {baseline!r:.80} is not a baseline; send HEAD (or another git "
            'revision such as HEAD~1), or "session" (the files as lspd first read them)'
        )


async def changes_since(
    ws: Workspace,
    baseline: str,
    keep: Callable[[Path], bool] = lambda _: True,
    within: Callable[[Path], bool] | None = None,
) -> Compared:
    """What changed since `baseline` in the files that differ from it (those `keep`
    accepts), and in the files naming what changed; with `within`, only in the files it
    accepts (the gate's)."""
    delta = await asyncio.to_thread(differences, ws, baseline)
    inside = within or (lambda _: True)
    before = {p: t for p, t in delta.before.items() if keep(p) and inside(p)}
    after = {p: t for p, t in delta.after.items() if keep(p) and inside(p)}
    return await compare_states(ws, baseline, before, after, within=within)


async def compare_states(
    ws: Workspace,
    baseline: str,
    before: Texts,
    after: Texts,
    importers: bool = True,
    within: Callable[[Path], bool] | None = None,
) -> Compared:
    """Diagnostics with `before` held (the baseline) against those with `after` held, of
    the changed files and the files naming what changed (and, with `importers`, of those
    importing a changed module); with `within`, only the dependents it accepts. An import
    of a file `after` adds but the disk lacks is not checked through: its error is set aside
    (`lspd.ops.unwritten`)."""
    changed = sorted(set(before) | set(after))
    depending, more = await asyncio.to_thread(dependents, ws, before, after, importers)
    if within is not None:
        depending = [p for p in depending if within(p)]
    files = sorted({*changed, *depending})
    both = await diagnose_both(ws, files, before, after, _held(before, after))
    note = scope_note(len(changed), len(depending), more)
    shown = [ws.display(p) for p in changed]
    changes = compare(both.before.found, both.after.found, baseline, shown, note, both.again)

    def line_of(path: Path, line: int) -> str:
        text = after[path] if path in after else read_text(path)
        lines = (text or "").splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""

    seen = [found.diagnostic for found in both.after.found]
    new = unwritten(after)
    kept = set_aside(changes, both.after.results, seen, new, ws.resolve, line_of, ws.display)
    return Compared(kept.changes, kept.results)


async def file_changes(ws: Workspace, path: Path, content: str | None, baseline: str) -> Changes:
    """What changed in one file since `baseline`, every changed file held as it was then
    (a change elsewhere may be what broke it); `content` stands for the file's text now."""
    delta = await asyncio.to_thread(differences, ws, baseline)
    now: Texts = {} if content is None else {path: content}
    both = await diagnose_both(
        ws, [path], delta.before, now, "after" if content is None else "before"
    )
    changed = [ws.display(p) for p in sorted({*delta.before, *delta.after})]
    return compare(both.before.found, both.after.found, baseline, changed, "this file", both.again)


def _held(before: Texts, after: Texts) -> str:
    """Which of the two states is the disk's (the servers hold it already): "before" for a
    preview, "after" against a baseline."""
    return "before" if all(read_text(p) == t for p, t in before.items()) else "after"
