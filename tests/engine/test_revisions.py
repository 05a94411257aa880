"""The files differing from a baseline, read with as few git runs as they need
(`engine/revisions.py`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from lspd.engine import revisions
from lspd.errors import InvalidInput
from lspd.workspace import Workspace


def committed(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    for name, text in files.items():
        (root / name).write_text(text)
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "base"]):
        command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
        subprocess.run(command, cwd=root, check=True, capture_output=True)
    return root


def test_the_differences_are_read_with_one_git_run_naming_the_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The repository and the commit are asked in one `git rev-parse` (two before: a
    question's git runs are 3-12 ms each at load 10); which one is missing is asked only
    when one is, and said as before."""
    root = committed(tmp_path / "p", {"a.ts": "export const a = 1;\n", "b.ts": "export {};\n"})
    (root / "a.ts").write_text("export const a = 2;\n")
    runs: list[tuple[str, ...]] = []
    git = revisions.git

    def counted(where: Path, *args: str) -> str | None:
        runs.append(args)
        return git(where, *args)

    monkeypatch.setattr(revisions, "git", counted)
    ws = Workspace(root, log_dir=tmp_path / "logs")
    delta = revisions.differences(ws, "HEAD")
    assert delta.before == {root / "a.ts": "export const a = 1;\n"}
    assert delta.after == {root / "a.ts": "export const a = 2;\n"}
    assert [run[0] for run in runs] == ["rev-parse", "diff", "ls-files", "show"]
    runs.clear()
    with pytest.raises(InvalidInput, match=r"'HEAD~1' is not a git revision here; send e\.g\."):
        revisions.differences(ws, "HEAD~1")
    assert [run[0] for run in runs] == ["rev-parse", "rev-parse"]
    elsewhere = tmp_path / "x"
    elsewhere.mkdir()
    with pytest.raises(InvalidInput, match=r"x is not in a git repository, so there is no 'HEAD'"):
        revisions.differences(Workspace(elsewhere, log_dir=tmp_path / "logs2"), "HEAD")
