"""The committed state's result (`engine/committed.py`) made of `ops`'s results: the work
tree's whole check (`Checked`, `check_all`), and the servers' results of texts never
written as `DiagnosticsResult`s (`ops/overlaid_state.HeldAnswers`), which the engine keeps
as its own records (`engine/seen.py`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from lspd.engine import committed as engine
from lspd.engine.committed import Attempts, Committed
from lspd.engine.named import Named
from lspd.ops.check_memory import memory_of
from lspd.ops.checked import Checked
from lspd.ops.overlaid_state import HeldAnswers
from lspd.workspace import Workspace

Whole = Callable[[], Awaitable[Checked]]  # the work tree's whole check of the gate (`check_all`)


async def committed(
    ws: Workspace,
    baseline: str,
    whole: Whole,
    attempts: Attempts | None = None,
    known: Named | None = None,
) -> Committed[Checked]:
    """The kept result of `baseline` (a commit, or `session`: `engine/committed.committed`),
    the work tree checked by `whole` (again while files change, as `attempts` allows);
    `known`: what the question found `baseline` names. The caller holds the gate
    exclusively."""
    held, checks = HeldAnswers(ws), memory_of(ws)
    return await engine.committed(ws, baseline, whole, held, checks, attempts, known)
