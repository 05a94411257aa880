"""The committed state's result is made of one disk state: the check and the texts its
snippets are read from (`engine/committed.py`), also when an edit is undone while it runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lspd.ops import check as check_ops
from lspd.ops.check import Checked
from lspd.workspace import Workspace
from tests.conftest import Warm
from tests.ops.test_committed import from_kept, repo, rows

__all__ = ["repo"]  # the fixture: a git repository of the Python fixture, watched


def test_an_edit_undone_while_the_result_is_made_leaves_no_wrong_snippet(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = repo.root / "pkg/broken.py"
    head = broken.read_text()
    broken.write_text("\n\n" + head)  # its error two lines further down
    repo.run(check_ops.check_all(repo.ws))
    real = check_ops.check_all
    undone: list[Path] = []

    async def check_all(ws: Workspace, *args: Any, **kwargs: Any) -> Checked:
        checked = await real(ws, *args, **kwargs)
        if not undone:  # the edit undone right after the check, before its texts are read
            undone.append(broken)
            broken.write_text(head)
            await ws.refresh_open_documents(catch_up=True)  # the watcher has seen it
        return checked

    monkeypatch.setattr(check_ops, "check_all", check_all)
    assert rows(from_kept(repo)) == ([], [])
    assert undone == [broken]
    monkeypatch.undo()
    # HEAD's kept result holds the error's snippet of HEAD's text: nothing new, nothing fixed
    assert rows(from_kept(repo)) == ([], [])
