"""The limits of workspace-wide work (`workspace/files.Limits`): a file's lines are counted
once per version (mtime, size, inode), and counted again once it changes."""

from __future__ import annotations

import os
from pathlib import Path

from lspd.workspace import files
from lspd.workspace.files import Limits


def test_a_files_lines_are_counted_again_once_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "long.ts"
    path.write_text("const a = 1;\n" * 3)
    limits = Limits(bytes=1_000_000, lines=4)
    assert limits.exceeded(path) is None
    assert files._lines[path][1] == 3
    status = path.stat()
    path.write_text("x\n" * 19 + "\n")  # more lines, the same size
    assert path.stat().st_size == status.st_size
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 1))
    assert limits.exceeded(path) == "20 lines, over max_file_lines = 4 (lspd.toml)"
    path.write_text("a\n")  # fewer bytes than the line limit: never read
    assert limits.exceeded(path) is None and files._lines[path][1] == 20
