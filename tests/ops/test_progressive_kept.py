"""The hook's comparison from the kept result (`ops/progressive_kept.py`): on a real git
repository, basedpyright and a watched workspace, once HEAD's result is kept, an edit is
proved by the whole check against it, with the same introduced diagnostics as the
nearest-first two-state comparison (`ops/progressive.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops import progressive, progressive_kept
from tests.conftest import Warm, copy_fixture, warm_root
from tests.ops import test_baseline as base
from tests.ops.test_committed import from_kept

Told = list[tuple[str | None, int, str | None]]


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Warm]:
    """The Python fixture committed in git, watched, HEAD's result kept."""
    root = base.committed(copy_fixture("py", tmp_path))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert not warm.run(progressive_kept.ready(warm.ws, "HEAD"))
        from_kept(warm)  # a clean tree: the whole check is kept as HEAD's
        assert warm.run(progressive_kept.ready(warm.ws, "HEAD"))
        yield warm


def told(warm: Warm, run: object, edited: Path) -> Told:
    progress = progressive.Progress("HEAD", [edited])
    warm.run(run(warm.ws, progress))  # type: ignore[operator]
    assert progress.failed is None and progress.done.is_set()
    assert progress.changed == [edited]
    return [(i.diagnostic.path, i.diagnostic.line, i.diagnostic.code) for i in progress.introduced]


def test_a_signature_change_is_told_as_the_two_state_comparison_tells_it(repo: Warm) -> None:
    greeting = repo.root / "pkg/greeting.py"
    base.edit(greeting, base.SIGNATURE, base.TWO_ARGUMENTS)
    kept = told(repo, progressive_kept.run, greeting)
    assert kept == [*base.BROKEN_CALL, base.UNUSED_LOUD]
    assert sorted(kept) == sorted(told(repo, progressive.run, greeting))


def test_a_leaf_error_and_its_undoing(repo: Warm) -> None:
    leaf = repo.root / "pkg/leaf.py"
    leaf.write_text('def f() -> int:\n    return "x"\n')
    assert told(repo, progressive_kept.run, leaf) == [("pkg/leaf.py", 2, "reportReturnType")]
    leaf.unlink()
    progress = progressive.Progress("HEAD", [leaf])
    repo.run(progressive_kept.run(repo.ws, progress))
    assert (progress.changed, progress.introduced) == ([], [])
