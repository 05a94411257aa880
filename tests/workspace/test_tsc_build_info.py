"""tsc runs of lspd write nothing into the repository: `tsc -p --noEmit` still writes a
composite or incremental program's `.tsbuildinfo` (where its `tsBuildInfoFile` says, Vite's
`node_modules/.tmp/`, which a copy reaches through its linked node_modules; else beside the
configuration), so each run sends it to a scratch folder
(`tsc_incremental.checked_output`): the disk's run of a solution's other program
(`program_runs.program_items`) and a run on a copy (`tsc_copy.checked_copy`). Real
TypeScript 5.4.5 and 7.0.2, their errors unchanged."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from lspd.engine.program_runs import compiler_of, program_items
from lspd.workspace import Workspace
from lspd.workspace.tsc_copy import checked_copy
from tests.engine.test_affected import written
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_package

APP = {"composite": True, "strict": True, "types": [], "outDir": "dist"}
FILES = {
    "tsconfig.app.json": json.dumps({"compilerOptions": APP, "include": ["app"]}),
    "tsconfig.node.json": json.dumps(
        {
            "compilerOptions": {
                "incremental": True,
                "tsBuildInfoFile": "./node_modules/.tmp/node.tsbuildinfo",
                "strict": True,
                "types": [],
            },
            "include": ["tools"],
        }
    ),
    "app/main.ts": "export const area: string = 2;\n",
    "tools/build.ts": "export const out: number = 'dist';\n",
}


def _built_info(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.tsbuildinfo"))


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_no_build_info_is_written_into_the_project(tmp_path: Path, version: str) -> None:
    root = written(tmp_path / "ts", FILES)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    ws = Workspace(root, log_dir=tmp_path / "logs")
    app, node = root / "tsconfig.app.json", root / "tsconfig.node.json"
    tsc = compiler_of(ws, node)
    assert tsc is not None
    on_disk = asyncio.run(program_items(ws, node, [root / "tools/build.ts"]))
    assert [(p.name, [i["code"] for i in items]) for p, items in on_disk.items()] == [
        ("build.ts", [2322])
    ]
    held = {root / "app/main.ts": "export const area: number = 2;\n"}
    for config in (app, node):
        checked = checked_copy(tsc, root, config, held, tmp_path / "state")
        assert checked is not None
    assert checked is not None and [(e.file.name, e.code) for e in checked.errors] == [
        ("build.ts", "2322")
    ]
    assert _built_info(root) == []
