"""`lspd hook claude-code|codex` against a real daemon: the payloads as each agent sends them.

Silence means "checked, and nothing new"; a budget that ends first, servers still loading,
findings that come after the hook returned and the stop gate are each said, as the model
reads them.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.cli.hook import edit_output, stop_output
from tests.conftest import copy_fixture
from tests.daemon.support import ThreadDaemon, thread_daemon

LSPD = str(Path(sys.executable).parent / "lspd")
BROKEN_CALL = 'pkg/app.py:5:15: Argument missing for parameter "loud" [reportCallIssue]'
# and, in basedpyright's default mode, the unknown types that follow and `loud` unused
FOUND = f"1 new error(s) since HEAD:\n{BROKEN_CALL}\n(and 4 new warning(s))"
MESSAGE = f"lspd: this work introduced {FOUND}"
CHECK = "run `lspd check --baseline HEAD` before you finish"
LISTS = "`lspd check --baseline HEAD` lists everything"


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadDaemon]:
    """The Python fixture committed to git, its daemon running (no server started yet)."""
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
        env={**os.environ, "LSPD_HOOK_TIMEOUT": "60", "LSPD_STOP_TIMEOUT": "60", **env},
        timeout=120,
    )


def said(done: subprocess.CompletedProcess[str]) -> Any:
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return json.loads(done.stdout) if done.stdout else None


def edit(path: Path, session: str = "s") -> dict[str, Any]:
    """Claude Code's PostToolUse payload for an Edit."""
    return {
        "session_id": session,
        "transcript_path": f"/tmp/{session}.jsonl",
        "cwd": str(path.parent.parent),
        "permission_mode": "acceptEdits",
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": str(path), "old_string": "a", "new_string": "b"},
        "tool_response": {"filePath": str(path), "success": True},
        "tool_use_id": "toolu_01",
    }


def patched(root: Path, session: str = "c") -> dict[str, Any]:
    """Codex's PostToolUse payload for an apply_patch of pkg/greeting.py."""
    patch = (
        "*** Begin Patch\n*** Update File: pkg/greeting.py\n@@\n-def make_greeter(name: str)"
        "\n+def make_greeter(name: str, loud: bool)\n*** End Patch\n"
    )
    return {
        "session_id": session,
        "turn_id": "t1",
        "transcript_path": None,
        "cwd": str(root),
        "hook_event_name": "PostToolUse",
        "model": "gpt-5-codex",
        "permission_mode": "default",
        "tool_name": "apply_patch",
        "tool_input": {"command": patch},
        "tool_response": "Success. Updated the following files:\nM pkg/greeting.py\n",
        "tool_use_id": "call_1",
    }


def stop(root: Path, session: str = "s", active: bool = False) -> dict[str, Any]:
    """Claude Code's Stop payload (Codex sends the same fields and `turn_id`, `model`)."""
    return {
        "session_id": session,
        "transcript_path": f"/tmp/{session}.jsonl",
        "cwd": str(root),
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": active,
        "last_assistant_message": "Done.",
    }


def break_the_caller(root: Path) -> Path:
    greeting = root / "pkg" / "greeting.py"
    greeting.write_text(
        greeting.read_text().replace(
            "(name: str) -> Greeter:", "(name: str, loud: bool) -> Greeter:"
        )
    )
    return greeting


def settled(served: ThreadDaemon, session: str) -> None:
    """Wait until the session's check in the daemon has finished."""
    task = served.daemon.feedback.sessions[session].task

    async def finished() -> None:
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run_coroutine_threadsafe(finished(), task.get_loop()).result(120)


def test_claude_code_edit_gets_the_error_it_caused_in_another_file(served: ThreadDaemon) -> None:
    root = served.daemon.root
    greeting = break_the_caller(root)
    assert said(hook("claude-code", edit(greeting), root)) == {
        "decision": "block",
        "reason": MESSAGE,
    }


