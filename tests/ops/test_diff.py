"""Unified diffs that `git apply` and `patch -p1` accept, checked with both on real files."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from lspd.ops.diff import unified

# (name, before, after): the shapes of text a server's edit meets.
CASES = [
    ("one line", "a\nb\nc\n", "a\nB\nc\n"),
    ("insert at the top", "x = 1\ny = 2\n", "import os\n\nx = 1\ny = 2\n"),
    ("append", "x = 1\n", "x = 1\ny = 2\n"),
    ("no newline at the end, changed", "a\nb", "a\nc"),
    ("newline added at the end", "a\nb", "a\nb\n"),
    ("newline removed at the end", "a\nb\n", "a\nb"),
    ("crlf", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"),
    (
        "form feed and unicode",
        "x = 'é'\n\x0c\nname = 1\nuse(name)\n",
        "x = 'é'\n\x0c\nn = 1\nuse(n)\n",
    ),
    ("empty file filled", "", "print(1)\n"),
    ("emptied", "print(1)\n", ""),
    (
        "two hunks",
        "".join(f"line {i}\n" for i in range(30)),
        "".join(f"line {i}\n" if i not in (2, 25) else f"LINE {i}\n" for i in range(30)),
    ),
]


def _git(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *args], input=stdin, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(("name", "before", "after"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("path", ["src/mod.py", "dir with space/é.py"])
def test_git_apply_and_patch_turn_before_into_after(
    tmp_path: Path, name: str, before: str, after: str, path: str
) -> None:
    diff = unified(path, before, after)
    for tool in ("git", "patch"):
        root = tmp_path / tool
        target = root / path
        target.parent.mkdir(parents=True)
        target.write_bytes(before.encode())
        if tool == "git":
            assert _git(root, "init", "-q").returncode == 0
            done = _git(root, "apply", "-", stdin=diff)
        else:
            done = subprocess.run(
                ["patch", "-p1", "-s", "-d", str(root)],
                input=diff,
                capture_output=True,
                text=True,
                check=False,
            )
        assert done.returncode == 0, (tool, done.stderr, diff)
        assert target.read_bytes() == after.encode(), tool


def test_the_diff_is_git_diffs_own() -> None:
    # What `git diff` prints for the same change, header for header, hunk for hunk.
    before = "".join(f"line {i}\n" for i in range(12))
    after = before.replace("line 5\n", "line five\n")
    assert unified("a.txt", before, after) == (
        "diff --git a/a.txt b/a.txt\n"
        "--- a/a.txt\n"
        "+++ b/a.txt\n"
        "@@ -3,7 +3,7 @@\n"
        " line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n"
    )


def test_equal_texts_have_no_diff() -> None:
    assert unified("a.py", "x\n", "x\n") == ""


def test_a_path_git_would_quote_is_quoted() -> None:
    diff = unified('q"é.py', "a\n", "b\n")
    assert diff.splitlines()[1] == '--- "a/q\\"\\303\\251.py"'
