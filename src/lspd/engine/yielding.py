"""How a background whole check gives way to questions (the daemon's keeping of HEAD's
result, `engine/keeping.py`): between files, not once it has begun.

Each step of a whole check (the catch-up, a builder's or a checker's step, each file asked
of its server) is a `turn`. A foreground check's turns are free. A background one's wait
while a question is in flight, then hold the gate shared for that one step only: a hover
is not queued behind the check's files at the server, and a preview or a hook holding
other texts (the gate alone) waits for the files being asked (at most `CONCURRENCY`), not
for the whole check. A question that needs a whole check itself waits for the check lock
(`CheckMemory.waiting`), holding the gate: the background run then goes on unpaused as
that question's run, under its gate, and the question reuses its result (HEAD is still
checked once per commit). A builder's step (TypeScript's `tsc --build` program, TypeScript
7's) is one request: it is one turn.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager

from lspd.workspace import Workspace

Turn = Callable[[], AbstractAsyncContextManager[None]]  # around each step of a whole check
# How often a paused background check looks whether it may go on. Looked at, not waited on:
# `busy` and `taken` are counters of other layers (tools' calls in flight, CheckMemory's
# `waiting`) with no signal, and the gate is waited for while they are watched (a question
# arriving meanwhile goes first), which a withdrawable acquisition of the gate would need.
POLL_S = 0.05


@contextlib.asynccontextmanager
async def free() -> AsyncIterator[None]:
    """A foreground check's turn: it never pauses (its caller holds what it needs)."""
    yield


def background(ws: Workspace, busy: Callable[[], bool], taken: Callable[[], bool]) -> Turn:
    """A background check's turn: paused while `busy()` (a question in flight), then the
    gate shared for the step; once `taken()` (a question waits for this very check, holding
    the gate itself: every caller of `check_all` in a daemon does) it goes on at once,
    without the gate (waiting for it then would wait for that question: a deadlock)."""

    @contextlib.asynccontextmanager
    async def turn() -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as held:
            while not taken():
                if busy():
                    await asyncio.sleep(POLL_S)
                    continue
                try:  # an overlay waiting for the gate goes first: look again meanwhile
                    async with asyncio.timeout(POLL_S):
                        await held.enter_async_context(ws.gate.shared())
                    break
                except TimeoutError:
                    continue
            yield

    return turn
