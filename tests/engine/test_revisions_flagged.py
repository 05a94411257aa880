"""Files git is told to take as unchanged (`git update-index --assume-unchanged`, or
`--skip-worktree` as sparse checkouts and local config files have it): git diff and git
status say no edit of them, so lspd compares them with the baseline by content
(`engine/revisions.py`, `_hidden_edits`), and never changes their flags. Real git, and real
TypeScript and basedpyright through the CLI, one-shot and through a daemon (issue 40: an
edit of such a file was "unchanged", its errors HEAD's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lspd.engine import revisions
from lspd.workspace import Workspace
from tests.cli.test_check import lspd_check
from tests.conftest import copy_fixture
from tests.daemon.support import thread_daemon
from tests.engine.test_revisions import committed, git_runs
from tests.ops.test_baseline import committed as fixture_committed

BAD_TS = 'export const bad: number = "x";\n'
TS_ERROR = "src/shapes.ts:25:14: error: Type 'string' is not assignable to type 'number'. [2322]"
BAD_PY = 'BAD: int = "x"\n'
PY_ERROR = (
    'pkg/extra.py:7:12: error: Type "Literal[\'x\']" is not assignable to declared type "int"'
)
PY_WHY = '  "Literal[\'x\']" is not assignable to "int" [reportAssignmentType]'


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=True)
    return done.stdout.decode()


def flags(root: Path) -> str:
    """`git ls-files -v`: each tracked file's tag (lowercase: assume-unchanged; S: skip)."""
    return git(root, "ls-files", "-v")


