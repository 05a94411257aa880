"""The kept result of the committed state (`ops/committed.py`) in the git states issue 40
names beside a plain branch: a shallow clone and a rebase stopped on a conflict. Each is
answered right, or refused saying what to send, and the repository is left as it was."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops import check as check_ops
from lspd.ops.kept_memory import memory_of
from tests.conftest import Warm, copy_fixture, warm_root
from tests.ops.test_baseline import committed, git
from tests.ops.test_committed import from_kept, rows

AUTHOR = ("-c", "user.name=t", "-c", "user.email=t@example.com")
LEAF_ERROR = 'def f() -> int:\n    return "x"\n'


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
