"""workspace/per_workspace.py: one object per workspace, made at first need, gone with it."""

from __future__ import annotations

import gc
from pathlib import Path

from lspd.workspace import Workspace
from lspd.workspace.per_workspace import PerWorkspace


def test_one_object_per_workspace_made_when_first_asked(tmp_path: Path) -> None:
    kept: PerWorkspace[list[int]] = PerWorkspace(list)
    one, two = (Workspace(tmp_path, log_dir=tmp_path / name) for name in ("a", "b"))
    assert kept.get(one) is None  # asking with get makes nothing
    first = kept.of(one)
    assert kept.of(one) is first and kept.get(one) is first
    assert kept.of(two) is not first


def test_a_workspace_gone_takes_its_object(tmp_path: Path) -> None:
    kept: PerWorkspace[list[int]] = PerWorkspace(list)
    ws = Workspace(tmp_path, log_dir=tmp_path / "logs")
    kept.of(ws)
    del ws
    gc.collect()
    assert len(kept) == 0
