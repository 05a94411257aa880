"""A baseline whose checker stopped at a syntax error leaves the errors it did not check
unknown there (`changes._unseen`), save those at text the file's baseline text does not
hold: no baseline diagnostic can have their key (its snippet is the text it points at), so
they are introduced, whatever the checker would have said there. HEAD committed with
core.ts's syntax error (tsc said nothing else) and user.ts's TS2322 at `s`; the change fixes
core.ts and writes another TS2322 into user.ts, at `wrong`: before, `preview`, `check
--baseline HEAD` and `diagnostics src/user.ts --baseline HEAD` said both unknown ('not
counted new') and nothing introduced; now `wrong`'s is introduced, `s`'s stays unknown (HEAD's
user.ts holds `s`). Real builder and tsserver (lspd's TypeScript 5.9), its tsc beside."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from tests.conftest import warm_root
from tests.ops.test_kept_stops import broken_head
from tests.workspace.test_tsbuilder_syntax import CORE, USER, tsc_of

WRONG = 'export const wrong: number = "x";\n'  # user.ts's line 3
UNSEEN = {
    "checker": "tsc",
    "at": ["src/core.ts:4"],
    "files": ["src/user.ts"],
    "not_checked": 1,
    "why": None,
}


def said(changes: Any) -> tuple[list[tuple[str | None, int, str | None]], list[Any]]:
    """What was introduced (file, line, code), and the baseline's stops as said."""
    introduced = [(d.path, d.line, d.code) for d in changes.introduced]
    return introduced, [s.model_dump() for s in changes.baseline_stopped]


def test_an_error_at_text_the_baseline_lacks_is_introduced(tmp_path: Path) -> None:
    root = broken_head(tmp_path)
    fixed = {"src/core.ts": CORE, "src/user.ts": USER + WRONG}
    assert [line[:26] for line in tsc_of(root, tmp_path, fixed)] == [
        "src/user.ts(2,14): error T",
        "src/user.ts(3,14): error T",
    ]
    new = ([("src/user.ts", 3, "2322")], [UNSEEN])
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        proposal = [{"path": path, "content": text} for path, text in fixed.items()]
        assert said(warm.run(previewed(warm.ws, proposal)).changes) == new
        for path, text in fixed.items():
            (root / path).write_text(text)
        assert said(warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes) == new
        one = warm.run(diagnostics(warm.ws, "src/user.ts", baseline="HEAD")).changes
        assert one is not None and "against the kept result of" in one.scope
        assert said(one) == new
