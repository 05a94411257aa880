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


def git_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The arguments of every git run `revisions` makes from now on."""
    runs: list[tuple[str, ...]] = []
    git = revisions.git

    def counted(where: Path, *args: str) -> str | None:
        runs.append(args)
        return git(where, *args)

    monkeypatch.setattr(revisions, "git", counted)
    return runs


def test_the_differences_are_read_with_one_git_run_naming_the_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The repository and the commit are asked in one `git rev-parse` (two before: a
    question's git runs are 3-12 ms each at load 10); which one is missing is asked only
    when one is, and said as before."""
    root = committed(tmp_path / "p", {"a.ts": "export const a = 1;\n", "b.ts": "export {};\n"})
    (root / "a.ts").write_text("export const a = 2;\n")
    runs = git_runs(monkeypatch)
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


def test_the_configurations_edited_since_are_read_from_the_question_s_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`configs_then` takes the changed names from the listing that found the changed files
    (it ran its own `git diff` and `ls-files` beside them, and `_AtCommit` a `rev-parse
    --show-toplevel`): only the edited configurations' texts are asked of git; one a
    tsconfig extends under another name, unchanged since, is the disk's. The same answer as
    without a listing (read then: three runs, as before)."""
    root = committed(
        tmp_path / "p",
        {
            "tsconfig.json": '{ "extends": "./settings.json", "include": ["a.ts"] }\n',
            "settings.json": '{ "compilerOptions": { "strict": true } }\n',
            "base.json": '{ "compilerOptions": { "noEmit": true } }\n',
            "a.ts": "export const a = 1;\n",
        },
    )
    (root / "a.ts").write_text("export const a = 2;\n")
    (root / "base.json").write_text('{ "compilerOptions": { "noEmit": false } }\n')
    (root / "settings.json").write_text(
        '{ "extends": "./base.json", "compilerOptions": { "strict": true } }\n'
    )
    (root / "sub").mkdir()
    (root / "sub" / "mypy.ini").write_text("[mypy]\n")  # new, untracked
    configs = [root / "tsconfig.json", root / "settings.json", root / "base.json"]
    runs = git_runs(monkeypatch)
    ws = Workspace(root, log_dir=tmp_path / "logs")
    sha, top = revisions.at_commit(ws, "HEAD")
    listed = revisions.listing(ws, sha, top)
    assert listed.names == {"a.ts", "base.json", "settings.json", "sub/mypy.ini"}
    runs.clear()
    then = revisions.configs_then(ws, sha, configs, listed)
    settings = '{ "compilerOptions": { "strict": true } }\n'
    # base.json: extended now, not at HEAD: not read there (None)
    assert then == {
        root / "settings.json": settings,
        root / "base.json": None,
        root / "sub" / "mypy.ini": None,
    }
    shown = sorted(run[1] for run in runs if run[0] == "show")
    assert [run[0] for run in runs] == ["show"] * 3  # tsconfig.json, unchanged: the disk's
    assert shown == [f"{sha}:./base.json", f"{sha}:./settings.json", f"{sha}:./sub/mypy.ini"]
    runs.clear()
    assert revisions.configs_then(ws, sha, configs) == then
    assert [run[0] for run in runs][:3] == ["rev-parse", "diff", "ls-files"]
    assert "rev-parse" not in [run[0] for run in runs][3:]
