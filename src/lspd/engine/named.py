"""What a question's baseline names, resolved once at the question's start and passed down
to every step needing it (the comparison's key, the committed state's result, the file
question's listing): before, each step asked git again (`check --baseline HEAD`: the
commit resolved by the comparison's key, then by `committed`; `diagnostics FILE --baseline
HEAD`: three times, beside two listings). Made for one question, never kept: HEAD moves
between two questions."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.revisions import at_commit
from lspd.workspace import Workspace

SESSION = "session"


@dataclass(frozen=True)
class Named:
    """The commit a question's `baseline` names (`session`: itself) and its repository's
    top (None for `session`)."""

    baseline: str
    commit: str
    top: Path | None


def named_now(ws: Workspace, baseline: str) -> Named:
    """What `baseline` names now, in one git run (`revisions.at_commit`: no git, or no such
    commit here, is refused saying what to send)."""
    if baseline == SESSION:
        return Named(baseline, SESSION, None)
    commit, top = at_commit(ws, baseline)
    return Named(baseline, commit, top)


async def named(ws: Workspace, baseline: str, known: Named | None = None) -> Named:
    """`known` when the question resolved `baseline` already, else what it names now (off
    the event loop)."""
    if known is not None and known.baseline == baseline:
        return known
    return await asyncio.to_thread(named_now, ws, baseline)
