"""What a comparison says of a checker that stopped at a syntax error in the changed state
(`engine/stops.py`): tsc and mypy then check nothing else, so the baseline's other errors
are not fixed but unknown; in the baseline, the errors now are not new but unknown there.
So are the errors of a part of the gate whose baseline state was not made (`why`)."""

from __future__ import annotations

from lspd.ops.model_base import Model


class Stopped(Model):
    """A checker stopped at syntax errors in one state: it checked nothing else. Or, with
    `why`, a part of the gate whose state at the baseline was not made: not compared."""

    checker: str
    """`tsc` or `mypy`; with `why`: the part (`the Python files`, `the TypeScript files`)."""
    at: list[str]
    """Where: `path:line` (the first 5); none for a part not made."""
    files: list[str]
    """Files it did not check (the first 10)."""
    not_checked: int
    """Their diagnostics there: unknown, not fixed or new."""
    why: str | None = None
    """Why that part was not made at the baseline (its configuration edited so that lspd
    cannot check the commit's under it here); None: a checker's stop."""
