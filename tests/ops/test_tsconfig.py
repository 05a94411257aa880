"""A tsconfig.json that TypeScript 7 rejects fails `lspd check` as it fails the project's
`tsc`: the same errors at the same places (its LSP reports none of them)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from lspd import ops
from lspd.ops import check as check_ops
from lspd.workspace import Workspace
from tests.workspace.toolchains import TS7_PINNED, gate, typescript_package

# Options TypeScript 7 removed: tsc 7 stops at them (TS5108, TS5102) before any file.
REJECTED = """\
{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "target": "es5",
    "moduleResolution": "node",
    "baseUrl": "."
  },
  "include": ["src"]
}
"""
GATE_LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): (.*)$", re.MULTILINE)


def test_removed_options_fail_the_check_as_they_fail_tsc(tmp_path: Path) -> None:
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"name": "app", "private": True}))
    (root / "tsconfig.json").write_text(REJECTED)
    (root / "src" / "main.ts").write_text("export const n: number = 1;\n")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    code, output = gate(root)
    expected = [(p, int(line), int(col), c) for p, line, col, c, _ in GATE_LINE.findall(output)]
    assert code == 1 and [c for *_, c in expected] == ["5108", "5108", "5102"]

    async def run() -> ops.check_models.WorkspaceDiagnosticsResult:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            return await check_ops.workspace_diagnostics(ws)
        finally:
            await ws.close()

    result = asyncio.run(run())
    found = [(d.path, d.line, d.column, d.code) for d in result.diagnostics]
    assert found == expected
    assert result.errors == 3 and {d.severity for d in result.diagnostics} == {"error"}
    assert result.diagnostics[2].message == (
        "Option 'baseUrl' has been removed. Please remove it from your configuration.\n"
        'Use \'"paths": {"*": ["./*"]}\' instead.'
    )
