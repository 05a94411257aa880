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
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed

FILES = {f"app/pkg/m{n}.py": f"def f{n}() -> int:\n    return {n}\n" for n in range(300)}


def test_a_mass_touch_is_no_change_and_costs_a_few_git_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    top = committed(written(tmp_path / "repo", {**FILES, "app/pyproject.toml": "[project]\n"}))
    root = top / "app"
    recorded = root / "pkg/m1.py"
    recorded.write_text(FILES["app/pkg/m1.py"] + "x = 1\n")  # differing as the turn began
    runs: list[tuple[str, ...]] = []
    git = revisions.git

    def counted(where: Path, *args: str, given: str | None = None) -> str | None:
        runs.append(args)
        return git(where, *args, given=given)

    for warm in warm_root(root, tmp_path / "logs", watch=True):
        start = warm.run(turn_start.record(warm.ws, "HEAD"))
        assert start is not None and list(start.texts) == [recorded]
        for path in root.rglob("*.py"):
            os.utime(path, ns=(start.began_ns + 1, start.began_ns + 1))
        monkeypatch.setattr(turn_start, "git", counted)
        monkeypatch.setattr(revisions, "git", counted)
        assert turn_start._missed(warm.ws, start, set()) is False
        assert [args[0] for args in runs] == ["rev-parse", "hash-object", "cat-file"]
        runs.clear()
        (root / "pkg/m7.py").write_text("def f7() -> str:\n    return ''\n")  # unseen
        assert turn_start._missed(warm.ws, start, set()) is True
        assert turn_start._missed(warm.ws, start, {root / "pkg/m7.py"}) is False
        recorded.write_text(FILES["app/pkg/m1.py"])  # the commit's, not its text then
        assert turn_start._missed(warm.ws, start, {root / "pkg/m7.py"}) is True
