"""The committed state's kept result of a TypeScript project the builder checks, made while
the work tree is dirty: the preview of the changed files' HEAD texts (`engine/overlaid_state.py`),
the builder over a host serving them, never tsserver. Its answer is the two-state
comparison's (real builder, real tsserver for the comparison, real git)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine.kept_memory import memory_of
from lspd.ops import check as check_ops
from tests.conftest import Warm
from tests.engine.test_affected import CORE, make, watched
from tests.ops.test_baseline import committed
from tests.ops.test_committed import from_kept, rows, two_states

STRING = CORE.replace("): number", "): string").replace("a + b", "''")
BROKEN = "Type 'string' is not assignable to type 'number'."


@pytest.fixture
def dirty(tmp_path: Path) -> Iterator[Warm]:
    """The small TypeScript project committed, then edited before lspd starts: core's
    signature changed (user.ts breaks), a leaf error, a new file, other.ts deleted."""
    root = committed(make(tmp_path / "ts", True))
    (root / "src/core.ts").write_text(STRING)
    (root / "src/leaf.ts").write_text("export const x: string = 1;\n")
    (root / "src/fresh.ts").write_text("export const y: number = 'y';\n")
    (root / "src/other.ts").unlink()
    yield from watched(root, tmp_path / "logs")


def test_a_dirty_tree_at_start_is_kept_by_the_builder(dirty: Warm) -> None:
    ws = dirty.ws
    dirty.run(check_ops.check_all(ws))  # the cold check, as the daemon makes at start
    assert ws.sessions == {}  # the builder checked it all: no language server started
    began = time.monotonic()
    new = from_kept(dirty)
    took = time.monotonic() - began
    state = memory_of(ws).state
    assert state is not None and memory_of(ws).made == 1
    # No language server was asked for HEAD's texts (before, tsserver started and held
    # core.ts, leaf.ts and user.ts at HEAD's text: 5.7-8.7 s here at load 8-10).
    assert ws.sessions == {}
    # The builder's HEAD state: core.ts, leaf.ts and user.ts error-free; other.ts back.
    assert sorted(state.files) == ["src/core.ts", "src/leaf.ts", "src/other.ts", "src/user.ts"]
    assert not any(f.diagnostics for f in state.files.values())
    introduced, fixed = rows(new)
    assert [r[:3] for r in introduced] == [
        ("src/fresh.ts", 1, "2322"),
        ("src/leaf.ts", 1, "2322"),
        ("src/user.ts", 2, "2322"),
    ]
    assert fixed == []
    old = two_states(dirty)  # tsserver asked about both states
    assert rows(new) == rows(old)
    assert new.changed == old.changed
    print(f"kept result made in {took:.2f} s; asked at HEAD: {state.asked}")
