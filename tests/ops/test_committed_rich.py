"""`check --baseline HEAD` from the kept result against the two-state comparison on a real
project: rich 13.9.4 (78 modules, ~27,000 lines, its release cached once), committed in git,
watched, on basedpyright. Each edit is made, both comparisons asked, then undone."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lspd.engine.kept_memory import memory_of
from lspd.ops import check as check_ops
from tests.conftest import Warm, warm_root
from tests.ops.test_baseline import committed
from tests.ops.test_committed import from_kept, rows, two_states
from tests.workspace.mypy_env import rich_release

# A cold basedpyright check of rich, then two comparisons per edit: minutes on a loaded machine.
pytestmark = pytest.mark.timeout(900)
CELL_LEN = "def cell_len(text: str, _cell_len"
WIDTH = "def cell_len(text: str, width: int, _cell_len"  # a parameter every call lacks
Edit = Callable[[str], str]


@pytest.fixture
def rich(tmp_path: Path) -> Iterator[Warm]:
    """rich's release (its sdist, cached once: `mypy_env.rich_release`) committed,
    basedpyright in standard mode, watched."""
    root = rich_release(tmp_path)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "r"\nversion = "0"\n\n[tool.basedpyright]\n'
        'include = ["rich"]\ntypeCheckingMode = "standard"\n'
    )
    yield from warm_root(committed(root), tmp_path / "logs", watch=True)


def edited(warm: Warm, name: str, change: Edit) -> Iterator[None]:
    path = warm.root / name
    text = path.read_text()
    path.write_text(change(text))
    try:
        yield
    finally:
        path.write_text(text)


def test_real_edits_are_judged_as_the_two_state_comparison_judges_them(rich: Warm) -> None:
    cold = rich.run(check_ops.check_all(rich.ws))
    with_errors = next(r.path for r in cold.results if r.errors and r.path.startswith("rich/"))
    edits: list[tuple[str, str, Edit]] = [
        ("leaf error", "rich/diagnose.py", lambda t: t + '\nlspd_leaf: int = "x"\n'),
        ("body-only edit", "rich/cells.py", lambda t: t.replace("< 512:", "< 511:", 1)),
        ("signature change", "rich/cells.py", lambda t: t.replace(CELL_LEN, WIDTH, 1)),
        ("line shift", with_errors, lambda t: "\n\n\n" + t),
    ]
    found = {}
    for kind, name, change in edits:
        for _ in edited(rich, name, change):
            new, old = from_kept(rich), two_states(rich)
            assert rows(new) == rows(old), kind
            found[kind] = rows(new)
    introduced, fixed = found["leaf error"]
    assert ([r[:3] for r in introduced], fixed) == (
        [("rich/diagnose.py", 39, "reportAssignmentType")],
        [],
    )
    assert found["body-only edit"] == ([], []) and found["line shift"] == ([], [])
    calls = found["signature change"][0]
    assert len(calls) > 20 and {code for _, _, code, _ in calls} == {"reportCallIssue"}
    assert memory_of(rich.ws).made == 1  # HEAD checked once: the clean tree's check
