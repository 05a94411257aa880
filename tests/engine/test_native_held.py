"""A TypeScript 7 program stopped by a syntax error answers as tsc and as TypeScript 5's
builder does, in `preview` and in `check --baseline HEAD`: the syntax error introduced
alone, the baseline's type error of another file not fixed but not checked, and where tsc
stopped said (`Changes.stopped`); a checker's grammar error of the parser's codes (TS1102)
stops nothing (real TypeScript 7.0.2, its own `tsc -p` beside)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lspd.engine import native_program
from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.preview import previewed
from tests.conftest import answer, warm_root
from tests.engine.test_native_check import CORE, listed, native_project, settled, tsc
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import gate

BROKEN = f"{CORE}\nexport function broken( {{\n"
TYPE_ERROR = "export const x: string = 1;\n"  # leaf.ts's, the baseline's
LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): (.*)$", re.MULTILINE)
STOPPED = {
    "checker": "tsc",
    "at": ["src/core.ts:6"],
    "files": ["src/leaf.ts"],
    "not_checked": 1,
    "why": None,
}


def test_a_preview_and_a_baseline_say_what_tsc_did_not_check(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    (root / "src/leaf.ts").write_text(TYPE_ERROR)
    for warm in warm_root(committed(root), tmp_path / "logs", watch=True):
        warm.run(check_all(warm.ws))
        preview = warm.run(previewed(warm.ws, [{"path": "src/core.ts", "content": BROKEN}]))
        changes = preview.changes
        introduced = {(d.path, d.line, d.column, d.code) for d in changes.introduced}
        (root / "src/core.ts").write_text(BROKEN)
        assert introduced == tsc(warm) == {("src/core.ts", 6, 1, "1005")}
        assert changes.fixed == [] and changes.fixed_total == 0
        assert [s.model_dump() for s in changes.stopped] == [STOPPED]

        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert since.changes is not None
        introduced = {(d.path, d.line, d.column, d.code) for d in since.changes.introduced}
        assert introduced == {("src/core.ts", 6, 1, "1005")}
        assert since.changes.fixed == []
        assert [s.model_dump() for s in since.changes.stopped] == [STOPPED]

        # A grammar error the checker says (TS1102, of the parser's codes) stops nothing.
        (root / "src/core.ts").write_text(CORE)
        warm.run(check_all(warm.ws))
        grammar = "let y = 2;\ndelete y;\n"
        preview = warm.run(previewed(warm.ws, [{"path": "src/core.ts", "content": grammar}]))
        assert "1102" in {d.code for d in preview.changes.introduced}
        assert preview.changes.stopped == []


def test_a_preview_without_a_syntax_error_asks_tsc_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A held text its server said no item of the parser's codes of is not parsed, and the
    program the whole check read is not listed again: a leaf's preview costs what it did."""
    root = native_project(tmp_path / "ts7")
    parses: list[list[Path]] = []

    def parsing(tsc: list[str], texts: dict[Path, str]) -> list[object]:
        parses.append(sorted(texts))
        return []

    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(check_all(warm.ws))
        warm.run(settled())
        monkeypatch.setattr(native_program, "parsed_errors", parsing)
        listings = listed(monkeypatch)
        preview = warm.run(previewed(warm.ws, [{"path": "src/leaf.ts", "content": TYPE_ERROR}]))
        introduced = {(d.path, d.line, d.column, d.code) for d in preview.changes.introduced}
        assert introduced == {("src/leaf.ts", 1, 14, "2322")}
        assert (parses, listings) == ([], [])


def test_a_file_deleted_in_a_preview_is_absent_as_tsc_has_it(tmp_path: Path) -> None:
    """TypeScript 7's LSP holds a file gone as an empty text ("File '/abs/src/core.ts' is not
    a module.", TS2306); tsc, the file deleted, cannot find the module (TS2307). One-shot
    and after a whole check, a deletion and a rename leaving its importer unchanged."""
    root = native_project(tmp_path / "ts7")
    gone = [{"path": "src/core.ts", "content": None}]
    moved = [*gone, {"path": "src/sum.ts", "content": CORE}]
    once = answer(root, lambda ws: previewed(ws, gone)).changes
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(check_all(warm.ws))
        previews = [once, *(warm.run(previewed(warm.ws, c)).changes for c in (gone, moved))]
        (root / "src/core.ts").unlink()
        truth = {(p, int(a), int(b), c, m) for p, a, b, c, m in LINE.findall(gate(root)[1])}
        assert {t[:4] for t in truth} == {("src/user.ts", 1, 21, "2307")}
        for changes in previews:
            found = {(d.path, d.line, d.column, d.code, d.message) for d in changes.introduced}
            assert found == truth


def test_a_rename_in_casing_alone_previewed_is_as_tsc_has_it(tmp_path: Path) -> None:
    """core.ts renamed Core.ts, its importer unchanged: tsc cannot find './core' (TS2307),
    nothing else. TypeScript 7's LSP, holding core.ts gone as an empty text beside Core.ts,
    also said "Already included file name '.../core.ts' differs from file name '.../Core.ts'
    only in casing." (TS1261) at the import (rxjs 7.8.2's util/noop.ts -> noOp.ts)."""
    root = native_project(tmp_path / "ts7")
    moved = [{"path": "src/core.ts", "content": None}, {"path": "src/Core.ts", "content": CORE}]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(check_all(warm.ws))
        changes = warm.run(previewed(warm.ws, moved)).changes
        (root / "src/core.ts").rename(root / "src/Core.ts")
        truth = {(p, int(a), int(b), c, m) for p, a, b, c, m in LINE.findall(gate(root)[1])}
        assert {t[:4] for t in truth} == {("src/user.ts", 1, 21, "2307")}
        found = {(d.path, d.line, d.column, d.code, d.message) for d in changes.introduced}
        assert found == truth
