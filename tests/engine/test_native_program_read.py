"""TypeScript 7's programs read a linked package's git-ignored build too (`engine/
native_program.py`): its `tsc -p --listFilesOnly` lists greeter/lib/index.d.ts, which the
watcher leaves out, and nothing followed it (the builder's programs' files were, a7e865d):
after the build was rewritten, `lspd check` kept its TS2322 (0.02 s, reused: no change
seen) where tsc says none. The listing's files outside node_modules are followed now: their
rewrite counts as a change. A watched workspace on TypeScript 7.0.2, against its tsc."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Warm
from tests.engine.test_builders_read import GREET, linked_build, since_head
from tests.workspace.test_tsbuilder_missing import errors
from tests.workspace.test_tsbuilder_missing import tsc as gate_tsc
from tests.workspace.toolchains import TS7_PINNED


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Warm]:
    yield from linked_build(tmp_path, TS7_PINNED)


def test_a_rebuilt_declaration_is_checked_again(warm: Warm) -> None:
    broken = {("src/use.ts", 2, 14, "2322")}  # {} is not a string
    assert errors(warm) == gate_tsc(warm.root) == broken
    (warm.root / "greeter" / "lib" / "index.d.ts").write_text(GREET.replace("{}", "string"))
    assert gate_tsc(warm.root) == set()
    assert errors(warm) == set()  # was `broken`: the whole check reused
    assert since_head(warm) == ([], [], 0)  # HEAD's state reads the same build
