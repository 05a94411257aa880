"""The hook's check before HEAD's result is kept (`daemon/feedback.py` over
`ops/progressive_kept.py`): on a real git repository of 300 generated modules, basedpyright
and a watched workspace, the first edit's hook answers within its budget while the whole
check that makes HEAD's result runs, says how far it is, and the next hook tells what the
edit introduced; HEAD's result is made once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lspd.cli.hook import edit_output
from lspd.daemon.feedback import Feedback
from lspd.engine.kept_memory import memory_of
from tests.conftest import Warm, copy_fixture, warm_root
from tests.engine.test_keeping import GENERATED, generated
from tests.ops.test_baseline import committed

GATE_FILES = GENERATED + 7  # pkg/gen/__init__.py and the fixture's 6 files
Request = dict[str, Any]  # a hook's request to the daemon


async def checking(feedback: Feedback, request: dict[str, Any]) -> dict[str, Any]:
    """The hook's answer once the whole check has begun (it runs for a while)."""
    while True:
        answer = await feedback.answer({**request, "wait": 0.2})
        if answer.get("checking") is not None or answer["complete"]:
            return answer


def first_edit(tmp_path: Path) -> Iterator[tuple[Warm, Feedback, Request, dict[str, Any]]]:
    """The 300 modules committed in git, watched, no result kept; a module edited (an
    error), and its hook's answer once the whole check has begun."""
    root = copy_fixture("py", tmp_path)
    generated(root)
    for warm in warm_root(committed(root), tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        edited = root / "pkg/gen/mod_10.py"
        edited.write_text(edited.read_text() + '\nwrong: int = "x"\n')
        request: Request = {"event": "edit", "session": "s", "paths": ["pkg/gen/mod_10.py"]}
        yield warm, feedback, request, warm.run(checking(feedback, request))


def test_the_first_hook_tells_the_whole_checks_progress_then_what_it_found(
    tmp_path: Path,
) -> None:
    for warm, feedback, request, answer in first_edit(tmp_path):
        assert answer["complete"] is False and memory_of(warm.ws).state is None
        progress = answer["checking"]
        assert isinstance(progress, dict) and progress["total"] == GATE_FILES
        assert 0 <= progress["done"] < GATE_FILES
        assert answer["remaining_count"] == GATE_FILES - progress["done"]
        # What a session reads once its servers are through loading (this one was told they
        # load, once, and is told the unfinished check since).
        warm_answer = {k: v for k, v in answer.items() if k != "loading"}
        note = edit_output("codex", warm_answer, 3.0)
        assert note is not None
        assert note["hookSpecificOutput"]["additionalContext"] == (
            f"lspd: still checking this edit after 3 s (the gate's files: {progress['done']} "
            f"of {GATE_FILES} checked): what it introduced follows at your next edit; run "
            "`lspd check --baseline HEAD` before you finish."
        )
        task = feedback.sessions["s"].task
        assert task is not None
        warm.run(asyncio.wait_for(asyncio.shield(task), 600))
        memory = memory_of(warm.ws)
        assert memory.made == 1 and memory.state is not None
        later = warm.run(feedback.answer({**request, "wait": 60.0}))
        assert later["complete"] is True
        told = [(d["path"], d["line"], d["code"]) for d in later["late"] + later["introduced"]]
        assert told == [("pkg/gen/mod_10.py", 19, "reportAssignmentType")]
        assert memory.made == 1  # HEAD checked once
        warm.run(feedback.close())


def test_a_hooks_budget_runs_from_when_it_was_sent(tmp_path: Path) -> None:
    """A cold daemon's first hook waited for its app's build (the MCP SDK imported) and then
    its whole budget again: trio's first edit hook answered in 4.3-7.1 s of its 3. Its
    `sent` (the hook's wall clock) counts: a hook whose budget ended on its way is answered
    at once (not complete), and the background hook tells the error."""
    root = committed(copy_fixture("py", tmp_path))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        edited = root / "pkg/extra.py"
        edited.write_text(edited.read_text() + 'wrong: int = "x"\n')
        request: Request = {"event": "edit", "session": "s", "paths": ["pkg/extra.py"]}
        spent = {**request, "wait": 60.0, "sent": time.time() - 60.0}
        began = time.monotonic()
        answer = warm.run(feedback.answer(spent))
        assert answer["complete"] is False and answer["introduced"] == []
        assert time.monotonic() - began < 60.0
        late = {**request, "event": "late", "wait": 120.0, "first": 3.0, "sent": time.time()}
        told = warm.run(feedback.answer(late))
        assert [(d["path"], d["code"]) for d in told["introduced"]] == [
            ("pkg/extra.py", "reportAssignmentType")
        ]
        warm.run(feedback.close())
