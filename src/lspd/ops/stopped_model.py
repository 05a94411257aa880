"""What a comparison says of a checker that stopped at a syntax error in the changed state
(`engine/stops.py`): tsc and mypy then check nothing else, so the baseline's other errors
are not fixed but unknown; in the baseline, the errors now are not new but unknown there.
So are the errors of a part of the gate whose baseline state was not made (`why`)."""

from __future__ import annotations

from lspd.ops.model_base import Model


class Stopped(Model):
    """A checker stopped at syntax errors in one state (it checked nothing else), or a part
    of the gate not compared there (`why`)."""

    checker: str
    """`tsc` or `mypy`; with `why`, the part (`the Python files`)."""
    at: list[str]
    """Where: `path:line` (the first 5)."""
    files: list[str]
    """Files it did not check (the first 10)."""
    not_checked: int
    """Their diagnostics there: unknown, not fixed or new."""
    why: str | None = None
    """Why the part was not compared (null: a checker's stop)."""
