"""The daemon's background keeping of the committed state's result (`ops/keeping.py`): a real
daemon on a git repository and basedpyright makes HEAD's result after `serve` with no
question asked, a baseline reads it without checking HEAD again, and a commit (HEAD moving)
makes the new HEAD's."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from lspd.ops import keeping
from lspd.ops.committed import kept_folder, memory_of
from tests.cli.test_check import lspd_check
from tests.conftest import copy_fixture
from tests.daemon.support import thread_daemon
from tests.ops.test_baseline import SIGNATURE, TWO_ARGUMENTS, committed, edit, git


def wait_for(done: Callable[[], bool], timeout: float = 240.0) -> None:
    """Until `done` holds (the daemon's thread makes it so), at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the daemon did not get there in time"
        time.sleep(0.1)


def test_heads_result_is_kept_after_serve_and_again_when_head_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(keeping, "INTERVAL_S", 0.2)
    root = committed(copy_fixture("py", tmp_path))
    head = git(root, "rev-parse", "HEAD").strip()
    with thread_daemon(root, prewarm=False) as running:
        ws = running.daemon.ws
        assert ws is not None
        memory = memory_of(ws)
        wait_for(lambda: memory.state is not None)
        assert memory.state is not None and memory.state.key.commit == head
        assert (memory.made, memory.state.asked) == (1, 0)  # a clean tree: its check was HEAD's
        assert [p.name for p in kept_folder(ws).glob("*.json")] == [memory.state.key.name()]
        edit(root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
        done = lspd_check(root, "--baseline", "HEAD")
        assert done.returncode == 1, done.stdout + done.stderr
        lines = done.stdout.splitlines()
        assert lines[0] == (
            'pkg/app.py:5:15: error: Argument missing for parameter "loud" [reportCallIssue]'
        )
        assert memory.made == 1  # HEAD was not checked again for the question
        git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "b")
        moved = git(root, "rev-parse", "HEAD").strip()
        wait_for(lambda: memory.state is not None and memory.state.key.commit == moved)
        assert memory.made == 2
        assert len(list(kept_folder(ws).glob("*.json"))) == 2
        again = lspd_check(root, "--baseline", "HEAD")
        assert again.returncode == 0, again.stdout + again.stderr
        assert again.stdout.startswith("0 new since HEAD (0 error(s)), 0 fixed, 0 unchanged; ")
        assert f"HEAD moved from {head[:12]} to {moved[:12]}: its result made again" in again.stdout
        assert memory.made == 2
    assert git(root, "status", "--porcelain") == ""  # nothing written into the repository
