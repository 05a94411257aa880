"""The kept result of the committed state (`engine/committed.py`) in the git states issue 40
names beside a plain branch: a shallow clone, a rebase stopped on a conflict, and another
revision than HEAD (kept per commit as HEAD's is). Each is answered right, or refused saying
what to send, and the repository is left as it was."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine.kept_memory import kept_folder, memory_of
from lspd.errors import InvalidInput
from lspd.ops import check as check_ops
from tests.conftest import Warm, copy_fixture, warm_root
from tests.engine.test_affected import make, watched
from tests.ops.test_baseline import committed, git
from tests.ops.test_committed import from_kept, rows
from tests.ops.test_committed_ts import STRING
from tests.ops.two_states import in_gate

AUTHOR = ("-c", "user.name=t", "-c", "user.email=t@example.com")
LEAF_ERROR = 'def f() -> int:\n    return "x"\n'
LEAF_TS = "export const x: string = 1;\n"


def _commit(root: Path, message: str) -> None:
    git(root, *AUTHOR, "commit", "-qam", message)


def _repository_state(root: Path) -> tuple[str, str, list[str]]:
    """What a check could disturb: HEAD, the status (work tree and index), git's own files."""
    own = sorted(p.name for p in (root / ".git").iterdir())
    return git(root, "rev-parse", "HEAD"), git(root, "status", "--porcelain"), own


@pytest.fixture
def shallow(tmp_path: Path) -> Iterator[Warm]:
    """A clone of depth 1 of a repository of two commits: HEAD's parent is not in it."""
    origin = committed(copy_fixture("py", tmp_path / "origin"))
    (origin / "pkg/extra.py").write_text((origin / "pkg/extra.py").read_text() + "\nX = 1\n")
    _commit(origin, "second")
    root = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(root))
    assert git(root, "rev-parse", "--is-shallow-repository").strip() == "true"
    yield from warm_root(root, tmp_path / "logs", watch=True)


def test_a_shallow_clone_keeps_heads_result_and_refuses_a_parent_it_lacks(
    shallow: Warm,
) -> None:
    (shallow.root / "pkg/leaf.py").write_text(LEAF_ERROR)
    before = _repository_state(shallow.root)
    introduced, fixed = rows(from_kept(shallow))
    assert [r[:3] for r in introduced] == [("pkg/leaf.py", 2, "reportReturnType")]
    assert fixed == []
    assert memory_of(shallow.ws).made == 1
    with pytest.raises(InvalidInput, match=r"'HEAD~1' is not a git revision here; send e\.g\."):
        shallow.run(check_ops.workspace_diagnostics(shallow.ws, baseline="HEAD~1"))
    assert _repository_state(shallow.root) == before


@pytest.fixture
def rebasing(tmp_path: Path) -> Iterator[Warm]:
    """A rebase stopped on a conflict in pkg/extra.py: HEAD is detached at the other branch's
    commit, the file holds conflict markers, the rebase's state is in .git/rebase-merge."""
    root = committed(copy_fixture("py", tmp_path))
    main = git(root, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(root, "checkout", "-qb", "topic")
    (root / "pkg/extra.py").write_text("TOPIC = 1\n")
    _commit(root, "topic")
    git(root, "checkout", "-q", main)
    (root / "pkg/extra.py").write_text("MAIN = 1\n")
    _commit(root, "main")
    git(root, "checkout", "-q", "topic")
    stopped = git_status(root, "rebase", main)
    assert stopped != 0 and (root / ".git/rebase-merge").is_dir()
    assert "<<<<<<<" in (root / "pkg/extra.py").read_text()
    yield from warm_root(root, tmp_path / "logs", watch=True)


def git_status(root: Path, *args: str) -> int:
    """Git's exit code (a rebase stopped on a conflict exits 1)."""
    return subprocess.run(
        ["git", "-C", str(root), *AUTHOR, *args], capture_output=True, check=False
    ).returncode


def test_a_rebase_in_progress_is_judged_against_the_commit_it_stands_on(
    rebasing: Warm,
) -> None:
    before = _repository_state(rebasing.root)
    changes = from_kept(rebasing)
    # The conflict markers are the change: errors of pkg/extra.py only, none of them fixed.
    assert changes.changed == ["pkg/extra.py"]
    assert {d.path for d in changes.introduced} == {"pkg/extra.py"}
    assert changes.fixed == []
    assert _repository_state(rebasing.root) == before
    assert git_status(rebasing.root, "rebase", "--abort") == 0  # the rebase is as it was
    assert (rebasing.root / "pkg/extra.py").read_text() == "TOPIC = 1\n"


def test_another_revision_is_kept_per_commit_by_the_builder(tmp_path: Path) -> None:
    """`--baseline HEAD~1`, its sha, a tag naming it: that commit's result is the engine's
    preview of its texts over the work tree (the builder, no language server started),
    made once for the commit, saved, and answered as the two-state comparison answers."""
    root = committed(make(tmp_path / "ts", True))
    (root / "src/core.ts").write_text(STRING)  # core returns a string: user.ts breaks
    _commit(root, "second")
    git(root, "tag", "v0", "HEAD~1")
    (root / "src/leaf.ts").write_text(LEAF_TS)
    for warm in watched(root, tmp_path / "logs"):
        warm.run(check_ops.check_all(warm.ws))  # the cold check, as the daemon makes at start
        expected = [("src/leaf.ts", 1, "2322"), ("src/user.ts", 2, "2322")]
        sha = git(root, "rev-parse", "HEAD~1").strip()
        notes = []
        for baseline in ("HEAD~1", sha, "v0"):
            result = warm.run(check_ops.workspace_diagnostics(warm.ws, baseline=baseline))
            assert result.changes is not None
            introduced, fixed = rows(result.changes)
            assert ([r[:3] for r in introduced], fixed) == (expected, [])
            assert result.changes.changed == ["src/core.ts", "src/leaf.ts"]
            notes.append(result.changes.scope)
            # An edit between the questions: the comparison is made again, the result kept.
            (root / "src/leaf.ts").write_text(
                LEAF_TS + f"export const y{len(notes)}: number = '';\n"
            )
            expected = [("src/leaf.ts", 1, "2322"), ("src/leaf.ts", 2, "2322"), expected[-1]]
        assert "(checked)" in notes[0] and all("(kept)" in n for n in notes[1:])
        assert warm.ws.sessions == {}  # no language server held HEAD~1's texts
        memory = memory_of(warm.ws)
        assert memory.made == 1 and memory.state is None  # HEAD's own result is not made
        assert len(list(kept_folder(warm.ws).glob("*.json"))) == 1
        head = warm.run(check_ops.workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert head.changes is not None
        assert [r[:3] for r in rows(head.changes)[0]] == expected[:2]
        assert memory.made == 2
        old = warm.run(in_gate(warm.ws, "HEAD~1"))  # tsserver asked about both states
        introduced, fixed = rows(old)
        assert ([r[:3] for r in introduced], fixed) == (expected, [])
    for warm in watched(root, tmp_path / "logs"):  # a restart reads the result back
        result = warm.run(check_ops.workspace_diagnostics(warm.ws, baseline="HEAD~1"))
        assert result.changes is not None and "(read back)" in result.changes.scope
        assert memory_of(warm.ws).made == 0 and warm.ws.sessions == {}
