"""The files a workspace follows that its watcher does not see (`workspace/followed.py`)."""

from __future__ import annotations

import os
from pathlib import Path

from lspd.workspace.followed import Followed


def test_a_moved_stamp_is_said_once_and_read_sources_stamp_the_result(tmp_path: Path) -> None:
    config, built = tmp_path / "base.json", tmp_path / "lib" / "index.d.ts"
    built.parent.mkdir()
    config.write_text("{}")
    built.write_text("export declare const x: number;\n")
    followed = Followed()
    followed.add(config)
    assert followed.stamp() == ""  # a configuration: the kept key holds its text
    followed.add(built, read=True)
    before = followed.stamp()
    assert followed.changed() == []
    built.write_text("export declare const x: string;\n")
    os.utime(built, ns=(1, 1))  # a rewrite whatever the clock's grain
    assert followed.changed() == [built]
    assert followed.changed() == []  # said once
    assert followed.stamp() not in ("", before)