def test_edits_git_does_not_see_are_differences_by_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An assume-unchanged file edited and a skip-worktree one edited differ from HEAD with
    both texts; an assume-unchanged one deleted is deleted; a skip-worktree one absent is
    not checked out (a sparse checkout's), and a flagged one as committed is no difference.
    git runs: the two of the comparison, for all the flagged files at once. The flags are
    as they were (lspd writes nothing into the repository)."""
    files = {f"{n}.ts": f"export const {n} = 1;\n" for n in ("a", "b", "c", "d", "e", "f")}
    root = committed(tmp_path / "p", files)
    for name in "ace":  # f.ts: no flag, as committed
        git(root, "update-index", "--assume-unchanged", f"{name}.ts")
    for name in "bd":
        git(root, "update-index", "--skip-worktree", f"{name}.ts")
    was = flags(root)
    (root / "a.ts").write_text("export const a = 2;\n")
    (root / "b.ts").write_text("export const b = 2;\n")
    (root / "c.ts").unlink()
    (root / "d.ts").unlink()
    assert git(root, "status", "--porcelain") == ""  # git sees none of them
    runs = git_runs(monkeypatch)
    delta = revisions.differences(Workspace(root, log_dir=tmp_path / "logs"), "HEAD")
    assert delta.before == {
        root / "a.ts": "export const a = 1;\n",
        root / "b.ts": "export const b = 1;\n",
        root / "c.ts": "export const c = 1;\n",
    }
    assert delta.after == {
        root / "a.ts": "export const a = 2;\n",
        root / "b.ts": "export const b = 2;\n",
        root / "c.ts": None,
    }
    compared = ["rev-parse", "diff", "ls-files", "hash-object", "cat-file"]
    assert [run[0] for run in runs] == [*compared, "show", "show", "show"]  # a, b, c's then
    assert flags(root) == was


def test_a_flagged_file_below_the_workspace_against_an_older_commit(tmp_path: Path) -> None:
    """A workspace in a folder of the repository, asked against HEAD~1: a flagged file
    edited on disk differs (compared with HEAD~1's blob by its path from the top); one
    changed by the last commit and flagged since differs too (git's own diff says it), and
    one flagged, unchanged since HEAD~1, does not."""
    top = committed(tmp_path / "top", {"README": "r\n"})
    web = top / "web"
    web.mkdir()
    for name in ("x", "y", "z"):
        (web / f"{name}.ts").write_text(f"export const {name} = 1;\n")
    git(top, "add", "-A")
    git(top, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "web")
    (web / "y.ts").write_text("export const y = 2;\n")
    git(top, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "y")
    for name in ("x", "y", "z"):
        git(top, "update-index", "--skip-worktree", f"web/{name}.ts")
    (web / "x.ts").write_text("export const x = 3;\n")
    delta = revisions.differences(Workspace(web, log_dir=tmp_path / "logs"), "HEAD~1")
    then = {web / "x.ts": "export const x = 1;\n", web / "y.ts": "export const y = 1;\n"}
    now = {web / "x.ts": "export const x = 3;\n", web / "y.ts": "export const y = 2;\n"}
    assert (delta.before, delta.after) == (then, now)


def test_a_typescript_edit_of_an_assume_unchanged_file_is_new_since_head(tmp_path: Path) -> None:
    """`lspd check --baseline HEAD`, one-shot, on real TypeScript: before, "0 new since HEAD
    (0 error(s)), 0 fixed, 2 unchanged; 0 changed file(s)" and exit 0."""
    root = fixture_committed(copy_fixture("ts", tmp_path))
    git(root, "update-index", "--assume-unchanged", "src/shapes.ts")
    shapes = root / "src/shapes.ts"
    shapes.write_text(shapes.read_text() + "\n" + BAD_TS)
    done = lspd_check(root, "--baseline", "HEAD")
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == TS_ERROR
    assert lines[1].startswith("1 new since HEAD (1 error(s)), 0 fixed, 1 unchanged; 1 changed")
    assert "h src/shapes.ts" in flags(root).splitlines()  # its flag as it was


def test_a_python_edit_of_a_skip_worktree_file_through_the_daemon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """basedpyright through a daemon started after the skip-worktree file's edit (HEAD's
    result made then, of HEAD's text): the workspace and the file asked against HEAD;
    before, "0 new since HEAD (0 error(s)), 0 fixed, 4 unchanged; 0 changed file(s)" and
    exit 0, the edit's error taken for HEAD's. The edit undone, nothing differs."""
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = fixture_committed(copy_fixture("py", tmp_path))
    git(root, "update-index", "--skip-worktree", "pkg/extra.py")
    extra = root / "pkg/extra.py"
    head = extra.read_text()
    extra.write_text(head + "\n" + BAD_PY)
    with thread_daemon(root, prewarm=False):
        for argv, said in (
            (["check"], "1 new since HEAD (1 error(s)), 0 fixed, 3 unchanged; 1 changed file(s)"),
            (["diagnostics", "pkg/extra.py"], "1 new since HEAD (1 error(s), 0 warning(s)), 0 f"),
        ):
            done = lspd(root, *argv, "--baseline", "HEAD")
            assert done.returncode == 1, done.stdout + done.stderr
            lines = done.stdout.splitlines()
            assert lines[:2] == [PY_ERROR, PY_WHY]
            assert lines[2].startswith(said), lines
        extra.write_text(head)
        done = lspd(root, "check", "--baseline", "HEAD")
        assert done.stdout.startswith("0 new since HEAD (0 error(s)), 0 fixed, 3 unchanged; 0 ch")
    assert "S pkg/extra.py" in flags(root).splitlines()  # its flag as it was


def test_an_edit_of_a_flagged_file_while_the_daemon_runs_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HEAD's result made on the clean tree, then the assume-unchanged file edited: the
    watcher follows the disk, not git, so the check sees the edit; the file is one changed
    (before: "0 changed file(s)", the new error said all the same)."""
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = fixture_committed(copy_fixture("py", tmp_path))
    git(root, "update-index", "--assume-unchanged", "pkg/extra.py")
    extra = root / "pkg/extra.py"
    with thread_daemon(root, prewarm=False):
        clean = lspd(root, "check", "--baseline", "HEAD")
        assert clean.stdout.startswith("0 new since HEAD (0 error(s)), 0 fixed, 3 unchanged; 0 ")
        extra.write_text(extra.read_text() + "\n" + BAD_PY)
        lines = lspd(root, "check", "--baseline", "HEAD").stdout.splitlines()
    assert lines[:2] == [PY_ERROR, PY_WHY]
    assert lines[2].startswith("1 new since HEAD (1 error(s)), 0 fixed, 3 unchanged; 1 changed ")


def lspd(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "lspd", *argv]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300)
