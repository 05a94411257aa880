"""A held state (a preview, HEAD's state for `check --baseline HEAD`) of a TypeScript 7 program
stopped at a syntax error says the declaration pass's errors beside it where its tsc says
them (`native_emitted`), as the work tree's check does. Before, `native_held.held_as_tsc` said
the syntax errors alone: a preview adding b.ts's second TS9007 while a.ts stays broken said 0
new, and `check --baseline HEAD` once it was written said b.ts's first TS9007 (there at HEAD)
new too. Real TypeScript 7.0.2, its own tsc -p beside."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Diagnostic
from lspd.ops.preview import previewed
from tests.conftest import answer
from tests.engine.test_native_emitted import ARROW, DECLARED, ISOLATED, SYNTAX, project, tsc

Found = set[tuple[str, int, int, str]]
MORE = f"{ARROW}export const h = (y: string) => y;\n"
NEW = {("src/b.ts", 2, 18, "9007")}


def _found(diagnostics: list[Diagnostic]) -> Found:
    return {(d.path or "", d.line, d.column, d.code or "") for d in diagnostics}


def test_a_held_state_says_the_declaration_errors_beside(tmp_path: Path) -> None:
    root = project(tmp_path / "p", ISOLATED)
    edit = [{"path": "src/b.ts", "content": MORE}]
    preview = answer(root, lambda ws: previewed(ws, edit)).changes
    assert (_found(preview.introduced), preview.fixed) == (NEW, [])
    (root / "src/b.ts").write_text(MORE)
    assert tsc(root) == SYNTAX | DECLARED | NEW
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert since is not None
    assert (_found(since.introduced), since.fixed, since.unchanged) == (NEW, [], 7)
