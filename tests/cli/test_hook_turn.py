"""The stop gate proves every file changed since the turn began, whoever wrote it: agents
change files with shell commands too (`sed -i`, `git apply`, `mv`, a formatter), which no
post-edit hook names. Two examiners found such changes let through with their errors: a
mypy signature change made by `git apply` (7 new where the gate said 1), a plain `mv`
(9 new, the gate silent). `UserPromptSubmit` marks where the turn's changes begin."""

from __future__ import annotations

import asyncio
import re
import subprocess
from pathlib import Path
from typing import Any

from tests.cli.test_hook import FOUND, break_the_caller, edit, hook, said, served, stop
from tests.daemon.support import ThreadDaemon

__all__ = ["served"]  # the Python fixture's daemon (tests/cli/test_hook.py)
BLOCKED = {
    "decision": "block",
    "reason": "lspd: before you finish: this session's changes introduced "
    f"{FOUND}\nFix them, or say why they stay.",
}


def turn(served: ThreadDaemon, session: str = "s", agent: str = "claude-code") -> None:
    """A turn begins, once the daemon answers hooks (before, its start is the session's
    first hook call: the prompt's wait is short, never the SDK's import)."""
    assert served.daemon.built.wait(120)
    root = served.daemon.root
    payload = prompt(root, session)
    if agent == "codex":
        payload |= {"turn_id": "t1", "model": "gpt-5-codex"}
    assert said(hook(agent, payload, root)) is None  # nothing is added to the prompt


def prompt(root: Path, session: str = "s") -> dict[str, Any]:
    """Claude Code's UserPromptSubmit payload (Codex sends the same fields and `turn_id`)."""
    return {
        "session_id": session,
        "transcript_path": f"/tmp/{session}.jsonl",
        "cwd": str(root),
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": "make greetings loud",
    }


def test_a_shell_edit_in_the_turn_is_proved_at_its_stop(served: ThreadDaemon) -> None:
    root = served.daemon.root
    turn(served)
    break_the_caller(root)  # as `sed -i` would: no post-edit hook names the file
    assert said(hook("claude-code", stop(root), root)) == BLOCKED
    turn(served, "c", "codex")  # the change was made before this session's turn
    assert said(hook("codex", {**stop(root, "c"), "turn_id": "t1"}, root)) is None


def test_what_changed_before_the_turn_is_not_its_work(served: ThreadDaemon) -> None:
    root = served.daemon.root
    break_the_caller(root)  # the user's own change, before the prompt
    turn(served)
    assert said(hook("claude-code", stop(root), root)) is None


def test_a_file_moved_by_a_shell_command_after_an_edit_is_proved(served: ThreadDaemon) -> None:
    root = served.daemon.root
    turn(served)
    extra = root / "pkg" / "extra.py"
    extra.write_text(extra.read_text() + "\n")
    assert said(hook("claude-code", edit(extra), root)) is None
    subprocess.run(["git", "-C", str(root), "mv", "pkg/greeting.py", "pkg/greet.py"], check=True)
    reason = said(hook("claude-code", stop(root), root))["reason"]
    assert 'pkg/app.py:1:6: Import "pkg.greeting" could not be resolved' in reason, reason
    count = re.search(r"introduced (\d+) new error\(s\)", reason)
    assert count is not None, reason
    assert said(hook("claude-code", stop(root), root)) == {  # the same: never twice
        "systemMessage": f"lspd: {count[1]} error(s) this session introduced since HEAD remain, "
        "unchanged since the last stop; `lspd check --baseline HEAD` lists everything."
    }


def taken(served: ThreadDaemon, session: str = "s") -> None:
    """Wait until the daemon has taken what the work tree held as the session's turn began."""
    task = served.daemon.feedback.sessions[session].before_task
    assert task is not None

    async def finished() -> None:
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run_coroutine_threadsafe(finished(), task.get_loop()).result(120)


OWN = (
    'pkg/extra.py:8:14: Type "Literal[\'many\']" is not assignable to declared type "int" '
    "[reportAssignmentType]"
)
HELD = "1 error(s) the work tree held against HEAD when this turn began are not counted"


def test_errors_the_tree_held_when_the_turn_began_are_not_its_work(served: ThreadDaemon) -> None:
    """The mixed examiner's 1b: another's edit broke a call before the prompt; the session
    then edited an unrelated file and was blocked for that call. Now its own error alone
    blocks, the held one said as not counted; fixed, the stop goes with a note."""
    root = served.daemon.root
    break_the_caller(root)  # the user's own change, before the prompt
    turn(served)
    taken(served)
    extra = root / "pkg" / "extra.py"
    original = extra.read_text()
    extra.write_text(original + '\n\nCOUNT: int = "many"\n')
    assert said(hook("claude-code", edit(extra), root)) == {  # app.py's call: not news
        "decision": "block",
        "reason": f"lspd: this work introduced 1 new error(s) since HEAD:\n{OWN}",
    }
    assert said(hook("claude-code", stop(root), root)) == {
        "decision": "block",
        "reason": "lspd: before you finish: this session's changes introduced 1 new error(s) "
        f"since HEAD:\n{OWN}\n({HELD})\nFix them, or say why they stay.",
    }
    extra.write_text(original + "\n\nCOUNT: int = 3\n")  # fixed: the turn's work is clean
    assert said(hook("claude-code", edit(extra), root)) is None
    assert said(hook("claude-code", stop(root), root)) == {
        "systemMessage": f"lspd: no new error this turn; {HELD}; `lspd check --baseline HEAD` "
        "lists everything."
    }


def test_a_change_before_the_held_errors_are_taken_sets_them_aside(
    served: ThreadDaemon,
) -> None:
    """A turn's first edit made while the daemon still takes what the tree held (here its
    servers start: seconds): the edited file is held at its text as the turn began
    (`ops/turn_start.py`), so the call broken before the prompt is set aside still. Before,
    that state was dropped: every error counted, the broken call among them."""
    root = served.daemon.root
    break_the_caller(root)
    turn(served)
    extra = root / "pkg" / "extra.py"
    extra.write_text(extra.read_text() + '\n\nCOUNT: int = "many"\n')
    taken(served)
    assert served.daemon.feedback.sessions["s"].before is not None
    assert said(hook("claude-code", stop(root), root)) == {
        "decision": "block",
        "reason": "lspd: before you finish: this session's changes introduced 1 new error(s) "
        f"since HEAD:\n{OWN}\n({HELD})\nFix them, or say why they stay.",
    }
