"""The stop gate proves what changed since the turn began (27eaf25): what it does not prove."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_hook import break_the_caller, hook, said, served, stop
from tests.cli.test_hook_turn import BLOCKED, turn
from tests.conftest import copy_fixture
from tests.daemon.support import ThreadDaemon, thread_daemon
from tests.ops.test_baseline import committed

__all__ = ["served"]


def test_a_json_no_program_reads_written_in_the_turn_is_no_stop(served: ThreadDaemon) -> None:
    root = served.daemon.root
    turn(served)
    settings = root / ".claude" / "settings.local.json"  # the agent's own permission file
    settings.parent.mkdir()
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(ls:*)"]}}))
    (root / "report.json").write_text('{"passed": 3}\n')  # a tool's report
    assert said(hook("claude-code", stop(root), root)) is None


def test_a_shell_edit_after_a_restart_mid_turn_is_proved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the daemon that saw the prompt stops (lspd restart, an upgrade, a crash); the one
    # after it knows no session: the stop gate was silent over the broken caller that
    # check --baseline HEAD says (pkg/app.py:5:15 reportCallIssue). Then it said the
    # tree's errors at the turn's start could not be set aside; now it reads the start
    # its predecessor kept (`daemon/turns.py`): nothing differed then, so nothing is unknown
    root = committed(copy_fixture("py", tmp_path))
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    with thread_daemon(root, prewarm=False) as first:
        turn(first)
    break_the_caller(root)
    with thread_daemon(root, prewarm=False) as second:
        assert second.daemon.built.wait(120)
        assert said(hook("claude-code", stop(root), root)) == BLOCKED
