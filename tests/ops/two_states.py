"""The two-state comparison lspd answered baselines with before issue 40, kept here as the
tests' reference: the changed files and the files naming what changed (`engine/dependents`)
checked with the old texts held, then the new, and the first state again when they differ
(`ops/changes.diagnose_both`). lspd itself answers from the kept result and the engine now;
the tests compare the two on real servers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from lspd.engine.dependents import Texts, ranked
from lspd.engine.revisions import differences
from lspd.ops.changes import compare, diagnose_both
from lspd.ops.models import Changes
from lspd.ops.unwritten import set_aside, unwritten
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope

MAX_DEPENDENTS = 200  # files naming what changed, checked beside the changed ones


async def changes_since(
    ws: Workspace,
    baseline: str,
    keep: Callable[[Path], bool] = lambda _: True,
    within: Callable[[Path], bool] | None = None,
) -> Changes:
    """What changed since `baseline` in the changed files `keep` accepts and the files
    naming what changed; with `within`, only in the files it accepts."""
    delta = await asyncio.to_thread(differences, ws, baseline)
    inside = within or (lambda _: True)
    before = {p: t for p, t in delta.before.items() if keep(p) and inside(p)}
    after = {p: t for p, t in delta.after.items() if keep(p) and inside(p)}
    return await compare_states(ws, baseline, before, after, within=within)


async def in_gate(ws: Workspace, baseline: str = "HEAD") -> Changes:
    """`changes_since` in the gate's files (what `check --baseline` compared)."""
    gate = frozenset((await gate_scope(ws)).files)
    return await changes_since(ws, baseline, within=gate.__contains__)


async def compare_states(
    ws: Workspace,
    baseline: str,
    before: Texts,
    after: Texts,
    importers: bool = True,
    within: Callable[[Path], bool] | None = None,
) -> Changes:
    """`before` held against `after` held, in the changed files and those naming what
    changed (with `importers`, importing a changed module too)."""
    changed = sorted(set(before) | set(after))
    found = await asyncio.to_thread(ranked, ws, before, after, importers)
    depending = [r.path for r in found[:MAX_DEPENDENTS]]
    if within is not None:
        depending = [p for p in depending if within(p)]
    files = sorted({*changed, *depending})
    first = "before" if all(read_text(p) == t for p, t in before.items()) else "after"
    both = await diagnose_both(ws, files, before, after, first)
    shown = [ws.display(p) for p in changed]
    changes = compare(both.before.found, both.after.found, baseline, shown, "", both.again)

    def line_of(path: Path, line: int) -> str:
        text = after[path] if path in after else read_text(path)
        lines = (text or "").splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""

    seen = [f.diagnostic for f in both.after.found]
    new = unwritten(after)
    kept = set_aside(changes, both.after.results, seen, new, ws.resolve, line_of, ws.display)
    return kept.changes
