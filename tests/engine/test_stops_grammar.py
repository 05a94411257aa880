"""A checker's grammar error of the parser's codes (TS1102, `delete` of a name in strict
mode) is said by tsc's checker, not its parser: while tsc stops at another file's syntax
error it is not checked, so a comparison does not call it fixed (`stops.Stop.hides`).
Real TypeScript 7.0.2, its `tsc -p` on the written tree beside."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.preview import previewed
from tests.conftest import warm_root
from tests.engine.test_native_check import native_project, tsc
from tests.ops.test_baseline import committed

GRAMMAR = "let y = 2;\ndelete y;\nexport {};\n"  # TS1102, the checker's
BROKEN = "export const x = ;\n"  # TS1109, the parser's
STOPPED = {
    "checker": "tsc",
    "at": ["src/leaf.ts:1"],
    "files": ["src/grammar.ts"],
    "not_checked": 2,
    "why": None,
}


def test_a_grammar_error_is_not_fixed_by_another_files_syntax_error(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    (root / "src/grammar.ts").write_text(GRAMMAR)
    committed(root)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        head = {("src/grammar.ts", "1102"), ("src/grammar.ts", "2703")}
        assert {(p, c) for p, _, _, c in tsc(warm)} == head
        warm.run(check_all(warm.ws))
        preview = warm.run(previewed(warm.ws, [{"path": "src/leaf.ts", "content": BROKEN}]))
        (root / "src/leaf.ts").write_text(BROKEN)
        assert {(p, c) for p, _, _, c in tsc(warm)} == {("src/leaf.ts", "1109")}
        assert {(d.path, d.code) for d in preview.changes.introduced} == {("src/leaf.ts", "1109")}
        assert preview.changes.fixed == []
        assert [s.model_dump() for s in preview.changes.stopped] == [STOPPED]
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert since.changes is not None
        assert {(d.path, d.code) for d in since.changes.introduced} == {("src/leaf.ts", "1109")}
        assert since.changes.fixed == []
        assert [s.model_dump() for s in since.changes.stopped] == [STOPPED]


def test_a_grammar_error_of_a_changed_file_is_not_fixed_by_another_files_syntax_error(
    tmp_path: Path,
) -> None:
    """The same, grammar.ts edited too (a comment above): the baseline stopped nowhere, so
    its TS1102 was the checker's, not the parser's; it was called fixed."""
    root = native_project(tmp_path / "ts7")
    (root / "src/grammar.ts").write_text(GRAMMAR)
    committed(root)
    edited = "// edited\n" + GRAMMAR
    stopped = {**STOPPED, "files": ["src/grammar.ts"]}
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(check_all(warm.ws))
        changes = [
            {"path": "src/leaf.ts", "content": BROKEN},
            {"path": "src/grammar.ts", "content": edited},
        ]
        preview = warm.run(previewed(warm.ws, changes))
        (root / "src/leaf.ts").write_text(BROKEN)
        (root / "src/grammar.ts").write_text(edited)
        assert {(p, c) for p, _, _, c in tsc(warm)} == {("src/leaf.ts", "1109")}
        assert {(d.path, d.code) for d in preview.changes.introduced} == {("src/leaf.ts", "1109")}
        assert [(d.path, d.code) for d in preview.changes.fixed] == []
        assert [s.model_dump() for s in preview.changes.stopped] == [stopped]
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert since.changes is not None
        assert {(d.path, d.code) for d in since.changes.introduced} == {("src/leaf.ts", "1109")}
        assert [(d.path, d.code) for d in since.changes.fixed] == []
        assert [s.model_dump() for s in since.changes.stopped] == [stopped]
