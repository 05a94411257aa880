"""What an agent's hook payload names: the files its tool call edited (Claude Code's
`tool_input.file_path`; Codex's `apply_patch` text), and the baseline its work is proved
against (HEAD, or the session where git has no commit for the root)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

_PATCH_FILE = re.compile(r"^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$", re.M)


def baseline_of(root: Path) -> str:
    """HEAD where git has a commit for the root; else the files as the session first saw them
    (a repository with no commit yet has no HEAD to compare with)."""
    if not _in_git(root):
        return "session"
    try:
        has_head = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", "HEAD"], cwd=root, capture_output=True
        )
    except OSError:  # no git to ask: nor can the daemon
        return "session"
    return "HEAD" if has_head.returncode == 0 else "session"


def edited_files(agent: str, payload: dict[str, Any]) -> list[Path]:
    """The files the tool call edited, absolute (relative ones from the payload's `cwd`)."""
    cwd = Path(str(payload.get("cwd") or Path.cwd()))
    tool_input = payload.get("tool_input") or {}
    if agent == "claude-code":
        named = [tool_input.get("file_path")]
    else:
        patch = "\n".join(v for v in tool_input.values() if isinstance(v, str))
        named = _PATCH_FILE.findall(patch)
    files = [cwd / str(n) for n in named if isinstance(n, str) and n.strip()]
    return list(dict.fromkeys(Path(os.path.normpath(f)) for f in files))


def _in_git(root: Path) -> bool:
    return any((directory / ".git").exists() for directory in (root, *root.parents))
