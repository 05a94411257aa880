"""The committed state's result is made of one disk state: the check and the texts its
snippets are read from (`engine/committed.py`), also when an edit is undone while it runs;
a dirty tree's disk state sampled again (after HEAD's texts were held) only where it
differs, in the order asked (real basedpyright, asks counted per file)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from lspd.engine.kept_memory import memory_of
from lspd.engine.seen import FileSeen
from lspd.ops import check as check_ops
from lspd.ops.check import Checked
from lspd.ops.models import Changes
from lspd.workspace import Workspace
from tests.conftest import Warm
from tests.ops.test_baseline import asked
from tests.ops.test_changes import cycle, cycle_x
from tests.ops.test_committed import from_kept, repo, rows

CLASS = "reportGeneralTypeIssues"  # the cycle's class error (tests/ops/test_changes.py)
# the fixtures: a git repository of the Python fixture, watched; the import cycle's
__all__ = ["cycle", "cycle_x", "repo"]


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


def head_compared(warm: Warm) -> Changes:
    """`check --baseline HEAD` (the kept result made now, the tree dirty)."""
    result = warm.run(check_ops.workspace_diagnostics(warm.ws, limit=1000, baseline="HEAD"))
    assert result.changes is not None
    assert "against the kept result of" in result.changes.scope
    return result.changes


def test_the_second_sample_asks_again_only_the_files_that_differ(
    cycle: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dirty tree's HEAD state (c.py's HEAD text held) differs from the work tree's check
    in a.py and b.py (the edit breaks their `c.SIZE`; c.py has no error either way): the
    disk's second sample asks those two again, in the order they were asked, and not c.py.
    Before, every file asked at HEAD's texts was asked again once one differed (after a
    core change: every reached file twice)."""
    (cycle.root / "c.py").write_text("WIDTH = 1\n")
    counts = asked(monkeypatch, cycle)
    changes = head_compared(cycle)
    assert len(changes.introduced) == 6 and changes.fixed == []
    assert {d.path for d in changes.introduced} == {"a.py", "b.py"}
    # the work tree's check, HEAD's state (c.py's HEAD text held), the second sample
    assert counts == {"a.py": 3, "b.py": 3, "c.py": 2}  # was c.py: 3


def test_the_second_sample_keeps_the_order_the_files_were_asked_in(
    cycle_x: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review's order-dependent case (tests/ops/test_changes.py) against a dirty tree's
    HEAD state: X.py has no difference, but asked before a.py it decides where the cycle's
    class error stands, so the disk's second sample asks it again before them (a.py and
    b.py alone moved the error to b.py; a disk check placing it there too would then call
    it introduced in b.py and fixed in a.py); the edit's two real errors are introduced."""
    (cycle_x.root / "c.py").write_text('SIZE = "1"\n')
    counts = asked(monkeypatch, cycle_x)
    changes = head_compared(cycle_x)
    introduced = sorted((d.path, d.line, d.code) for d in changes.introduced)
    assert introduced == [("a.py", 8, "reportAssignmentType"), ("b.py", 8, "reportAssignmentType")]
    assert changes.fixed == []
    # X.py, without a difference, asked again before a.py and b.py; c.py (after them) not
    assert counts == {"X.py": 3, "a.py": 3, "b.py": 3, "c.py": 2}
    memory = memory_of(cycle_x.ws)
    assert memory.state is not None
    sample = {path: seen for path, (_, seen) in memory.again[memory.state.key].items()}
    # the sample places the class error where HEAD's state did (a.py and b.py alone: b.py)
    assert class_error_in(sample) == class_error_in(memory.state.files) == ["a.py"]


def class_error_in(files: Mapping[str, FileSeen]) -> list[str]:
    """The files of the cycle holding its class error ("cannot derive from itself")."""
    return [p for p in ("a.py", "b.py") if any(d.code == CLASS for d in files[p].diagnostics)]
