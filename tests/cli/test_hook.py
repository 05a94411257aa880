"""`lspd hook claude-code|codex` against a real daemon: the payloads as each agent sends them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import copy_fixture
from tests.daemon.support import ThreadDaemon, thread_daemon

LSPD = str(Path(sys.executable).parent / "lspd")
BROKEN_CALL = 'pkg/app.py:5:15: Argument missing for parameter "loud" [reportCallIssue]'
# and, in basedpyright's default mode, the unknown types that follow and `loud` unused
MESSAGE = (
    f"lspd: this work introduced 1 new error(s) since HEAD:\n{BROKEN_CALL}\n(and 4 new warning(s))"
)


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadDaemon]:
    """The Python fixture committed to git, its daemon running."""
    root = copy_fixture("py", tmp_path)
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(root), *command], check=True)
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    with thread_daemon(root, prewarm=False) as daemon:
        yield daemon


def hook(agent: str, payload: Any, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LSPD, "hook", agent],
        input=payload if isinstance(payload, str) else json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "LSPD_HOOK_TIMEOUT": "60", **env},
        timeout=120,
    )


def break_the_caller(root: Path) -> Path:
    greeting = root / "pkg" / "greeting.py"
    greeting.write_text(
        greeting.read_text().replace(
            "(name: str) -> Greeter:", "(name: str, loud: bool) -> Greeter:"
        )
    )
    return greeting


def test_claude_code_edit_gets_the_error_it_caused_in_another_file(served: ThreadDaemon) -> None:
    root = served.daemon.root
    greeting = break_the_caller(root)
    payload = {
        "session_id": "s",
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": str(greeting), "old_string": "a", "new_string": "b"},
        "tool_response": {"filePath": str(greeting), "success": True},
        "cwd": str(root),
    }
    done = hook("claude-code", payload, root)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "decision": "block",
        "reason": MESSAGE,
    }


def test_codex_apply_patch_gets_additional_context(served: ThreadDaemon) -> None:
    root = served.daemon.root
    break_the_caller(root)
    patch = (
        "*** Begin Patch\n*** Update File: pkg/greeting.py\n@@\n-def make_greeter(name: str)"
        "\n+def make_greeter(name: str, loud: bool)\n*** End Patch\n"
    )
    payload = {
        "hook_event_name": "PostToolUse",
        "tool_name": "apply_patch",
        "tool_input": {"command": patch},
        "cwd": str(root),
    }
    done = hook("codex", payload, root)
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]
    assert context == {
        "hookEventName": "PostToolUse",
        "additionalContext": MESSAGE,
    }


def test_every_quiet_path_exits_0_with_no_output(served: ThreadDaemon, tmp_path: Path) -> None:
    root = served.daemon.root
    greeting = root / "pkg" / "greeting.py"
    edit = {"tool_name": "Edit", "tool_input": {"file_path": str(greeting)}, "cwd": str(root)}
    greeting.write_text(greeting.read_text() + "\n# a comment\n")
    nothing_new = hook("claude-code", edit, root)
    (root / "README.md").write_text("# notes\n")
    no_language = {**edit, "tool_input": {"file_path": str(root / "README.md")}}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.py").write_text("x: int = ''\n")
    no_daemon = {**edit, "tool_input": {"file_path": str(elsewhere / "a.py")}}
    break_the_caller(root)
    for done in (
        nothing_new,
        hook("claude-code", no_language, root),
        hook("claude-code", no_daemon, elsewhere),
        hook("claude-code", "not json {", root),
        hook("codex", {"tool_name": "apply_patch", "tool_input": {}}, root),
        hook("claude-code", edit, root, LSPD_HOOK_TIMEOUT="0.001"),  # too slow: say nothing
    ):
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
