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
from tests.workspace.toolchains import TS_PINNED, gate, typescript_package

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


HIDDEN = "export interface Hidden { a: 1 }\nexport function make(): Hidden { return { a: 1 }; }\n"
UNEXPORTED = HIDDEN.replace("export interface", "interface")  # b.ts's `x` cannot be named
USES = 'import { make } from "./a";\nexport const x = make();\n'


def _declaring(root: Path, version: str) -> Path:
    options = {"strict": True, "noEmit": True, "declaration": True}
    files = {
        "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
        "src/a.ts": HIDDEN,
        "src/b.ts": USES,
        "src/c.ts": CLEAN,
    }
    root = written(root, files)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    return root


def _checks(root: Path, version: str, edits: list[dict[str, str]]) -> list[list[str]]:
    """The builder's errors after each of `edits` (file name -> text) written, in order."""

    async def run() -> list[list[str]]:
        builder = Builder(typescript_package(version), root.parent / "tsbuilder.log")
        said = []
        try:
            for edit in edits:
                written(root, edit)
                project = await builder.check(root / "tsconfig.json")
                said.append(
                    sorted(
                        f"{p.name}:{i['range']['start']['line'] + 1} TS{i['code']}"
                        for p, items in project.items.items()
                        for i in items
                    )
                )
            return said
        finally:
            await builder.stop()

    return asyncio.run(run())


def test_a_files_declaration_diagnostics_are_asked_again_after_a_check_that_said_none(
    tmp_path: Path,
) -> None:
    """b.ts's `x` can no longer be named once a.ts stops exporting `Hidden` (TS4023), while
    c.ts's TS2322 hides it; c.ts fixed alone, tsc -p says the TS4023. The builder kept b.ts's
    empty list from the first check and said nothing."""
    root = _declaring(tmp_path / "app", VERSION)
    said = _checks(
        root,
        VERSION,
        [{}, {"src/a.ts": UNEXPORTED, "src/c.ts": BROKEN}, {"src/c.ts": CLEAN}],
    )
    assert said == [[], ["c.ts:1 TS2322"], ["b.ts:2 TS4023"]]
    assert _codes(root) == ["src/b.ts(2,14) TS4023:"]


def test_before_typescript_5_6_no_declaration_diagnostic_is_said_under_no_emit(
    tmp_path: Path,
) -> None:
    """TypeScript 5.4's tsc -p says no declaration diagnostic of a `declaration` program
    under noEmit (5.6 began to); its builder said b.ts's TS4023 all the same."""
    root = _declaring(tmp_path / "app", TS_PINNED)
    written(root, {"src/a.ts": UNEXPORTED})
    assert gate(root) == (0, "")
    assert _checks(root, TS_PINNED, [{}]) == [[]]
