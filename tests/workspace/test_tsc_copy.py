"""tsc on a copy (`workspace/tsc_copy.py`) checks a program whose tsconfig sets
`emitDeclarationOnly`: TypeScript before 5.6 refuses that beside the `--noEmit` lspd's runs
pass (TS5053, a configuration error: tsc checks nothing then), where the project's own `tsc`
(which emits its declarations) or `tsc -b` says the program's errors. Real TypeScript 5.4.5
and 5.9.3 against the project's own `tsc -p`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from lspd.servers.registry import node_executable
from lspd.workspace.tsc_copy import checked_copy
from tests.engine.test_affected import written
from tests.workspace.toolchains import typescript_package

CONFIG = {
    "compilerOptions": {"declaration": True, "emitDeclarationOnly": True, "outDir": "dist"},
    "include": ["src"],
}
BROKEN = 'export const x: number = "s";\n'


@pytest.mark.parametrize("version", ["5.4.5", "5.9.3"])
def test_a_program_emitting_declarations_only_is_checked(tmp_path: Path, version: str) -> None:
    root = written(tmp_path / "p", {"tsconfig.json": json.dumps(CONFIG), "src/a.ts": "\n"})
    tsc = [node_executable(), str(typescript_package(version) / "bin" / "tsc")]
    config, source = root / "tsconfig.json", root / "src" / "a.ts"
    found = checked_copy(tsc, root, config, {source: BROKEN}, tmp_path / "copies")
    assert found is not None
    assert [(e.file, e.line, e.column, e.code) for e in found.errors] == [(source, 1, 14, "2322")]
    source.write_text(BROKEN)  # the project's own tsc, emitting its declarations
    own = subprocess.run([*tsc, "-p", str(config)], capture_output=True, text=True, cwd=root)
    assert own.stdout.startswith("src/a.ts(1,14): error TS2322: "), own.stdout
