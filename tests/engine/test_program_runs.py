"""A program's own `tsc -p CONFIG --noEmit` on disk (`engine/program_runs.py`) keeps its
build state between runs, so a run after an edit re-checks what the edit affects, and says
what a fresh `tsc -p` says after each edit: a signature change reaching an importer, a fix,
a file added. Real TypeScript 5.4.5 and 7.0.2."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from lspd.engine import program_runs
from lspd.workspace import Workspace
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, own_tsc, typescript_committed

OPTIONS = {"strict": True, "noEmit": True, "types": [], "target": "ES2022", "module": "ESNext"}
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "src/a.ts": "export function f(): number {\n  return 1;\n}\n",
    "src/b.ts": 'import { f } from "./a";\nexport const y: number = f();\n',
    "src/c.ts": 'export const bad: number = "c";\n',
}
LINE = re.compile(r"^(.+?)\((\d+),(\d+)\): error TS(\d+): ")
Error = tuple[str, int, int, int]


def fresh(root: Path) -> list[Error]:
    """A fresh `tsc -p .`'s errors (file, line, column, code)."""
    found = [LINE.match(s) for s in own_tsc(root, "-p", ".", "--pretty", "false").splitlines()]
    return sorted((m[1], int(m[2]), int(m[3]), int(m[4])) for m in found if m)


def ran(ws: Workspace) -> list[Error]:
    """`program_items`' errors of the root's program, as `fresh` names them."""
    files = sorted((ws.root / "src").glob("*.ts"))
    items = asyncio.run(program_runs.program_items(ws, ws.root / "tsconfig.json", files))
    return sorted(
        (str(p.relative_to(ws.root)), i["range"]["start"]["line"] + 1,
         i["range"]["start"]["character"] + 1, int(str(i.get("code"))))
        for p, found in items.items()
        for i in found
    )  # fmt: skip


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_each_run_after_an_edit_says_what_a_fresh_tsc_says(tmp_path: Path, version: str) -> None:
    root = typescript_committed(tmp_path / "ts", FILES, version)
    ws = Workspace(root, log_dir=tmp_path / "logs")
    assert ran(ws) == fresh(root) == [("src/c.ts", 1, 14, 2322)]
    info = program_runs._build_info(root, root / "tsconfig.json")
    assert info.is_file() and not list(root.rglob("*.tsbuildinfo"))  # kept outside the project
    (root / "src/a.ts").write_text("export function f(): string {\n  return 'x';\n}\n")
    assert ran(ws) == fresh(root) == [("src/b.ts", 2, 14, 2322), ("src/c.ts", 1, 14, 2322)]
    (root / "src/c.ts").write_text("export const bad: number = 3;\n")
    assert ran(ws) == fresh(root) == [("src/b.ts", 2, 14, 2322)]
    (root / "src/d.ts").write_text('import { y } from "./b";\nexport const z: string = y;\n')
    expected = [("src/b.ts", 2, 14, 2322), ("src/d.ts", 2, 14, 2322)]
    assert ran(ws) == fresh(root) == expected
    (root / "src/a.ts").write_text(FILES["src/a.ts"])  # back: b's error goes, d's stands
    assert ran(ws) == fresh(root) == [("src/d.ts", 2, 14, 2322)]
