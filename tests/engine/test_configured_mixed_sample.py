"""A gate TypeScript and basedpyright share, tsconfig.json edited since HEAD, no HEAD result
kept: the Python part of HEAD's state is made with HEAD's texts held
(`engine/configured_parts.py`), asked of the project's own basedpyright, whose answer on a
file of an import cycle depends on the order the files are asked. Its disk state is sampled
again as a dirty tree's is (`engine/committed_again.py`), so the kept result holds no order
artefact. Before, no sample was taken there: the cycle's class error, placed in a.py by the
work tree's check (b.py asked first) and in b.py at HEAD (a.py asked first), was introduced
in a.py and fixed in b.py for an edit of c.py that touches neither class. Real TypeScript
(`tsc -p`), real basedpyright."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine.kept_memory import memory_of
from lspd.ops import check as check_ops
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import written
from tests.engine.test_configured import TS_HEAD, TS_NOW, ts_files, tsc_rows
from tests.ops.test_baseline import asked
from tests.ops.test_changes import EDITED_C, ask_b_then_a
from tests.workspace.toolchains import TS_PINNED, typescript_committed

FIXTURE = Path(__file__).parent.parent / "fixtures" / "cycle_py"


@pytest.fixture
def mixed_cycle(tmp_path: Path) -> Iterator[Warm]:
    """The import cycle's Python files (tests/ops/test_changes.py) beside TypeScript files
    under `TS_HEAD`, one gate, committed; a warm workspace on it."""
    cycle = {p.name: p.read_text() for p in FIXTURE.iterdir() if p.is_file()}
    root = typescript_committed(tmp_path / "p", {**ts_files(TS_HEAD), **cycle}, TS_PINNED)
    yield from warm_root(root, tmp_path / "logs")


def test_the_held_python_part_is_sampled_again(
    mixed_cycle: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = mixed_cycle.root
    before = tsc_rows(root)
    written(root, {"tsconfig.json": json.dumps(TS_NOW), "c.py": EDITED_C})
    after = tsc_rows(root)
    ask_b_then_a(mixed_cycle)  # the work tree's answer: the class error in a.py
    counts = asked(monkeypatch, mixed_cycle)
    result = mixed_cycle.run(
        check_ops.workspace_diagnostics(mixed_cycle.ws, limit=1000, baseline="HEAD")
    )
    changes = result.changes
    assert changes is not None
    assert "compared under the one then" in changes.scope
    python = [(d.path, d.line, d.code) for d in changes.introduced + changes.fixed]
    assert [row for row in python if row[0].endswith(".py")] == []  # was a.py's and b.py's
    # TypeScript's part is tsc -p's under HEAD's tsconfig: each run's own difference
    new = Counter((d.path, d.line, d.code or "") for d in changes.introduced)
    fixed = Counter((d.path, d.line, d.code or "") for d in changes.fixed)
    assert (new, fixed) == (after - before, before - after)
    # the work tree's check, HEAD's state (c.py's HEAD text held), the disk's second sample
    # of the two that differ (c.py, without a difference, not asked again)
    assert counts == {"a.py": 3, "b.py": 3, "c.py": 2}  # was a.py, b.py: 2
    memory = memory_of(mixed_cycle.ws)
    assert memory.state is not None
    assert sorted(memory.again[memory.state.key]) == ["a.py", "b.py"]
