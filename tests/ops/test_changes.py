"""An error the unchanged code also has is never introduced, even from a checker whose
answer depends on the order it met the files in (issue 30 item 5).

The fixture's a.py and b.py derive their classes from each other; basedpyright reports
"Class cannot derive from itself" in whichever of the two it reaches second (its CLI: `a.py
b.py` puts it in b.py, `b.py a.py` in a.py). Asking b.py first leaves it in a.py; a
comparison that took that stale answer for the unchanged text and a fresh one for the
changed text called b.py's error introduced and a.py's fixed (measured before the fix:
`preview` and `check --baseline`, for an edit of c.py that touches neither class).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from lspd.ops import (
    check,
    file_diagnostics,
    overlaid_check,
    preview,
    progressive,
    progressive_kept,
)
from lspd.ops.models import Changes
from lspd.workspace import Workspace
from tests.conftest import Warm, copy_fixture, warm_root

EDITED_C = "SIZE = 1\n\n\ndef more() -> int:\n    return 2\n"
CYCLE = [(1, "reportImportCycles"), (5, "reportGeneralTypeIssues"), (5, "reportUntypedBaseClass")]


@pytest.fixture
def cycle(tmp_path: Path) -> Iterator[Warm]:
    """The cycle fixture, committed in a git repository of its own, b.py asked first."""
    root = copy_fixture("cycle_py", tmp_path)
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(["git", "-C", str(root), *identity, *command], check=True)
    yield from warm_root(root, tmp_path / "logs")


def ask_b_then_a(warm: Warm) -> None:
    """b.py asked first: the server reports the cycle's class error in a.py."""
    answers = [warm.run(file_diagnostics.diagnostics(warm.ws, f)) for f in ("b.py", "a.py")]
    assert [[(d.line, d.code) for d in r.diagnostics] for r in answers] == [[], CYCLE]


def nothing_new(changes: Changes | None) -> None:
    assert changes is not None
    assert (changes.introduced, changes.fixed) == ([], [])


def test_preview_compares_with_the_unchanged_text_checked_the_same_way(cycle: Warm) -> None:
    ask_b_then_a(cycle)
    change = [{"path": "c.py", "content": EDITED_C}]
    result = cycle.run(preview.preview(cycle.ws, change))
    nothing_new(result.changes)
    assert (result.errors, result.warnings) == (0, 0)


def test_check_against_a_baseline(cycle: Warm) -> None:
    (cycle.root / "c.py").write_text(EDITED_C)
    ask_b_then_a(cycle)
    result = cycle.run(check.workspace_diagnostics(cycle.ws, baseline="HEAD"))
    nothing_new(result.changes)


def test_one_file_against_a_baseline(cycle: Warm) -> None:
    (cycle.root / "c.py").write_text(EDITED_C)
    ask_b_then_a(cycle)
    result = cycle.run(file_diagnostics.diagnostics(cycle.ws, "a.py", baseline="HEAD"))
    nothing_new(result.changes)


def test_the_hook_check(cycle: Warm) -> None:
    (cycle.root / "c.py").write_text(EDITED_C)
    ask_b_then_a(cycle)
    progress = progressive.Progress("HEAD", [cycle.root / "c.py"])
    cycle.run(progressive_kept.run(cycle.ws, progress))
    assert progress.failed is None and progress.changed == [cycle.root / "c.py"]
    assert progress.introduced == []


def test_a_real_break_is_still_introduced(cycle: Warm) -> None:
    ask_b_then_a(cycle)
    result = cycle.run(preview.preview(cycle.ws, [{"path": "c.py", "content": "WIDTH = 1\n"}]))
    introduced = [(d.path, d.line, d.code) for d in result.changes.introduced]
    # (errors first; in basedpyright's default mode the unknown types are warnings too)
    assert introduced == [
        ("a.py", 8, "reportAttributeAccessIssue"),
        ("b.py", 8, "reportAttributeAccessIssue"),
        ("a.py", 8, "reportUnknownVariableType"),
        ("a.py", 8, "reportUnknownMemberType"),
        ("b.py", 8, "reportUnknownVariableType"),
        ("b.py", 8, "reportUnknownMemberType"),
    ]
    assert result.changes.fixed == []


@pytest.fixture
def cycle_x(tmp_path: Path) -> Iterator[Warm]:
    """The cycle with `SIZE: int = c.SIZE` in a.py and b.py, and X.py, asked first (sorted
    before a.py), naming c.SIZE without an error either way and reaching class A first."""
    root = copy_fixture("cycle_py", tmp_path)
    for name, other in (("a", "b"), ("b", "a")):
        (root / f"{name}.py").write_text(
            f"import c\nfrom {other} import {other.upper()}\n\n\n"
            f"class {name.upper()}({other.upper()}): ...\n\n\nSIZE: int = c.SIZE\n"
        )
    (root / "X.py").write_text(
        "import c\nfrom a import A\n\nWIDE = c.SIZE\n\n\ndef f() -> A:\n    return A()\n"
    )
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(["git", "-C", str(root), *identity, *command], check=True)
    yield from warm_root(root, tmp_path / "logs")


def test_the_second_sample_keeps_the_order_the_files_were_asked_in(cycle_x: Warm) -> None:
    """A review's case: X.py has no difference, but asked before a.py it decides where the
    cycle's class error stands; a second sample without it moved the error (introduced in
    a.py, fixed in b.py, for an edit of c.py that touches neither class)."""
    for name in ("a.py", "b.py"):
        cycle_x.run(file_diagnostics.diagnostics(cycle_x.ws, name))
    change = [{"path": "c.py", "content": 'SIZE = "1"\n'}]
    result = cycle_x.run(preview.preview(cycle_x.ws, change))
    assert result.changes is not None
    introduced = sorted((d.path, d.line, d.code) for d in result.changes.introduced)
    assert introduced == [("a.py", 8, "reportAssignmentType"), ("b.py", 8, "reportAssignmentType")]
    assert result.changes.fixed == []


def test_only_the_files_that_differ_are_asked_again(
    cycle: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unchanged text's second sample is of the files with an introduced or fixed
    diagnostic: c.py, changed without an error of its own, is not asked again (after a core
    change every reached file was: twice the check)."""
    asked: list[list[str]] = []
    diagnose = overlaid_check.diagnose

    async def spied(ws: Workspace, files: list[Path], texts: Mapping[Path, str | None]) -> Any:
        asked.append([ws.display(f) for f in files])
        return await diagnose(ws, files, texts)

    monkeypatch.setattr(overlaid_check, "diagnose", spied)
    ask_b_then_a(cycle)
    result = cycle.run(preview.preview(cycle.ws, [{"path": "c.py", "content": "WIDTH = 1\n"}]))
    assert len(result.changes.introduced) == 6 and result.changes.fixed == []
    assert asked == [[], ["a.py", "b.py"]]  # (the files outside the gate's check: none)
