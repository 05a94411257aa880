"""A project whose gate runs `tsgo` (TypeScript 7's preview) is checked by the preview, not by
the `typescript` it keeps beside it for other tools: rolldown-plugin-dts's `"typecheck":
"tsgo --noEmit"` was checked with its typescript@6, whose errors differ (a `baseUrl` tsgo
rejects, TS5102). The same project gated by `tsc` keeps its `typescript`. Real
@typescript/native-preview and TypeScript 5.9.3."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from lspd.servers.registry import node_executable
from tests.conftest import answer
from tests.workspace.toolchains import preview_package, typescript_committed

CONFIG = {"compilerOptions": {"strict": True, "noEmit": True, "baseUrl": "."}, "include": ["src"]}
FILES = {
    "tsconfig.json": json.dumps(CONFIG),
    "src/a.ts": "export const a: number = 1;\n",
}


def tsgo(root: Path) -> str:
    """The project's own `tsgo --noEmit` (its gate): what it prints."""
    script = root / "node_modules/@typescript/native-preview/bin/tsgo"
    done = subprocess.run(
        [node_executable(), str(script), "--noEmit"], cwd=root, capture_output=True, text=True
    )
    return done.stdout


@pytest.mark.parametrize("gate", ["tsgo", "tsc"])
def test_the_gate_s_compiler_checks_the_project(tmp_path: Path, gate: str) -> None:
    scripts = {"typecheck": f"{gate} --noEmit"}
    files = {**FILES, "package.json": json.dumps({"scripts": scripts})}
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    (root / "node_modules/@typescript").mkdir()
    (root / "node_modules/@typescript/native-preview").symlink_to(preview_package())
    checked = answer(root, check_all)
    found = [(r.path, d.line, d.code) for r in checked.results for d in r.diagnostics]
    if gate == "tsc":  # TypeScript 5.9's tsc takes baseUrl
        assert found == []
        return
    assert "tsconfig.json(1,54): error TS5102" in tsgo(root)
    assert found == [("tsconfig.json", 1, "5102")]
