"""The TypeScript builder helper checking one program after another drops the checkers of the
others once its heap fills (`tsbuilder_kept.relieve`): redux-toolkit's 38 tsconfigs, each an
example with its own DOM types, kept every checker until the helper was idle, and its cold
check died at V8's heap limit on the 30th ("JavaScript heap out of memory"). Here a real
helper on lspd's TypeScript, its heap made small through NODE_OPTIONS (which lspd's Node
processes take from the environment), checks eight such programs: without the relief it
died on the sixth."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.conftest import Warm
from tests.engine.test_affected import watched
from tests.workspace.test_tsbuilder import said

PROGRAMS = 8
CONFIG = '{"compilerOptions": {"strict": true, "noEmit": true, "lib": ["dom", "esnext"]}}\n'
SOURCE = (
    'const x: number = "s";\n'
    "export const y = document.body.children.length + [1].map(String).length;\n"
)
# A heap of 160 MB, its young generation at its least: the limit V8 reports is the old one's.
SMALL_HEAP = "--max-old-space-size=160 --max-semi-space-size=1"


@pytest.fixture
def programs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Warm]:
    monkeypatch.setenv("NODE_OPTIONS", SMALL_HEAP)
    root = (tmp_path / "examples").resolve()
    for at in range(PROGRAMS):
        (root / f"e{at}").mkdir(parents=True)
        (root / f"e{at}/tsconfig.json").write_text(CONFIG)
        (root / f"e{at}/a.ts").write_text(SOURCE)
    yield from watched(root, tmp_path / "logs")


def test_programs_checked_one_after_another_drop_the_others_checkers(programs: Warm) -> None:
    checked = programs.run(check_all(programs.ws))
    found = sorted((programs.ws.display(Path(d.path)), d.line, d.code) for d in checked.everything)
    assert found == [(f"e{at}/a.ts", 1, "2322") for at in range(PROGRAMS)]
    [builder] = programs.ws.builders.values()
    assert said(builder.log_path, "checkers dropped under pressure")
    assert said(builder.log_path, "out of memory") == []
    # A dropped checker is the idle work's state: the next check of that program decides as
    # before (the edited file alone, its error gone).
    (programs.root / "e0/a.ts").write_text(SOURCE.replace('"s"', "1"))
    checked = programs.run(check_all(programs.ws))
    assert sorted(programs.ws.display(Path(d.path)) for d in checked.everything) == [
        f"e{at}/a.ts" for at in range(1, PROGRAMS)
    ]
