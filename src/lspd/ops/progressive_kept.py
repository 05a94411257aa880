"""The hook's and the stop gate's comparison from the kept result (issue 40): once HEAD's
result is kept, an edit is proved by the incremental whole check (`check_all`: what the
edit can affect, re-checked) compared with it (`lspd.ops.since_kept`), instead of checking
the edited files and what names them in two states. A leaf or body-only edit then costs
what `lspd check` costs for it.

Before the kept result is ready (the daemon makes it in the background after `serve` and
when HEAD moves), the nearest-first two-state comparison answers (`lspd.ops.progressive`).
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

from lspd.engine.committed import NotKept
from lspd.engine.kept_memory import enabled, memory_of
from lspd.engine.revisions import revision
from lspd.ops.check import check_all
from lspd.ops.committed import committed
from lspd.ops.progressive import Introduced, Progress, filled, nearest_first, stamp
from lspd.ops.since_kept import against_found
from lspd.workspace import Workspace


async def ready(ws: Workspace, baseline: str) -> bool:
    """Whether `baseline` is HEAD and its result is kept for the commit HEAD names now."""
    if baseline != "HEAD" or ws.changes_seen is None or not enabled():
        return False
    state = memory_of(ws).state
    if state is None:
        return False
    return state.key.commit == await asyncio.to_thread(revision, ws, "HEAD")


async def run(ws: Workspace, progress: Progress) -> None:
    """`progressive.run` from the kept result: `progress` filled at once at the end;
    `done` is set at the end, also when it fails or is cancelled."""
    await filled(ws, progress, from_kept)


async def from_kept(ws: Workspace, progress: Progress) -> None:
    """Fill `progress` from the whole check against the kept result: what was introduced
    in the gate's files since HEAD; the edited files among the changed ones."""
    async with ws.gate.shared():  # the check: other questions are answered meanwhile
        await check_all(ws)
    try:
        async with ws.gate.exclusive():  # quick: that check is reused, HEAD's result is kept
            found = await committed(ws, progress.baseline, functools.partial(check_all, ws))
    except NotKept:  # a file not answered: the two states, nearest first, as before
        await nearest_first(ws, progress)
        return
    compared, after = await asyncio.to_thread(
        against_found, ws, found, progress.baseline, lambda _: True
    )
    differing = {*found.delta.before, *found.delta.after}
    progress.changed = sorted(p for p in progress.edited if p in differing)
    if not progress.changed:
        return
    file_of = {r.path: ws.root / r.path for r in found.checked.results}
    made = {id(f.diagnostic): f for f in after}
    for diagnostic in compared.changes.introduced:
        file = file_of.get(diagnostic.path or "") or Path(diagnostic.path or "")
        progress.introduced.append(Introduced(diagnostic, made[id(diagnostic)].key, file))
    for path in file_of.values():  # a finding no longer found in a file is forgotten
        progress.keys[path] = set()
        progress.seen.setdefault(path, stamp(path))
    for f in after:
        progress.keys[file_of[f.diagnostic.path or ""]].add(f.key)
    progress.compared = len(compared.after)
