"""Whether a file written since the turn began, that the watcher did not see, keeps the turn's
start from being replayed (`ops/turn_start._missed`, under the gate's exclusive lock): a
mass `touch` (every file's mtime moved, its bytes the same) is no change, compared with the
commit in two git runs for all; before, one `git show` each (1000 files: 5-6 s). Real git,
a workspace below the repository's top, its watcher (no language server)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lspd.engine import revisions
from lspd.ops import turn_start
from lspd.ops.turn_configured import Then
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.engine.test_revisions import git_runs
from tests.ops.test_baseline import committed

FILES = {f"app/pkg/m{n}.py": f"def f{n}() -> int:\n    return {n}\n" for n in range(300)}


def test_a_mass_touch_is_no_change_and_costs_a_few_git_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, recorded = project(tmp_path)
    runs = counted(monkeypatch)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        start = warm.run(turn_start.record(warm.ws, "HEAD"))
        assert start is not None and list(start.texts) == [recorded]
        for path in root.rglob("*.py"):
            os.utime(path, ns=(start.began_ns + 1, start.began_ns + 1))
        runs.clear()
        assert turn_start._missed(warm.ws, start, set()) is False
        assert [args[0] for args in runs] == ["rev-parse", "hash-object", "cat-file"]
        runs.clear()
        (root / "pkg/m7.py").write_text("def f7() -> str:\n    return ''\n")  # unseen
        assert turn_start._missed(warm.ws, start, set()) is True
        assert turn_start._missed(warm.ws, start, {root / "pkg/m7.py"}) is False
        recorded.write_text(FILES["app/pkg/m1.py"])  # the commit's, not its text then
        assert turn_start._missed(warm.ws, start, {root / "pkg/m7.py"}) is True


def test_files_written_again_alike_are_no_change_and_cost_a_few_git_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watcher saw them written (`sed -i` of every file, its text the same): their texts
    then are not held (`_texts_then`). Before, one `git show` each, under the gate."""
    root, recorded = project(tmp_path)
    runs = counted(monkeypatch)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        start = warm.run(turn_start.record(warm.ws, "HEAD"))
        assert start is not None
        every = sorted(root.rglob("*.py"))
        runs.clear()
        assert turn_start._texts_then(warm.ws, start, every) == Then({}, {})
        assert [args[0] for args in runs] == ["rev-parse", "hash-object", "cat-file"]
        m7 = root / "pkg/m7.py"
        m7.write_text("def f7() -> str:\n    return ''\n")
        recorded.write_text(FILES["app/pkg/m1.py"])
        then = turn_start._texts_then(warm.ws, start, every)
        texts = {m7: FILES["app/pkg/m7.py"], recorded: FILES["app/pkg/m1.py"] + "x = 1\n"}
        assert then == Then(texts, {})


def project(tmp_path: Path) -> tuple[Path, Path]:
    """`FILES` committed, the workspace below the repository's top, and the file that
    differs from the commit as the turn begins."""
    top = committed(written(tmp_path / "repo", {**FILES, "app/pyproject.toml": "[project]\n"}))
    recorded = top / "app/pkg/m1.py"
    recorded.write_text(FILES["app/pkg/m1.py"] + "x = 1\n")
    return top / "app", recorded


def counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The git runs of revisions and turn_start from now on, each its arguments."""
    runs = git_runs(monkeypatch)
    monkeypatch.setattr(turn_start, "git", revisions.git)  # the counting one
    return runs
