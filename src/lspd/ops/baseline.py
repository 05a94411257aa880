"""Baselines: "which errors did my change introduce?" against HEAD, a revision, or the session.

A whole-workspace question compares the check with the baseline's kept result
(`lspd.ops.since_kept`). One file's question before HEAD's result is kept (`file_changes`)
checks that file in both states: the changed files' text at the baseline (read with `git
show`) held by the servers as unsaved content, then the disk's; the work tree and the index
are never touched. `session` is the text of each file when lspd first read it (for a
workspace without git).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.dependents import Texts
from lspd.engine.revisions import differences
from lspd.errors import InvalidInput
from lspd.ops.changes import compare, diagnose_both
from lspd.ops.models import Changes, DiagnosticsResult
from lspd.workspace import Workspace


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
