"""The daemon's background work for baselines: the committed state's result made after
`serve` and whenever HEAD moves, so that a baseline question finds it kept.

It starts only while no tool call is in flight and checks the work tree giving way between
files to every question (`engine/yielding.py`: paused while one is in flight, the gate shared
one step at a time; whole checks run one at a time, so a question's own check waits for it,
which then goes on unpaused, and reuses it); only the short part that holds HEAD's texts of
a dirty tree takes the gate alone. The `session` baseline's result is the disk's state at
the first check, kept for the daemon's life. Without git nothing runs here: the `session`
baseline's result is made at its first question (the files changed since lspd first read them held
at that text, `engine/committed.py`).

The whole check and the kept result's making are the caller's (the daemon binds `ops`'s:
`check_all`, and `ops/committed.committed`, the engine's with `ops`'s results).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from lspd.engine.committed import NotKept, Unsettled
from lspd.engine.kept_memory import enabled, memory_of
from lspd.engine.revisions import revision
from lspd.workspace import Workspace

__all__ = ["enabled", "keep_committed"]

log = logging.getLogger(__name__)

INTERVAL_S = 5.0  # how often HEAD is looked at (a `git rev-parse`: ~5 ms)
RETRY_S = 60.0  # after a failed attempt (a server not answering, a git error)
Busy = Callable[[], bool]  # whether a question is being answered now


async def keep_committed(
    ws: Workspace,
    busy: Busy,
    check: Callable[[Busy], Awaitable[object]],
    keep: Callable[[str], Awaitable[object]],
) -> None:
    """Keep the committed state's result for HEAD while the daemon runs, and the session's
    (the disk's state at the first check: `--baseline session`, standing while HEAD moves);
    `busy` says a question is being answered (then it waits). `check(busy)`
    checks the gate's files giving way while `busy()`; `keep(commit)` makes that commit's
    kept result (`engine/committed.committed`, raising NotKept) from the check it left."""
    unkept: tuple[str, int] | None = None  # HEAD and the changes seen when it could not be
    while True:
        await asyncio.sleep(INTERVAL_S)
        if busy() or ws.changes_seen is None or _asleep(ws):  # no watcher yet: nothing kept
            continue
        head = await asyncio.to_thread(revision, ws, "HEAD")
        state = memory_of(ws).state
        if head is None or (state is not None and state.key.commit == head):
            continue  # no git, or kept for this commit (a changed configuration: when asked)
        if unkept == (head, ws.changes_seen):
            continue  # a file did not answer: asked again once something changes
        try:
            await check(busy)  # the long part: it gives way to every question
            async with ws.gate.exclusive():  # quick on a clean tree: that check is HEAD's
                if memory_of(ws).session is None:  # the session's start: the disk's state
                    await keep("session")  # as the first check has it, whatever HEAD does
                await keep(head)
        except asyncio.CancelledError:
            raise
        except Unsettled as exc:  # edits under it: again at the next tick, once they settle
            log.info("HEAD's result was not kept (%s): again shortly", exc)
        except NotKept as exc:
            log.info("HEAD's result cannot be kept now (%s): again after the next change", exc)
            unkept = (head, ws.changes_seen)
        except Exception:
            log.exception("keeping the committed state's result failed: tried again later")
            await asyncio.sleep(RETRY_S)


def _asleep(ws: Workspace) -> bool:
    """Every server was stopped after its idle time, the language servers and the projects'
    dmypy (a workspace gated by mypy alone has no other): keeping a result now would start
    them all again for nobody (HEAD moved by a pull in a workspace no one asks about); the
    next question starts them, and HEAD's result is kept after it."""
    stopped = [s.state == "stopped" for s in ws.pool.regular()]
    stopped += [d.pid is None and not d.busy for d in ws.pool.mypy.values()]
    return bool(stopped) and all(stopped)
