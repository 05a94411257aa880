"""TypeScript 5's builder says a program's declaration diagnostics as tsc -p does: under
noEmit, with declarations emitted (`declaration`, `composite`), only when nothing else was
said (emitFilesAndReportErrors: no syntactic, options, global or semantic diagnostic). It never
asked for them: the mixed-workspace examiner's isolatedDeclarations TS9010, on which tsc -p
fails, was missing from `lspd check`, check --baseline, the hook and the stop gate. An error
elsewhere takes them away, its fix brings them back, in a check and in a preview. Real
TypeScript 5.9.3 against its own tsc -p."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from lspd.workspace.tsbuilder import Builder
from tests.engine.test_affected import written
from tests.workspace.toolchains import gate, typescript_package

VERSION = "5.9.3"
OPTIONS = {"strict": True, "noEmit": True, "declaration": True, "isolatedDeclarations": True}
UNTYPED = "export function f(): number {\n  return 1;\n}\nexport const g = f();\n"  # TS9010
CLEAN = "export const n: number = 1;\n"
BROKEN = 'export const n: number = "x";\n'  # TS2322


def _project(root: Path) -> Path:
    config = {"compilerOptions": OPTIONS, "include": ["src"]}
    files = {"tsconfig.json": json.dumps(config), "src/a.ts": UNTYPED, "src/b.ts": CLEAN}
    root = written(root, files)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(VERSION))
    return root


def _codes(root: Path) -> list[str]:
    """tsc -p's answer: file(line,col) and code of each error."""
    return [line.split(": ")[0] + " " + line.split()[2] for line in gate(root)[1].splitlines()]


def _said(project: Any, root: Path) -> dict[str, list[tuple[int, int, int]]]:
    return {
        name: [
            (i["code"], i["range"]["start"]["line"] + 1, i["range"]["start"]["character"] + 1)
            for i in project.items[root / "src" / name]
        ]
        for name in ("a.ts", "b.ts")
    }


def test_declaration_diagnostics_are_said_when_nothing_else_is(tmp_path: Path) -> None:
    root = _project(tmp_path / "app")
    assert _codes(root) == ["src/a.ts(4,14) TS9010:"]
    b = root / "src/b.ts"

    async def run() -> list[dict[str, list[tuple[int, int, int]]]]:
        builder = Builder(typescript_package(VERSION), root.parent / "tsbuilder.log")
        config = root / "tsconfig.json"
        try:
            said = [_said(await builder.check(config), root)]
            b.write_text(BROKEN)
            said.append(_said(await builder.check(config), root))
            said.append(_said(await builder.preview(config, {b: CLEAN}), root))
            b.write_text(CLEAN)
            said.append(_said(await builder.check(config), root))
            said.append(_said(await builder.preview(config, {b: BROKEN}), root))
            return said
        finally:
            await builder.stop()

    clean = {"a.ts": [(9010, 4, 14)], "b.ts": []}
    broken = {"a.ts": [], "b.ts": [(2322, 1, 14)]}
    b.write_text(BROKEN)
    assert _codes(root) == ["src/b.ts(1,14) TS2322:"]  # the TS9010 unsaid beside it
    b.write_text(CLEAN)
    assert asyncio.run(run()) == [clean, broken, clean, clean, broken]
