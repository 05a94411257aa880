"""The hook's and the stop gate's check (`ops/progressive_kept.py`): on a real git
repository, basedpyright and a watched workspace, an edit is proved by the whole check
against HEAD's kept result, with the same introduced diagnostics as the two-state
comparison (`tests/ops/two_states.py`); before HEAD's result is kept, the hook's check
makes it, once per commit, as `check --baseline` does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine.kept_memory import memory_of
from lspd.ops import progressive_kept
from lspd.ops.models import Changes
from lspd.ops.progressive import Progress
from tests.conftest import Warm, copy_fixture, warm_root
from tests.ops import test_baseline as base
from tests.ops.test_beyond_gate import GATE, TEST
from tests.ops.test_committed import from_kept
from tests.ops.two_states import in_gate

Told = list[tuple[str | None, int, str | None]]


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Warm]:
    """The Python fixture committed in git, watched; no result kept yet."""
    root = base.committed(copy_fixture("py", tmp_path))
    yield from warm_root(root, tmp_path / "logs", watch=True)


def told(warm: Warm, edited: Path) -> Told:
    """What the hook's check of `edited` introduced."""
    progress = Progress("HEAD", [edited])
    warm.run(progressive_kept.run(warm.ws, progress))
    assert progress.failed is None and progress.done.is_set()
    assert progress.changed == [edited]
    return [(i.diagnostic.path, i.diagnostic.line, i.diagnostic.code) for i in progress.introduced]


def two_states(warm: Warm) -> Told:
    changes: Changes = warm.run(in_gate(warm.ws))
    return sorted((d.path, d.line, d.code) for d in changes.introduced)


def test_a_signature_change_is_told_as_the_two_state_comparison_tells_it(repo: Warm) -> None:
    from_kept(repo)  # a clean tree: the whole check is kept as HEAD's
    greeting = repo.root / "pkg/greeting.py"
    base.edit(greeting, base.SIGNATURE, base.TWO_ARGUMENTS)
    kept = told(repo, greeting)
    assert kept == [*base.BROKEN_CALL, base.UNUSED_LOUD]
    assert sorted(kept) == two_states(repo)
    assert memory_of(repo.ws).made == 1


def test_before_heads_result_is_kept_the_hooks_check_makes_it_once(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No result kept and the tree already dirty (an edit before the first check): the
    hook's check makes HEAD's (greeting.py and its importers asked at HEAD's texts, every
    other file once), tells what the two-state comparison tells, and the next edit's check
    reads it: HEAD is not checked again."""
    assert memory_of(repo.ws).state is None
    counts = base.asked(monkeypatch, repo)
    greeting = repo.root / "pkg/greeting.py"
    base.edit(greeting, base.SIGNATURE, base.TWO_ARGUMENTS)
    kept = told(repo, greeting)
    assert kept == [*base.BROKEN_CALL, base.UNUSED_LOUD]
    memory = memory_of(repo.ws)
    assert memory.made == 1 and memory.state is not None
    assert memory.state.key.commit == base.git(repo.root, "rev-parse", "HEAD").strip()
    once = {"pkg/__init__.py", "pkg/broken.py"}  # importing nothing greeting.py declares
    assert {p: n for p, n in counts.items() if p in once} == dict.fromkeys(once, 1)
    broken = repo.root / "pkg/broken.py"
    broken.write_text(broken.read_text() + '\nwrong: int = "x"\n')  # nothing imports it
    # Everything since HEAD (the hook tells an agent session only what it was not told).
    both = sorted([*kept, ("pkg/broken.py", 4, "reportAssignmentType")])
    assert sorted(told(repo, broken)) == both
    assert memory.made == 1  # HEAD's result read, not made again
    assert (counts["pkg/__init__.py"], counts["pkg/broken.py"]) == (1, 2)  # broken.py anew
    assert both == two_states(repo)


def test_a_leaf_error_and_its_undoing(repo: Warm) -> None:
    from_kept(repo)
    leaf = repo.root / "pkg/leaf.py"
    leaf.write_text('def f() -> int:\n    return "x"\n')
    assert told(repo, leaf) == [("pkg/leaf.py", 2, "reportReturnType")]
    leaf.unlink()
    progress = Progress("HEAD", [leaf])
    repo.run(progressive_kept.run(repo.ws, progress))
    assert (progress.changed, progress.introduced) == ([], [])


def test_an_edited_file_outside_the_gate_is_compared_too(tmp_path: Path) -> None:
    """A test file the gate's configuration leaves out, edited: the hook compares it as
    `check --baseline tests/test_app.py` does (the gate's check alone would say nothing)."""
    root = copy_fixture("py", tmp_path)
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + GATE)
    (root / "tests").mkdir()
    (root / "tests/test_app.py").write_text(TEST)
    for warm in warm_root(base.committed(root), tmp_path / "logs", watch=True):
        test = root / "tests/test_app.py"
        test.write_text(TEST + "\nbad: int = 'x'\n")
        assert told(warm, test) == [("tests/test_app.py", 7, "reportAssignmentType")]
        state = memory_of(warm.ws).state
        assert state is not None and "tests/test_app.py" not in state.files  # not the gate's
