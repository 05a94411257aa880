"""jiti's shape (`workspace/tsc_no_emit.py`): its gate `tsgo --noEmit` checks a tsconfig
that emits, `allowJs` over lib/*.mjs. As `tsc -p` reads it, each .mjs's output would
overwrite it: TS5055, which stopped the program's check (40 of them, 0 files checked, where
its gate says 0). A gate giving `--noEmit` says none; one that emits still does. Real
TypeScript 5 (the project's)."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.workspace.tsc_no_emit import run_without_emit
from tests.workspace.test_typescript_gated import said, tsc
from tests.workspace.toolchains import own_tsc, typescript_committed

CONFIG = {
    "compilerOptions": {"strict": True, "allowJs": True, "module": "preserve", "types": []},
    "include": ["src", "lib"],
}
FILES = {
    "tsconfig.json": json.dumps(CONFIG),
    "src/a.ts": 'export const bad: number = "x";\n',
    "lib/b.mjs": "export const two = 2;\n",
}


def test_a_gate_giving_no_emit_says_no_write_error(tmp_path: Path) -> None:
    scripts = {"typecheck": "tsc --noEmit"}
    root = typescript_committed(
        tmp_path / "p", {**FILES, "package.json": json.dumps({"scripts": scripts})}, "5.9.3"
    )
    assert tsc(root, "--noEmit") == ["src/a.ts(1,14): TS2322"]  # the gate
    assert run_without_emit(root / "tsconfig.json", root)
    assert said(root) == [("src/a.ts", 1, "2322")]


def test_a_gate_that_emits_stops_where_tsc_does(tmp_path: Path) -> None:
    scripts = {"build": "tsc", "typecheck": "tsc --noEmit"}  # the build writes
    root = typescript_committed(
        tmp_path / "p", {**FILES, "package.json": json.dumps({"scripts": scripts})}, "5.9.3"
    )
    assert not run_without_emit(root / "tsconfig.json", root)
    assert [code for _, _, code in said(root)] == ["5055"]
    # (tsc's build, last: it writes src/a.js beside its input)
    assert "error TS5055: Cannot write file" in own_tsc(root, "-p", ".", "--pretty", "false")
