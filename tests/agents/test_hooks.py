"""`lspd sync --hooks` / `--remove`: lspd's post-edit hook merged beside the user's own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lspd.cli import main

from .live import Clients, run

LSPD = str(Path(sys.executable).parent / "lspd")
USERS_OWN = {"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}


CLAUDE_HOOKS = {
    "PostToolUse": [
        {
            "matcher": "Edit|Write|MultiEdit",
            "hooks": [{"type": "command", "command": f"{LSPD} hook claude-code", "timeout": 10}],
        },
        {
            "matcher": "Edit|Write|MultiEdit",
            "hooks": [
                {
                    "type": "command",
                    "command": f"{LSPD} hook claude-code --late",
                    "async": True,
                    "asyncRewake": True,
                    "timeout": 330,
                }
            ],
        },
    ],
    "Stop": [
        {"hooks": [{"type": "command", "command": f"{LSPD} hook claude-code", "timeout": 90}]}
    ],
    "UserPromptSubmit": [
        {"hooks": [{"type": "command", "command": f"{LSPD} hook claude-code", "timeout": 10}]}
    ],
}
CODEX_HOOKS = {
    "PostToolUse": [
        {
            "matcher": "apply_patch",
            "hooks": [{"type": "command", "command": f"{LSPD} hook codex", "timeout": 10}],
        }
    ],
    "Stop": [{"hooks": [{"type": "command", "command": f"{LSPD} hook codex", "timeout": 90}]}],
    "UserPromptSubmit": [
        {"hooks": [{"type": "command", "command": f"{LSPD} hook codex", "timeout": 10}]}
    ],
}


def test_hooks_are_installed_beside_the_users_and_removed_again(
    home: Path, root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = root / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    users = {"permissions": {"allow": []}, "hooks": {"PostToolUse": [USERS_OWN]}}
    settings.write_text(json.dumps(users))
    argv = ["sync", str(root), "--agent", "claude-code", "--agent", "codex", "--hooks"]
    assert main(argv) == 0
    assert json.loads(settings.read_text()) == {
        "permissions": {"allow": []},
        "hooks": {**CLAUDE_HOOKS, "PostToolUse": [USERS_OWN, *CLAUDE_HOOKS["PostToolUse"]]},
    }
    codex = root / ".codex" / "hooks.json"
    assert json.loads(codex.read_text()) == {"hooks": CODEX_HOOKS}
    before = settings.read_text(), codex.read_text()
    assert main(argv) == 0  # a second run changes nothing
    assert (settings.read_text(), codex.read_text()) == before
    capsys.readouterr()
    assert main(["sync", str(root), "--agent", "claude-code", "--agent", "codex", "--remove"]) == 0
    assert json.loads(settings.read_text()) == users
    assert not settings.with_name("settings.local.json.lspd-backup").exists()
    assert not (root / ".codex").exists()  # lspd made it, and all in it
    assert capsys.readouterr().out == (
        f"claude-code hooks: removed {settings}\n"
        f"claude-code hooks: deleted {settings}.lspd-backup\n"
        f"codex hooks: removed {codex}\n"
        f"codex hooks: deleted {codex} (lspd created it; nothing else was in it)\n"
        f"codex hooks: deleted {codex}.lspd-backup\n"
        f"codex hooks: deleted {codex.parent} (lspd created it; it is empty)\n"
    )


def test_what_sync_hooks_writes_stays_out_of_git_status(home: Path, root: Path) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text("{}\n")  # the team's, committed
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "-C", str(root), "add", ".claude", ".vscode"], check=True)
    subprocess.run(["git", "-C", str(root), *author, "commit", "-qm", "base"], check=True)
    argv = ["sync", str(root), "--agent", "claude-code", "--agent", "codex", "--hooks"]
    assert main(argv) == 0
    for written in (root / ".claude" / "settings.local.json", root / ".codex" / "hooks.json"):
        document = json.loads(written.read_text())
        del document["hooks"]["Stop"]  # so that the next run updates it and keeps a backup
        written.write_text(json.dumps(document))
    assert main(argv) == 0
    assert (root / ".codex" / "hooks.json.lspd-backup").is_file()
    status = ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=all"]
    assert subprocess.run(status, capture_output=True, text=True, check=True).stdout == ""
    assert (root / ".claude" / "settings.local.json").is_file()
    assert main(["sync", str(root), "--agent", "claude-code", "--agent", "codex", "--remove"]) == 0
    assert sorted(p.name for p in (root / ".claude").iterdir()) == ["settings.json"]
    assert not (root / ".codex").exists()
    assert subprocess.run(status, capture_output=True, text=True, check=True).stdout == ""


def test_an_agent_without_hooks_says_so(home: Path, root: Path) -> None:
    assert main(["sync", str(root), "--agent", "cursor", "--remove"]) == 1


def test_claude_code_accepts_the_settings_lspd_writes(
    clients: Clients, home: Path, root: Path
) -> None:
    assert main(["sync", str(root), "--agent", "claude-code", "--hooks"]) == 0
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    checked = run([clients.bin("claude"), "doctor"], env, root, timeout=60)
    assert "Claude Code doctor" in checked.stdout, checked.stdout + checked.stderr
    assert "Invalid settings" not in checked.stdout, checked.stdout
    # The same check does see a hook entry Claude Code cannot use.
    settings = root / ".claude" / "settings.local.json"
    broken = json.loads(settings.read_text())
    broken["hooks"]["PostToolUse"][0]["hooks"] = "lspd hook claude-code"  # not a list
    settings.write_text(json.dumps(broken))
    checked = run([clients.bin("claude"), "doctor"], env, root, timeout=60)
    assert "Invalid settings" in checked.stdout, checked.stdout