def test_codex_apply_patch_gets_additional_context(served: ThreadDaemon) -> None:
    root = served.daemon.root
    break_the_caller(root)
    assert said(hook("codex", patched(root), root)) == {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": MESSAGE}
    }


def test_every_quiet_path_exits_0_with_no_output(served: ThreadDaemon, tmp_path: Path) -> None:
    root = served.daemon.root
    greeting = root / "pkg" / "greeting.py"
    greeting.write_text(greeting.read_text() + "\n# a comment\n")
    nothing_new = hook("claude-code", edit(greeting), root)  # a harmless edit
    (root / "README.md").write_text("# notes\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.py").write_text("x: int = ''\n")
    break_the_caller(root)
    for done in (
        nothing_new,
        hook("claude-code", edit(root / "README.md"), root),  # no language
        hook("claude-code", edit(elsewhere / "a.py"), elsewhere),  # no daemon
        hook("claude-code", "not json {", root),
        hook("codex", {"tool_name": "apply_patch", "tool_input": {}}, root),
        hook("claude-code", stop(root, session="never-edited"), root),
    ):
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_while_the_servers_load_it_says_so_once_and_tells_the_errors_at_the_next_edit(
    served: ThreadDaemon,
) -> None:
    root = served.daemon.root
    greeting = break_the_caller(root)
    first = said(hook("claude-code", edit(greeting), root, LSPD_HOOK_TIMEOUT="0.001"))
    context = first["hookSpecificOutput"]["additionalContext"]
    assert re.fullmatch(
        r"lspd is loading basedpyright for py \(the daemon started \d+ s ago\): what this edit "
        rf"introduced follows at your next edit; {re.escape(CHECK)}\.",
        context,
    ), context
    greeting.write_text(greeting.read_text() + "\n# and a comment\n")
    again = said(hook("claude-code", edit(greeting), root, LSPD_HOOK_TIMEOUT="0.001"))
    told = again.get("reason") or again["hookSpecificOutput"]["additionalContext"]
    # Loading is said once per agent session; after that the unfinished check is told
    # (silence would read "nothing new", spec 9).
    assert "lspd is loading" not in told and "\nlspd: still checking " in f"\n{told}", told
    other = said(hook("claude-code", edit(greeting, "other"), root, LSPD_HOOK_TIMEOUT="0.001"))
    assert other["hookSpecificOutput"]["additionalContext"].startswith("lspd is loading ")
    settled(served, "s")
    extra = root / "pkg" / "extra.py"
    extra.write_text(extra.read_text() + "\n# harmless\n")
    assert said(hook("claude-code", edit(extra), root)) == {
        "decision": "block",
        "reason": f"lspd: after your earlier edit, found {FOUND}",
    }
    extra.write_text(extra.read_text() + "\n# harmless again\n")
    assert said(hook("claude-code", edit(extra), root)) is None  # told once


def test_what_an_edit_undone_since_broke_is_never_told(served: ThreadDaemon) -> None:
    root = served.daemon.root
    greeting = root / "pkg" / "greeting.py"
    committed = greeting.read_text()
    break_the_caller(root)
    hook("claude-code", edit(greeting), root, LSPD_HOOK_TIMEOUT="0.001")
    settled(served, "s")
    greeting.write_text(committed)
    assert said(hook("claude-code", edit(greeting), root)) is None


def test_an_error_undone_and_made_again_is_told_again(served: ThreadDaemon) -> None:
    root = served.daemon.root
    greeting = root / "pkg" / "greeting.py"
    committed = greeting.read_text()
    told = {"decision": "block", "reason": MESSAGE}
    break_the_caller(root)
    assert said(hook("claude-code", edit(greeting), root)) == told
    greeting.write_text(committed)
    assert said(hook("claude-code", edit(greeting), root)) is None
    break_the_caller(root)
    assert said(hook("claude-code", edit(greeting), root)) == told


