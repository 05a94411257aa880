"""The status page's snapshot (`daemon/snapshot.py`) of a hook's check: on a real git
repository of 300 generated modules, basedpyright and a watched workspace, while the whole
check that makes HEAD's result runs for the first edit's hook, the hook's row says that
check's files done of the gate's, as the check's own row and the hook's answer say them
(it said 0 of 0 until the check ended)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lspd.daemon.live import Live
from lspd.daemon.snapshot import snapshot
from tests.daemon.test_feedback import GATE_FILES, first_edit


def test_a_running_hooks_check_shows_the_whole_checks_files(tmp_path: Path) -> None:
    for warm, feedback, _, answer in first_edit(tmp_path):
        assert answer["complete"] is False and answer["checking"] is not None
        # Read while the loop waits (the check paused where the answer left it).
        rows = {c.kind: c for c in snapshot(warm.ws, Live(warm.ws), feedback, False).checks}
        hook, whole = rows["hook s"], rows["check"]
        assert (hook.done, hook.total) == (whole.done, whole.total)
        assert hook.total == GATE_FILES and 0 <= hook.done < GATE_FILES
        assert hook.baseline == "HEAD"
        task = feedback.sessions["s"].task
        assert task is not None
        warm.run(asyncio.wait_for(asyncio.shield(task), 600))
        # Ended: no row of either.
        assert snapshot(warm.ws, Live(warm.ws), feedback, False).checks == []
        warm.run(feedback.close())
