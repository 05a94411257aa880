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

    def counted(where: Path, *args: str, given: str | None = None) -> str | None:
        runs.append(args)
        return git(where, *args, given=given)

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


def test_a_configuration_of_its_own_name_is_told_by_its_path(tmp_path: Path) -> None:
    """starlette's scripts/coverage, a script its gate may run, read as a configuration:
    an untracked, unignored .venv/bin/coverage of the same name was taken for it, edited
    since HEAD (absent there), and every `check --baseline HEAD` was refused. A usual name
    (mypy.ini) is one wherever it is, as before."""
    root = committed(tmp_path / "p", {"coverage": "#!/bin/sh\necho hi\n", "a.py": ""})
    (root / "bin").mkdir()
    (root / "bin" / "coverage").write_text("#!/usr/bin/python\n")  # untracked
    (root / "bin" / "mypy.ini").write_text("[mypy]\n")
    ws = Workspace(root, log_dir=tmp_path / "logs")
    then = revisions.configs_then(ws, "HEAD", [root / "coverage"])
    assert then == {root / "bin" / "mypy.ini": None}


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


SHAPES = "def area(w: int, h: int) -> int:\n    return w * h\n"
Texts = dict[str, tuple[str | None, str | None]]  # a file's name: its texts then and now
STAGED: dict[str, tuple[list[str], Texts]] = {
    # git mv: git's own rename detection (`diff.renames`, on by default) named the new
    # path alone, so HEAD's state held the old path at the disk's (absent), not HEAD's text
    "rename": (["mv", "shapes.py", "geometry.py"], {"shapes.py": (SHAPES, None)}),
    "deletion": (["rm", "-q", "shapes.py"], {"shapes.py": (SHAPES, None)}),
    "deletion kept on disk": (["rm", "-q", "--cached", "shapes.py"], {"shapes.py": (SHAPES,) * 2}),
}


@pytest.mark.parametrize("case", sorted(STAGED))
def test_a_staged_change_differs_from_head_by_head_s_tree(tmp_path: Path, case: str) -> None:
    """A change staged in the index (`git mv`, `git rm`, `git add` of a new file or an
    edit) differs from HEAD as the same change unstaged does: each path HEAD's tree holds
    and the disk does not is listed with HEAD's text (before: a staged rename listed the
    new path alone, and HEAD's kept result was made without the old file)."""
    root = committed(tmp_path / "p", {"shapes.py": SHAPES, "main.py": "import shapes\n"})
    command, expected = STAGED[case]
    _git(root, *command)
    (root / "new.py").write_text("x = 1\n")
    (root / "main.py").write_text("import geometry\n")
    _git(root, "add", "new.py", "main.py")
    delta = revisions.differences(Workspace(root, log_dir=tmp_path / "logs"), "HEAD")
    both = {p.name: (delta.before[p], delta.after[p]) for p in delta.before}
    moved = {"geometry.py": (None, SHAPES)} if case == "rename" else {}
    added = {"new.py": (None, "x = 1\n"), "main.py": ("import shapes\n", "import geometry\n")}
    assert both == {**expected, **moved, **added}


def test_a_text_at_the_commit_is_shown_once_a_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A JSON a tsconfig extends under another name, edited since, is a configuration to
    `configs_then` and a JSON module to `differences`: one `git show` of it for the
    question's listing, where each step ran its own (`lspd check --baseline HEAD` of a
    settings.json edit: 6 git runs, 5 now)."""
    root = committed(
        tmp_path / "p",
        {
            "tsconfig.json": '{ "extends": "./settings.json", "include": ["a.ts"] }\n',
            "settings.json": '{ "compilerOptions": { "strict": true } }\n',
            "a.ts": "export const a = 1;\n",
        },
    )
    (root / "settings.json").write_text('{ "compilerOptions": { "strict": false } }\n')
    ws = Workspace(root, log_dir=tmp_path / "logs")
    sha, top = revisions.at_commit(ws, "HEAD")
    listed = revisions.listing(ws, sha, top)
    runs = git_runs(monkeypatch)
    committed_text = '{ "compilerOptions": { "strict": true } }\n'
    configs = [root / "tsconfig.json", root / "settings.json"]
    assert revisions.configs_then(ws, sha, configs, listed) == {
        root / "settings.json": committed_text
    }
    assert revisions.differences(ws, sha, listed).before == {root / "settings.json": committed_text}
    assert runs == [("show", f"{sha}:./settings.json")]


def test_an_environment_git_does_not_ignore_holds_no_change(tmp_path: Path) -> None:
    """httpcore's .gitignore names `venv*/`, not `.venv`: the packages there that ship a
    mypy.ini or setup.cfg (numpy's, matplotlib's) were configurations edited since HEAD,
    and every baseline was refused. A folder holding `pyvenv.cfg`, whatever its name, and
    node_modules, are no source of the work tree; an untracked file elsewhere is one."""
    root = committed(tmp_path / "p", {"a.py": "a = 1\n"})
    for name in (
        ".venv/pyvenv.cfg",
        ".venv/lib/python3.12/site-packages/dep/tests/mypy.ini",
        "env/pyvenv.cfg",
        "env/lib/setup.cfg",
        "node_modules/dep/package.json",
        "sub/mypy.ini",
    ):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("[mypy]\n")
    ws = Workspace(root, log_dir=tmp_path / "logs")
    sha, top = revisions.at_commit(ws, "HEAD")
    assert revisions.listing(ws, sha, top).names == {"sub/mypy.ini"}
    then = revisions.configs_then(ws, sha, [root / "a.py"])
    assert then == {root / "sub" / "mypy.ini": None}