def test_a_budget_that_ends_first_is_said(served: ThreadDaemon) -> None:
    root = served.daemon.root
    extra = root / "pkg" / "extra.py"
    extra.write_text(extra.read_text() + "\n# warm the server up\n")
    assert said(hook("claude-code", edit(extra), root)) is None
    greeting = break_the_caller(root)
    done = said(hook("claude-code", edit(greeting), root, LSPD_HOOK_TIMEOUT="0.001"))
    assert done == {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": "lspd: still checking the edited file(s) after 0.001 s: "
            f"what they show follows at your next edit; {CHECK}.",
        }
    }


def test_a_new_file_with_a_type_error_is_reported(served: ThreadDaemon) -> None:
    root = served.daemon.root
    fresh = root / "pkg" / "fresh.py"
    fresh.write_text('count: int = "none"\n')
    payload = {**edit(fresh), "tool_name": "Write", "tool_input": {"file_path": str(fresh)}}
    reason = said(hook("claude-code", payload, root))["reason"]
    assert reason.startswith(
        "lspd: this work introduced 1 new error(s) since HEAD:\npkg/fresh.py:1:14: Type "
    ), reason
    assert reason.endswith("[reportAssignmentType]"), reason


def test_the_stop_gate_blocks_then_lets_go_and_never_loops(served: ThreadDaemon) -> None:
    root = served.daemon.root
    greeting = break_the_caller(root)
    assert said(hook("claude-code", edit(greeting), root))["reason"] == MESSAGE
    blocked = {
        "decision": "block",
        "reason": "lspd: before you finish: this session's changes introduced "
        f"{FOUND}\nFix them, or say why they stay.",
    }
    assert said(hook("claude-code", stop(root), root)) == blocked
    assert said(hook("claude-code", stop(root, active=True), root)) == {
        "systemMessage": "lspd: 1 error(s) this session introduced since HEAD remain, "
        f"unchanged since the last stop; {LISTS}."
    }
    hook("codex", patched(root), root)
    codex_stop = {**stop(root, "c"), "turn_id": "t2", "model": "gpt-5-codex"}
    assert said(hook("codex", codex_stop, root)) == blocked
    app = root / "pkg" / "app.py"
    app.write_text(app.read_text().replace('make_greeter("world")', 'make_greeter("world", True)'))
    assert said(hook("claude-code", edit(app), root)) is None
    assert said(hook("claude-code", stop(root, active=True), root)) is None


def test_a_stop_gate_out_of_time_lets_the_stop_go_with_a_note(served: ThreadDaemon) -> None:
    root = served.daemon.root
    greeting = break_the_caller(root)
    hook("claude-code", edit(greeting), root, LSPD_HOOK_TIMEOUT="0.001")
    done = said(hook("claude-code", stop(root), root, LSPD_STOP_TIMEOUT="0.001"))
    assert list(done) == ["systemMessage"]  # no block: nothing found yet is no error
    assert re.fullmatch(
        r"lspd: the check of this session's changes ran out of 0\.001 s after 0( of \d+)? "
        rf"file\(s\), no new error so far; {re.escape(LISTS)}\.",
        done["systemMessage"],
    ), done


def test_what_is_found_so_far_and_what_remains_are_said() -> None:
    error = {
        "path": "lib/url.py",
        "line": 439,
        "column": 33,
        "severity": "error",
        "message": 'Argument missing for parameter "default"',
        "code": "reportCallIssue",
    }
    answer = {
        "baseline": "HEAD",
        "complete": False,
        "introduced": [error],
        "late": [],
        "checking": {"done": 3, "total": 22},
    }
    line = 'lib/url.py:439:33: Argument missing for parameter "default" [reportCallIssue]'
    rest = (
        "still checking this edit after 3 s (the gate's files: 3 of 22 checked): what it "
        f"introduced follows at your next edit; {CHECK}."
    )
    assert edit_output("claude-code", answer, 3.0) == {
        "decision": "block",
        "reason": f"lspd: this work introduced 1 new error(s) since HEAD:\n{line}\nlspd: {rest}",
    }
    assert edit_output("codex", {**answer, "introduced": []}, 3.0) == {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": f"lspd: {rest}",
        }
    }
    assert stop_output({**answer, "repeat": False}, 60.0) == {
        "decision": "block",
        "reason": "lspd: before you finish: this session's changes introduced 1 new error(s) "
        f"since HEAD:\n{line}\n(the check did not finish in 60 s; {LISTS})\n"
        "Fix them, or say why they stay.",
    }


