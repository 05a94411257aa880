"""Baselines: "which errors did my change introduce?" against HEAD, a revision, or the session.

A whole-workspace question compares the check with the baseline's kept result
(`lspd.ops.since_kept`); one file's question, with the file's kept result
(`lspd.ops.file_since_kept`), or before it is kept with its state at the baseline's texts
where the change can reach it (`lspd.ops.file_since_baseline`). The baseline's texts (read
with `git show`) are held by the servers as unsaved content; the work tree and the index are
never touched. `session` is the text of each file when lspd first read it (for a workspace
without git).
"""

from __future__ import annotations

from dataclasses import dataclass

from lspd.errors import InvalidInput
from lspd.ops.models import Changes, DiagnosticsResult


@dataclass(frozen=True)
class Compared:
    """A comparison: what changed, and the files compared as they are after."""

    changes: Changes
    after: list[DiagnosticsResult]


def check_baseline(baseline: object) -> None:
    """`baseline` is None, `session` or a git revision name."""
    if baseline is None:
        return
    if not isinstance(baseline, str) or not baseline.strip() or baseline.startswith("-"):
        raise InvalidInput(
            f"`baseline` {baseline!r:.80} is not a baseline; send HEAD (or another git "
            'revision such as HEAD~1), or "session" (the files as lspd first read them)'
        )
