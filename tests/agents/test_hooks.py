"""`lspd sync --hooks` / `--remove`: lspd's post-edit hook merged beside the user's own."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lspd.cli import main

from .live import Clients, run

LSPD = str(Path(sys.executable).parent / "lspd")
USERS_OWN = {"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}


def test_hooks_are_installed_beside_the_users_and_removed_again(home: Path, root: Path) -> None:
    settings = root / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_text(
        json.dumps({"permissions": {"allow": []}, "hooks": {"PostToolUse": [USERS_OWN]}})
    )
    argv = ["sync", str(root), "--agent", "claude-code", "--agent", "codex", "--hooks"]
    assert main(argv) == 0
    assert json.loads(settings.read_text()) == {
        "permissions": {"allow": []},
        "hooks": {
            "PostToolUse": [
                USERS_OWN,
                {
                    "matcher": "Edit|Write|MultiEdit",
                    "hooks": [
                        {"type": "command", "command": f"{LSPD} hook claude-code", "timeout": 10}
                    ],
                },
            ]
        },
    }
    codex = root / ".codex" / "hooks.json"
    assert json.loads(codex.read_text()) == {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "apply_patch",
                    "hooks": [{"type": "command", "command": f"{LSPD} hook codex", "timeout": 10}],
                }
            ]
        }
    }
    before = settings.read_text(), codex.read_text()
    assert main(argv) == 0  # a second run changes nothing
    assert (settings.read_text(), codex.read_text()) == before
    assert main(["sync", str(root), "--agent", "claude-code", "--agent", "codex", "--remove"]) == 0
    assert json.loads(settings.read_text()) == {
        "permissions": {"allow": []},
        "hooks": {"PostToolUse": [USERS_OWN]},
    }
    assert json.loads(codex.read_text()) == {}


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
    broken["hooks"]["PostToolUse"][0]["hooks"] = "lspd hook claude-code"
    settings.write_text(json.dumps(broken))
    checked = run([clients.bin("claude"), "doctor"], env, root, timeout=60)
    assert "Invalid settings" in checked.stdout, checked.stdout