def background(root: Path, payload: dict[str, Any], **env: str) -> subprocess.Popen[str]:
    """Claude Code's background hook (async + asyncRewake), started with its payload."""
    started = subprocess.Popen(
        [LSPD, "hook", "claude-code", "--late"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, **env},
    )
    assert started.stdin is not None
    started.stdin.write(json.dumps(payload))
    started.stdin.close()
    return started


def finished(started: subprocess.Popen[str]) -> tuple[int, str, str]:
    assert started.stdout is not None and started.stderr is not None
    out, err = started.stdout.read(), started.stderr.read()
    return started.wait(120), out, err


def test_the_background_hook_wakes_the_model_with_what_the_budget_missed(
    served: ThreadDaemon,
) -> None:
    root = served.daemon.root
    greeting = break_the_caller(root)
    late = background(root, edit(greeting))
    quick = said(hook("claude-code", edit(greeting), root, LSPD_HOOK_TIMEOUT="0.001"))
    assert quick["hookSpecificOutput"]["additionalContext"].startswith("lspd is loading ")
    code, out, err = finished(late)
    assert (code, out) == (2, "")  # asyncRewake: exit 2 wakes the model
    # told as soon as an error is found: the files still to check may follow
    assert re.fullmatch(
        re.escape(f"lspd: still checking your edit, found {FOUND}")
        + r"(\n\(still checking \d+ file\(s\): the rest follows at your next edit; "
        + re.escape(f"{CHECK})")
        + ")?\n",
        err,
    ), err
    extra = root / "pkg" / "extra.py"
    extra.write_text(extra.read_text() + "\n# harmless\n")
    assert said(hook("claude-code", edit(extra), root)) is None  # told once, not again


def test_the_edits_own_hook_goes_first_and_the_background_one_stays_quiet(
    served: ThreadDaemon,
) -> None:
    root = served.daemon.root
    greeting = break_the_caller(root)
    late = background(root, edit(greeting), LSPD_HOOK_TIMEOUT="60")  # as if it started sooner
    assert said(hook("claude-code", edit(greeting), root)) == {
        "decision": "block",
        "reason": MESSAGE,
    }
    assert finished(late) == (0, "", "")


def test_a_part_not_compared_at_the_baseline_is_said_so() -> None:
    """A mixed gate's part whose HEAD state was not made (`engine/configured_parts.py`): its
    errors are not known new; the rest was compared (before: "the rest is not checked")."""
    said = "at HEAD, the Python files were not compared (WHY)"
    answer = {"baseline": "HEAD", "complete": True, "introduced": [], "stopped": [said]}
    assert stop_output({**answer, "repeat": False}, 60.0) == {
        "decision": "block",
        "reason": f"lspd: {said}: their errors are not known new, so whether this session's "
        "changes introduced errors is not known; run the project's own checker before you "
        "finish.",
    }
    syntax = "mypy stopped at the syntax error at a.py:3"
    reason = stop_output({**answer, "stopped": [said, syntax], "repeat": False}, 60.0)
    assert reason is not None and f"{syntax}: the rest is not checked" in reason["reason"]


def test_a_configuration_stop_is_not_called_a_syntax_error() -> None:
    """tsc stopped at a tsconfig's (or jsconfig's) options error: the advice names it (it
    said "fix the syntax error": there is none; the examiner's jotai, TS5102 baseUrl)."""
    said = "tsc stopped at the configuration error at site/jsconfig.json:3"
    reason = stop_output(
        {"complete": True, "introduced": [], "stopped": [said], "repeat": False}, 60.0
    )["reason"]
    assert reason.endswith("; fix the configuration error, then the check proves them.")
