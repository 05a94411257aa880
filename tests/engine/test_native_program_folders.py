"""A folder holding files of two programs (Vite's root: app.ts of tsconfig.app.json,
vite.config.ts of tsconfig.node.json, under a solution tsconfig.json referencing both): each
file is its own program's (`native_program.configs_of`). Before, the folder's configuration
was looked up once, by its first file: vite.config.ts was taken for the app's program, so its
syntax error stopped nothing and `check --baseline HEAD` said its TS2322 at HEAD fixed, where
`tsc -b` stops at the syntax error (the error not checked). Real TypeScript 7.0.2."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import answer
from tests.engine.test_jsconfig_programs import LINE
from tests.engine.test_native_check import CONFIG
from tests.workspace.toolchains import TS7_PINNED, own_tsc, typescript_committed

OPTIONS = {**CONFIG["compilerOptions"], "composite": True, "emitDeclarationOnly": True}
OPTIONS.pop("noEmit")
REFERENCES = [{"path": "./tsconfig.app.json"}, {"path": "./tsconfig.node.json"}]
CONFIG_TEXT = "export const v: number = 'v';\n"  # TS2322 at HEAD
FILES = {
    "tsconfig.json": json.dumps({"files": [], "references": REFERENCES}),
    "tsconfig.app.json": json.dumps(
        {"compilerOptions": {**OPTIONS, "outDir": "out/app"}, "include": ["app.ts"]}
    ),
    "tsconfig.node.json": json.dumps(
        {"compilerOptions": {**OPTIONS, "outDir": "out/node"}, "include": ["vite.config.ts"]}
    ),
    "app.ts": "export const a: number = 1;\n",
    "vite.config.ts": CONFIG_TEXT,
}
SYNTAX = {("vite.config.ts", 2, 19, "1138"), ("vite.config.ts", 2, 28, "1005")}


def test_a_folder_of_two_programs_stops_each_its_own(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "p", FILES, TS7_PINNED)
    (root / "vite.config.ts").write_text(f"{CONFIG_TEXT}export function f(: number {{}}\n")
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD"))
    changes = since.changes
    assert changes is not None
    said = {(d.path, d.line, d.column, d.code) for d in changes.introduced}
    out = own_tsc(root, "-b", "--pretty", "false")  # after lspd's check: it writes out/
    truth = {(p, int(line), int(column), c) for p, line, column, c in LINE.findall(out)}
    assert said == truth == SYNTAX | {("vite.config.ts", 3, 1, "1005")}
    assert [s.at for s in changes.stopped] == [["vite.config.ts:2", "vite.config.ts:3"]]
    assert (changes.fixed, changes.stopped[0].not_checked) == ([], 1)
