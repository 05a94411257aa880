"""`diagnostics PATH --baseline` of a file deleted since the baseline
(`ops/file_since_kept.deleted_now`), on a real git repository and basedpyright: answered as
`check --baseline HEAD PATH` answers it (c5da83d): every diagnostic it had fixed, none
introduced, the file changed; from HEAD's kept result once kept, else from its state at
HEAD's texts. Before, it was refused: "pkg/helper.py does not exist; send the path of an
existing file"."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops import check as check_ops
from lspd.ops import file_diagnostics
from tests.conftest import Warm, answer, warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.ops.test_mypy_held_files import FILES, truth
from tests.ops.test_since_kept import MOVES, codes, from_kept, imported, moved, seen
from tests.workspace.mypy_env import project

__all__ = ["imported"]  # the fixture: pkg/helper.py's error, imported by pkg/user.py

HELPERS = [
    ("pkg/helper.py", 2, "reportUndefinedVariable"),
    ("pkg/helper.py", 2, "reportUnknownVariableType"),
]


@pytest.mark.parametrize("kept_first", [True, False])
def test_a_deleted_files_baseline_fixes_its_diagnostics(imported: Warm, kept_first: bool) -> None:
    if kept_first:
        from_kept(imported)  # a clean tree: HEAD's result kept
    (imported.root / "pkg/helper.py").unlink()
    seen(imported)
    result = imported.run(
        file_diagnostics.diagnostics(imported.ws, "pkg/helper.py", baseline="HEAD")
    )
    changes = result.changes
    assert changes is not None
    assert codes(changes.fixed) == HELPERS and changes.fixed_total == 2
    assert changes.introduced == [] and changes.unchanged == 0
    assert "pkg/helper.py" in changes.changed
    assert "deleted since HEAD" in changes.scope
    kept = "against the kept result of" if kept_first else "changed files' HEAD texts held"
    assert kept in changes.scope
    assert (result.path, result.server, result.errors, result.total) == (
        "pkg/helper.py",
        "basedpyright",
        0,
        0,
    )
    whole = imported.run(
        check_ops.workspace_diagnostics(imported.ws, paths=["pkg/helper.py"], baseline="HEAD")
    )
    assert whole.changes is not None and codes(whole.changes.fixed) == HELPERS


def test_a_path_the_baseline_lacks_too_is_still_refused(imported: Warm) -> None:
    with pytest.raises(InvalidInput, match=r"pkg/never\.py does not exist"):
        imported.run(file_diagnostics.diagnostics(imported.ws, "pkg/never.py", baseline="HEAD"))


def test_a_deleted_files_baseline_on_mypy(tmp_path: Path) -> None:
    """A mypy-gated project (httpx's shape, run once): the deleted app/main.py's errors, as
    the project's own mypy gives them at HEAD, are fixed (mypy's answer already said so:
    its run of the project answers a file that is gone; this keeps it)."""
    root = committed(project(tmp_path / "p", FILES))
    at_head = {
        (line, code) for file, line, code in truth(root, tmp_path, {}) if file == "app/main.py"
    }
    assert at_head == {(1, "assignment"), (2, "unused-ignore")}
    (root / "app/main.py").unlink()
    result = answer(
        root, lambda ws: file_diagnostics.diagnostics(ws, "app/main.py", baseline="HEAD")
    )
    assert result.changes is not None and result.changes.introduced == []
    assert {(d.line, d.code) for d in result.changes.fixed} == at_head
    assert result.server == "mypy" and "app/main.py" in result.changes.changed


@pytest.mark.parametrize("kind", list(MOVES))
def test_a_renamed_files_baseline_is_its_old_paths_kept_result(tmp_path: Path, kind: str) -> None:
    """`diagnostics NEW --baseline HEAD` of a file moved by a plain `mv` (its importers
    updated), HEAD's result kept: its errors are its old path's, unchanged, and the answer
    says the rename. Before: every one introduced ("this file, new since HEAD")."""
    files, old, new, error = MOVES[kind]
    made = project if kind == "mypy" else written
    root = made(tmp_path / kind, files)
    for warm in warm_root(committed(root), tmp_path / "logs", watch=True):
        from_kept(warm)
        moved(root, old, new)
        seen(warm)
        result = warm.run(file_diagnostics.diagnostics(warm.ws, new, baseline="HEAD"))
        changes = result.changes
        assert changes is not None and "against the kept result of" in changes.scope
        assert (changes.introduced, changes.fixed) == ([], [])
        assert changes.renamed == {old: new} and f"renamed: {old} -> {new}" in changes.scope
        assert changes.unchanged >= 1 and error[1:] in [
            (d.line, d.code)
            for d in warm.run(check_ops.check_all(warm.ws)).everything
            if d.path == new
        ]
