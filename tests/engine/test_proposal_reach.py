"""The files a TypeScript 7 change can reach, where no whole check was seen (one-shot): a file
depending on the changed one through a re-export (`export *` of a barrel), and every file of
the program for a change of global declarations (a `.d.ts` script, imported by none), asked
as tsc has them (real TypeScript 7.0.2, its own `tsc -p` on the written tree beside)."""

from __future__ import annotations

import re
from pathlib import Path

from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from tests.conftest import answer
from tests.engine.test_native_check import native_project
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import gate

EQ = (
    "export function same(a: unknown, b: unknown, d: number = 0): boolean {\n  return a === b;\n}\n"
)
FILES = {
    "src/eq.ts": EQ,
    "src/internal.ts": 'export * from "./eq";\n',  # the barrel: its importers name `internal`
    "src/comparer.ts": 'import { same } from "./internal";\nexport const yes = same(1, 1);\n',
    "src/global.d.ts": "declare const DEV: boolean;\n",  # a script: global, imported by none
    "src/flag.ts": "export const dev: boolean = DEV;\n",
}
LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): (.*)$", re.MULTILINE)
Found = set[tuple[str, int, int, str, str]]


def project(root: Path) -> Path:
    root = native_project(root)
    for name in ("core.ts", "user.ts", "again.ts", "leaf.ts"):
        (root / "src" / name).unlink()
    for name, text in FILES.items():
        (root / name).write_text(text)
    assert gate(root) == (0, "")
    return committed(root)


def tsc(root: Path) -> Found:
    return {(p, int(a), int(b), c, m) for p, a, b, c, m in LINE.findall(gate(root)[1])}


def found(items: list[object]) -> Found:
    return {(d.path, d.line, d.column, d.code, d.message) for d in items}  # type: ignore[attr-defined]


def test_a_files_baseline_is_reached_through_a_re_export_without_a_check(tmp_path: Path) -> None:
    root = project(tmp_path / "ts7")
    (root / "src/eq.ts").write_text(EQ.replace(" = 0", ""))  # depth now required
    result = answer(root, lambda ws: diagnostics(ws, "src/comparer.ts", baseline="HEAD"))
    assert result.changes is not None
    assert found(result.changes.introduced) == tsc(root)
    assert {d[:4] for d in tsc(root)} == {("src/comparer.ts", 2, 20, "2554")}


def test_a_global_declarations_change_reaches_every_file(tmp_path: Path) -> None:
    root = project(tmp_path / "ts7")
    changed = "declare const DEV: string;\n"
    change = [{"path": "src/global.d.ts", "content": changed}]
    preview = answer(root, lambda ws: previewed(ws, change))
    (root / "src/global.d.ts").write_text(changed)
    assert {d[:4] for d in tsc(root)} == {("src/flag.ts", 1, 14, "2322")}
    assert found(preview.changes.introduced) == tsc(root)
    result = answer(root, lambda ws: diagnostics(ws, "src/flag.ts", baseline="HEAD"))
    assert result.changes is not None
    assert found(result.changes.introduced) == tsc(root)

    # back: the change fixes what the disk has
    preview = answer(
        root,
        lambda ws: previewed(
            ws, [{"path": "src/global.d.ts", "content": FILES["src/global.d.ts"]}]
        ),
    )
    assert found(preview.changes.fixed) == tsc(root) and preview.changes.introduced == []
