"""The agents' hooks are answered before the MCP SDK is up (`daemon/early_hooks.py`): a
cold daemon's first edit hook waited for the SDK's import and build (trio, a cold restart:
the hook's 3 s budget, answered at 5.8-7.1 s). The real `lspd hook claude-code` against a
real daemon (uvicorn, basedpyright, a git repository), the SDK's build held back; then the
whole app answers the same agent session (one `Feedback`)."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import httpx
import pytest

from lspd.daemon import whole
from tests.cli.test_hook import MESSAGE, break_the_caller, edit, hook, said, stop
from tests.conftest import copy_fixture
from tests.daemon.support import thread_daemon


def test_a_hook_is_answered_before_the_sdk_is_up_by_the_session_the_app_goes_on_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_fixture("py", tmp_path)
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(root), *command], check=True)
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    held, build = threading.Event(), whole.build
    monkeypatch.setattr(whole, "build", lambda *given: (held.wait(120), build(*given))[1])
    with thread_daemon(root, prewarm=False) as daemon:
        greeting = break_the_caller(root)
        assert said(hook("claude-code", edit(greeting), root)) == {
            "decision": "block",
            "reason": MESSAGE,
        }
        assert not daemon.daemon.built.is_set()
        held.set()
        assert httpx.get(f"{daemon.base}/check/progress", timeout=60).json() == {}
        assert daemon.daemon.built.is_set()  # the SDK's app answers from now on
        blocked = said(hook("claude-code", stop(root), root))  # the session the hook began
        assert blocked["decision"] == "block"
        assert "pkg/app.py:5:15: Argument missing" in blocked["reason"]
