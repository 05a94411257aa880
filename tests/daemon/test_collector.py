"""The daemon's garbage collector: a slow full collection freezes its survivors, a cycle
among them that became garbage is freed by the sweep once the daemon is idle. Each case in
a Python process of its own (`install` is process-wide: it would freeze pytest's objects)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = """
import asyncio, gc, weakref
from lspd.daemon import collector

collector.install(slow_s=0.0)  # every full collection is "slow" here
class Node: pass
a, b = Node(), Node()
a.other, b.other = b, a  # a reference cycle, used now
freed = []
weakref.finalize(a, freed.append, "a")
gc.collect()
print("frozen", gc.get_freeze_count() > 0)
del a, b  # now garbage: only a collection of frozen objects finds it
gc.collect()
print("after a collection", freed)
"""


def _run(script: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_slow_full_collection_freezes_and_the_sweep_frees_a_frozen_cycle() -> None:
    script = SCRIPT + "collector.sweep()\nprint('after the sweep', freed)\n"
    assert _run(script) == ["frozen True", "after a collection []", "after the sweep ['a']"]


def test_the_sweep_waits_for_two_idle_looks_and_never_runs_while_busy() -> None:
    script = (
        SCRIPT
        + """
busy = [True]
async def main():
    task = asyncio.create_task(collector.sweep_when_idle(lambda: busy[0], every=0.01))
    for _ in range(5):  # busy at every look: no sweep
        await asyncio.sleep(0.01)
    print("while busy", freed)
    busy[0] = False
    while not freed:
        await asyncio.sleep(0.01)
    print("once idle", freed, collector._State.frozen)
    task.cancel()
asyncio.run(main())
"""
    )
    assert _run(script)[2:] == ["while busy []", "once idle ['a'] False"]
