"""What a comparison says of a checker that stopped at a syntax error in the changed state
(`engine/stops.py`): tsc and mypy then check nothing else, so the baseline's other errors
are not fixed but unknown; in the baseline, the errors now are not new but unknown there."""

from __future__ import annotations

from lspd.ops.model_base import Model


class Stopped(Model):
    """A checker stopped at syntax errors in one state: it checked nothing else."""

    checker: str
    """`tsc` or `mypy`."""
    at: list[str]
    """Where: `path:line` (the first 5)."""
    files: list[str]
    """Files it did not check (the first 10)."""
    not_checked: int
    """Their diagnostics there: unknown, not fixed or new."""
