"""A file absent in a held state beside another file of its name (core.d.ts beside core.ts):
tsc, the file gone, resolves its importers' specifier to that other file and checks them
against it; TypeScript 7's LSP holds the gone file as an empty text and said "File
'/abs/src/core.ts' is not a module." (TS2306), and nothing of core.d.ts's types. A preview
of the deletion and HEAD's state of a file new since say tsc's answer, at the ranges the
server says once the state is written (`native_held._shadowed`, on a copy: real TypeScript
7.0.2, its `tsc -p` on the written tree beside)."""

from __future__ import annotations

import re
from pathlib import Path

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.models import Diagnostic
from lspd.ops.preview import previewed
from tests.conftest import Warm, answer, warm_root
from tests.engine.test_native_check import native_project
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import gate

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): (.*)$", re.MULTILINE)
DECLARED = "export declare function add(a: string): string;\n"
# a chained message (its lines after the first indented) and an error over three lines
CHAINED = (
    "export const g: (x: { a: { b: number } }) => void = (x: { a: { b: string } }) => {\n"
    "  void x;\n};\n"
    "export const h: number = add({\n  a: 1,\n});\n"
)
Said = tuple[str | None, int, int, int, int, str | None, str]


def _said(found: list[Diagnostic], path: str | None = None) -> set[Said]:
    return {
        (path or d.path, d.line, d.column, d.end_line, d.end_column, d.code, d.message)
        for d in found
    }


def _checked(warm: Warm) -> set[Said]:
    """Every error of a whole check of the disk (the LSP's ranges)."""
    checked = warm.run(check_all(warm.ws))
    return {s for r in checked.results for s in _said([*r.diagnostics], r.path)}


def _truth(root: Path) -> set[tuple[str, int, int, str, str]]:
    return {(p, int(a), int(b), c, m) for p, a, b, c, m in LINE.findall(gate(root)[1])}


def test_a_deletion_beside_a_declaration_of_its_name_is_checked_against_it(
    tmp_path: Path,
) -> None:
    root = native_project(tmp_path / "ts7")
    (root / "src/core.d.ts").write_text(DECLARED)
    gone = [{"path": "src/core.ts", "content": None}]
    once = answer(root, lambda ws: previewed(ws, gone)).changes
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(check_all(warm.ws))
        previews = [once, warm.run(previewed(warm.ws, gone)).changes]
        (root / "src/core.ts").unlink()
        truth = _truth(root)
        assert {t[:4] for t in truth} == {
            ("src/user.ts", 2, 14, "2322"),
            ("src/user.ts", 2, 37, "2554"),
        }
        written = _checked(warm)
        assert {(p, a, b, c, m) for p, a, b, _, _, c, m in written} == truth
        for changes in previews:
            assert _said(changes.introduced) == written
            assert changes.fixed == []


def test_a_file_new_since_head_beside_a_declaration_of_its_name(tmp_path: Path) -> None:
    """HEAD held core.d.ts alone, its errors in user.ts (a chained message, one over three
    lines among them); core.ts, written since, declares the same: HEAD's state (core.ts
    held gone) has user.ts's errors as now, none new."""
    root = native_project(tmp_path / "ts7")
    core = root / "src/core.ts"
    core.unlink()
    (root / "src/core.d.ts").write_text(DECLARED)
    user = root / "src/user.ts"
    user.write_text(user.read_text() + CHAINED)
    committed(root)
    head = _truth(root)
    core.write_text("export function add(a: string): string {\n  return a;\n}\n")
    assert _truth(root) == head and len(head) == 5
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert since.changes is not None
        assert (since.changes.introduced, since.changes.fixed) == ([], [])
        assert since.changes.unchanged == 5
