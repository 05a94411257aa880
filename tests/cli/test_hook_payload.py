"""What a hook's payload names (`cli/hook_payload.py`): the baseline, the files edited."""

from __future__ import annotations

import subprocess
from pathlib import Path

from lspd.cli.hook_payload import baseline_of, edited_files


def test_the_baseline_is_head_only_once_git_has_a_commit(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    assert baseline_of(tmp_path) == "session"
    git("init", "-q")
    assert baseline_of(tmp_path) == "session"  # no commit: 'HEAD' names none yet
    (tmp_path / "a.py").write_text("x = 1\n")
    git("add", "a.py")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    assert baseline_of(tmp_path) == "HEAD"


def test_the_files_a_tool_call_edited(tmp_path: Path) -> None:
    """Claude Code's file_path; Codex's apply_patch, every file it adds, updates, deletes
    or moves to, each once, relative ones from the payload's cwd."""
    claude = {"cwd": str(tmp_path), "tool_input": {"file_path": "src/a.py"}}
    assert edited_files("claude-code", claude) == [tmp_path / "src/a.py"]
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** Delete File: b.py\n"
        "*** Update File: c.py\n*** Move to: d/c.py\n*** Add File: a.py\n+z\n*** End Patch\n"
    )
    codex = {"cwd": str(tmp_path), "tool_input": {"command": patch}}
    found = edited_files("codex", codex)
    assert found == [tmp_path / n for n in ("a.py", "b.py", "c.py", "d/c.py")]
