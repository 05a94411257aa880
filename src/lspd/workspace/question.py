"""One question's run: without a watcher nothing tells lspd that the disk did not change
between two readings, so a reading made for one question (a TypeScript 7 program's listing,
the gate's scope) is made again by the next; within one question it stands (`one_question`),
as a one-shot command's disk is one state.

A one-shot `check --baseline HEAD` on mobx read the gate's scope three times (TypeScript's
tsconfig reading, a Node run: 0.75-0.84 s each at load 8) and listed the program three times
(`tsc -p --listFilesOnly`: 0.21-0.47 s each); a one-shot preview listed it three times.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterator

# When the question running began (`time.monotonic`); None outside one.
_began: contextvars.ContextVar[float | None] = contextvars.ContextVar("question", default=None)


@contextlib.contextmanager
def one_question() -> Iterator[None]:
    """Within it, a reading made since it began stands without a watcher (`began`). Only
    around a question that writes no file (a check, a comparison, a preview)."""
    token = _began.set(time.monotonic())
    try:
        yield
    finally:
        _began.reset(token)


def began() -> float | None:
    """When the running question began (`one_question`); None outside one."""
    return _began.get()
