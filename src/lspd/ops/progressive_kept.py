"""The hook's and the stop gate's check (`daemon/feedback.py`, issue 40 item 5): an edit is
proved by the incremental whole check (`check_all`: what the edit can affect, re-checked)
compared with the baseline's kept result (`lspd.ops.since_kept`), the same path as `lspd
check --baseline`. A leaf or body-only edit then costs what `lspd check` costs for it.

Before HEAD's result is kept (the daemon makes it in the background after `serve` and when
HEAD moves), the check waits for that run and takes it over (it goes on unpaused, whole
checks running one at a time), so HEAD is checked once per commit; the hook reads its
progress meanwhile (`check_memory.running`). Before issue 40 the hook compared the edited
files and those naming what changed in two states, nearest first, until the result was kept.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from pathlib import Path

from lspd.engine.committed import Committed
from lspd.ops.beyond_gate import Part, beyond_gate
from lspd.ops.check import check_all
from lspd.ops.checked import Checked
from lspd.ops.models import Stopped
from lspd.ops.progressive import Introduced, Progress, stamp
from lspd.ops.since_kept import compared, settled
from lspd.workspace import Workspace

log = logging.getLogger(__name__)


async def run(ws: Workspace, progress: Progress) -> None:
    """Fill `progress` (`from_kept`) once every change made before is in; a failure is said
    in `progress` (the hook says the check failed, and what to run; the daemon goes on);
    `done` is set at the end, also when it fails or is cancelled."""
    try:
        async with ws.gate.shared():
            await ws.refresh_open_documents(catch_up=True)
        await from_kept(ws, progress)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # NotKept (a file not answered: "ask again") among them
        log.exception("the baseline check of %s failed", progress.edited)
        progress.failed = f"{type(exc).__name__}: {exc}"
    finally:
        progress.done.set()
        progress.batch.set()


async def from_kept(ws: Workspace, progress: Progress) -> None:
    """Fill `progress` from the whole check against the kept result (made now, the work
    tree's check reused, when it is not kept): what was introduced since the baseline in
    the gate's files, and in the edited files outside the gate as `check --baseline PATHS`
    has them (`lspd.ops.beyond_gate`: at the baseline's texts where the change reaches
    them); the edited files among the changed ones."""
    async with ws.gate.shared():  # the check: other questions are answered meanwhile
        await check_all(ws)

    async def edited_outside(found: Committed[Checked]) -> Part | None:
        gate = {r.path for r in found.checked.results}
        outside = {p for p in progress.edited if _beyond(ws, p, gate)}
        if not outside:
            return None
        wider = await check_all(ws, sorted(ws.display(p) for p in outside))
        return await beyond_gate(ws, found, outside.__contains__, wider)

    async with ws.gate.exclusive():  # that check is reused; a dirty tree's HEAD texts held
        whole = functools.partial(check_all, ws)
        found, part = await settled(ws, progress.baseline, whole, lambda _: True, edited_outside)
    differing = {*found.delta.before, *found.delta.after}
    progress.changed = sorted(p for p in progress.edited if p in differing)
    if not progress.changed:
        return
    result = compared(ws, found, progress.baseline, part)
    results = [*found.checked.results, *part.results]
    file_of = {r.path: ws.resolve(r.path) for r in results}
    made = {id(f.diagnostic): f for f in part.after}
    for diagnostic in result.changes.introduced:
        file = file_of.get(diagnostic.path or "") or Path(diagnostic.path or "")
        progress.introduced.append(Introduced(diagnostic, made[id(diagnostic)].key, file))
    for path in file_of.values():  # a finding no longer found in a file is forgotten
        progress.keys[path] = set()
        progress.seen.setdefault(path, stamp(path))
    for f in part.after:
        progress.keys[file_of[f.diagnostic.path or ""]].add(f.key)
    progress.compared = len(result.after)
    progress.stopped = [*map(stop_said, result.changes.stopped)]
    at_baseline = (  # a baseline's stop that hid nothing new changes no verdict: not said
        f"at {progress.baseline}, {stop_said(s)}"
        for s in result.changes.baseline_stopped
        if s.not_checked
    )
    progress.stopped += at_baseline


def stop_said(stop: Stopped) -> str:
    """A checker stopped at syntax errors, said in a line: it checked nothing else, so a
    check without a new error proves nothing (the stop gate and the hook say it)."""
    at = list(dict.fromkeys(stop.at))[:3]  # mypy says a line's errors one by one
    return f"{stop.checker} stopped at the syntax error at {', '.join(at)}"


def _beyond(ws: Workspace, path: Path, gate: set[str]) -> bool:
    """Whether an edited file is a source file outside the gate's check (a test the gate's
    configuration leaves out, say): the hook compares it too."""
    return ws.display(path) not in gate and ws.handler(path) is not None and path.is_file()
