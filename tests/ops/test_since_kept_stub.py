"""HEAD's result made while a stub of basedpyright's `stubPath` (typings/, outside the gate's
`include`) is deleted holds that stub (its HEAD text comes back in HEAD's state, so its
importers are checked with it): once the stub is restored (the tree is HEAD's), nothing left
the gate. Before (the examiner's F1 on the clean tree), the counts were right but the note
said "1 file(s) left the gate since (their errors fixed): typings/lib/__init__.pyi". Real
basedpyright against its CLI, a real venv holding the untyped library."""

from __future__ import annotations

import shutil
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import written
from tests.workspace.test_sync_stubs import RETURN, STUB, rows, stubbed


def _since(warm: Warm) -> tuple[int, int, str]:
    since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
    assert since is not None
    return len(since.introduced), len(since.fixed), since.scope


def test_a_stub_restored_after_heads_result_was_made_left_no_gate(tmp_path: Path) -> None:
    root = stubbed(tmp_path / "p")
    shutil.rmtree(root / "typings")  # as `git apply` of the stub's deletion leaves the tree
    assert rows(root) == RETURN
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        introduced, fixed, scope = _since(warm)  # HEAD's result made now
        assert (introduced, fixed) == (1, 0)
        written(root, {"typings/lib/__init__.pyi": STUB})  # restored: the tree is HEAD's
        assert rows(root) == []
        introduced, fixed, scope = _since(warm)
        assert (introduced, fixed) == (0, 0)
        assert "left the gate" not in scope, scope
