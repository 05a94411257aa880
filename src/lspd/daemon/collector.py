"""The garbage collector without its long pauses, in a daemon holding large results.

A daemon holding SQLAlchemy's checks holds millions of objects, and CPython's full
collection walks every one each time the objects made since the last have grown by a
quarter: 0.5-0.86 s each during its first `check --baseline HEAD`, finding 0-15 objects of
garbage, and every /health slower than 0.5 s was one of them (bench/responsive.py, with a
collection log). So after a full collection slower than SLOW_S its survivors are frozen
(`gc.freeze`): later collections skip them, and reference counting still frees each one
no longer used. Only a reference cycle among frozen objects that became garbage would be
kept for good; so once the daemon has had no call in flight for a whole SWEEP_S after a
freeze (`sweep`), everything is unfrozen and collected, once, and the survivors frozen.

Process-wide: installed by the daemon's process (`daemon/run.run`), never by a daemon on
a thread of another program (a test's), whose own objects it would freeze.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

SLOW_S = 0.1  # a full collection this long freezes its survivors
SWEEP_S = 30.0  # no call in flight this long after a freeze: collect everything, once


class _State:
    began = 0.0  # the running collection's start
    frozen = False  # survivors frozen since the last sweep


def install(slow_s: float = SLOW_S) -> None:
    """Freeze the survivors of every full collection slower than `slow_s`."""

    def after(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            _State.began = time.perf_counter()
        elif info["generation"] == 2 and (took := time.perf_counter() - _State.began) > slow_s:
            gc.freeze()  # the collection is over: its lists are no longer walked
            _State.frozen = True
            log.info(
                "a full collection took %.2f s: %d objects frozen", took, gc.get_freeze_count()
            )

    gc.callbacks.append(after)


def sweep() -> None:
    """Collect everything once, frozen objects too; freeze what survives."""
    began = time.perf_counter()
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    _State.frozen = False
    log.info(
        "full collection while idle: %d objects freed, %.2f s", found, time.perf_counter() - began
    )


async def sweep_when_idle(busy: Callable[[], bool], every: float = SWEEP_S) -> None:
    """`sweep` once no call was in flight at two looks `every` seconds apart after a freeze."""
    quiet = False
    while True:
        await asyncio.sleep(every)
        if busy():
            quiet = False
        elif _State.frozen and quiet:
            sweep()
        else:
            quiet = True
