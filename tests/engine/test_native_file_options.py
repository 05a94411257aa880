"""`diagnostics FILE` on TypeScript 7 says what tsc -p says of the file where its program's
options err: nothing (7.0.2's TS5108, `"moduleResolution": "node10"`, stops the semantic
check: `tsc -p` says TS5108 alone), the file stopped at tsconfig.json (`native_file`; it said
src/a.ts's TS2322); its own syntax error is still said (tsc's first rule). Real TypeScript
7.0.2 against its own tsc -p."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.ops.file_diagnostics import diagnostics
from tests.conftest import answer
from tests.workspace.toolchains import gate, typescript_committed

OPTIONS = {"strict": True, "noEmit": True, "target": "es2022", "types": []}
REMOVED = {**OPTIONS, "module": "commonjs", "moduleResolution": "node10"}


def _project(root: Path) -> Path:
    config = {"compilerOptions": REMOVED, "include": ["src"]}
    files = {"tsconfig.json": json.dumps(config), "src/a.ts": "export const n: number = 'x';\n"}
    return typescript_committed(root, files, "7.0.2")


def test_a_file_of_a_program_its_options_stopped_says_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path / "app")
    code, out = gate(root)
    assert (code, [line.split(": ")[1] for line in out.splitlines()]) == (1, ["error TS5108"])
    result = answer(root, lambda ws: diagnostics(ws, "src/a.ts"))
    assert (result.diagnostics, result.errors) == ([], 0)
    assert result.checker == (
        "tsc stopped at the configuration error at tsconfig.json:1: it reports a program's "
        "configuration errors alone while it has any, so this file's other errors are not checked"
    )


def test_its_own_syntax_error_is_said(tmp_path: Path) -> None:
    root = _project(tmp_path / "app")
    (root / "src/a.ts").write_text("export const n: number = ;\n")
    assert [line.split(": ")[1] for line in gate(root)[1].splitlines()] == ["error TS1109"]
    result = answer(root, lambda ws: diagnostics(ws, "src/a.ts"))
    assert [d.code for d in result.diagnostics] == ["1109"]
