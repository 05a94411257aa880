"""The stop gate's memory of what it blocked for (`Feedback.stop`, daemon/feedback.py) when a
stop's check runs out of time: what it found so far proves nothing fixed, so a partial
answer whose errors are all among those the gate already blocked for lets the stop go, and
the errors blocked for stay remembered whole (the next complete check finding them all is
"unchanged"); a partial answer with a new error blocks. The errors are a real check's
(basedpyright, the fixture committed in git); the check running out of time is its progress
read before it ended (`Progress`: its `done` not set), holding part of them."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from lspd.cli.hook import stop_output
from lspd.daemon.feedback import Feedback
from lspd.ops.progressive import Introduced, Progress
from tests.cli.test_hook import break_the_caller
from tests.conftest import copy_fixture, warm_root
from tests.ops.test_baseline import committed

LISTS = "`lspd check --baseline HEAD` lists everything"
STOP: dict[str, Any] = {"event": "stop", "session": "s", "baseline": "HEAD", "wait": 0.0}


def running(done: Progress, found: list[Introduced]) -> Progress:
    """`done`'s check as read before it ended, having found `found` so far."""
    partial = Progress(done.baseline, done.edited)
    partial.changed, partial.seen, partial.keys = done.changed, done.seen, done.keys
    partial.introduced = found
    return partial


def blocks(answer: dict[str, Any]) -> bool:
    """Whether the stop gate blocks on `answer`."""
    out = stop_output(answer, 60.0)
    return out is not None and out.get("decision") == "block"


def test_a_partial_stop_check_never_blocks_again_for_errors_it_blocked_for(
    tmp_path: Path,
) -> None:
    root = committed(copy_fixture("py", tmp_path))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        break_the_caller(root)  # pkg/app.py:5: an argument missing
        app = root / "pkg/app.py"
        app.write_text(app.read_text() + 'wrong: int = "x"\n')
        paths = ["pkg/greeting.py", "pkg/app.py"]
        warm.run(feedback.answer({**STOP, "event": "edit", "paths": paths, "wait": 120.0}))
        first = warm.run(feedback.answer({**STOP, "wait": 120.0}))
        assert first["complete"] is True and first["repeat"] is False
        found = first["introduced"]
        errors = [(d["path"], d["line"], d["code"]) for d in found if d["severity"] == "error"]
        assert errors == [
            ("pkg/app.py", 5, "reportCallIssue"),
            ("pkg/app.py", 11, "reportAssignmentType"),
        ]
        assert blocks(first)

        agent = feedback.sessions["s"]
        done = agent.check
        assert done is not None and done.done.is_set()
        [call, wrong] = [i for i in done.introduced if i.diagnostic.severity == "error"]

        # Out of time with one of the two: the stop goes, said as such.
        agent.check = running(done, [call])
        partial = warm.run(feedback.answer(STOP))
        assert partial["complete"] is False and partial["repeat"] is True
        assert stop_output(partial, 60.0) == {
            "systemMessage": "lspd: the check of this session's changes did not finish in 60 "
            "s; the 1 error(s) it found so far are among those the last stop was blocked for; "
            f"{LISTS}."
        }
        # Out of time with none found: nothing proved fixed either.
        agent.check = running(done, [])
        assert warm.run(feedback.answer(STOP))["repeat"] is False
        # The complete check again: both errors, unchanged since the stop blocked for them.
        agent.check = done
        again = warm.run(feedback.answer(STOP))
        assert again["complete"] is True and again["repeat"] is True
        assert stop_output(again, 60.0) == {
            "systemMessage": "lspd: 2 error(s) this session introduced since HEAD remain, "
            f"unchanged since the last stop; {LISTS}."
        }
        # Out of time with a new error among them: it blocks.
        key = (*wrong.key[:3], 'Type "Literal[1]" is not assignable', wrong.key[4])
        new = dataclasses.replace(wrong, key=key)
        agent.check = running(done, [call, new])
        blocked = warm.run(feedback.answer(STOP))
        assert blocked["complete"] is False and blocked["repeat"] is False
        assert blocks(blocked)
        agent.check = done
        warm.run(feedback.close())
