"""A preview compares no changed file the gate does not check, as `check --baseline` compares
none: neverthrow's tests/safe-try.test.ts and ky's test/prefix.ts (no tsconfig of their
gates holds them) had a TS2322 introduced by preview where the baseline and `tsc -p` said
nothing. Its note says how many were left out. Real TypeScript 5.9.3."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import preview
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.workspace.toolchains import own_tsc, typescript_committed

OPTIONS = {"strict": True, "noEmit": True}
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src/index.ts"]}),
    "src/index.ts": "export function f(n: number): number {\n  return n;\n}\n",
    "src/extra.ts": 'import { f } from "./index";\nexport const z = f(1);\n',
}
BROKEN = 'const bad: number = "x";\n' + FILES["src/extra.ts"]


def test_a_file_outside_the_gate_is_not_compared(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "p", FILES, "5.9.3")
    change = [{"path": "src/extra.ts", "content": BROKEN}]
    previewed = answer(root, lambda ws: preview(ws, change)).changes
    assert previewed.introduced == []
    assert "1 changed file(s) the gate does not check, not compared" in previewed.scope
    written(root, {"src/extra.ts": BROKEN})
    assert own_tsc(root, "--noEmit") == ""
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert since is not None and since.introduced == []
