"""Vite's solution layout on TypeScript 7 (tsconfig.json `files: []` referencing
tsconfig.app.json and tsconfig.node.json): each referenced program is listed once a check
(`tsc -p --listFilesOnly`), its configuration's errors said once. Before, the program's
syntax (`native_program`) and the solution's configuration errors (`solution_check`) each
ran their own listing: both listed twice at a daemon's first check. Real TypeScript 7.0.2."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import native_program, solution_check
from tests.conftest import Warm, warm_root
from tests.engine.test_native_check import check
from tests.workspace.toolchains import TS7_PINNED, typescript_committed

OPTIONS = {"strict": True, "noEmit": True, "module": "esnext", "moduleResolution": "bundler"}
APP = {"compilerOptions": {**OPTIONS, "lib": ["ES2023", "DOM"]}, "include": ["src"]}
NODE = {"compilerOptions": {**OPTIONS, "lib": ["ES2023"]}, "include": ["vite.config.ts"]}
REFERENCED = ("./tsconfig.app.json", "./tsconfig.node.json")
FILES = {
    "tsconfig.json": json.dumps(
        {
            "files": [],
            "references": [{"path": "./tsconfig.app.json"}, {"path": "./tsconfig.node.json"}],
        }
    ),
    "tsconfig.app.json": json.dumps(APP),
    "tsconfig.node.json": json.dumps(
        {**NODE, "compilerOptions": {**NODE["compilerOptions"], "bogusOption": True}}
    ),
    "src/main.ts": "export const x: number = 1;\n",
    "vite.config.ts": "export default { y: 1 };\n",
}


@pytest.fixture
def vite(tmp_path: Path) -> Iterator[Warm]:
    root = typescript_committed(tmp_path / "p", FILES, TS7_PINNED)
    yield from warm_root(root, tmp_path / "logs", watch=True)


def test_each_program_is_listed_once(vite: Warm, monkeypatch: pytest.MonkeyPatch) -> None:
    found: list[str] = []
    listing = native_program.listed

    def counted(tsc: list[str], config: Path) -> object:
        found.append(config.name)
        return listing(tsc, config)

    monkeypatch.setattr(native_program, "listed", counted)
    monkeypatch.setattr(solution_check, "listed", counted)
    configured = {("tsconfig.node.json", 1, 124, "5023")}  # Unknown compiler option
    assert check(vite)[1] == configured
    assert sorted(found) == ["tsconfig.app.json", "tsconfig.json", "tsconfig.node.json"]

    found.clear()
    (vite.root / "tsconfig.node.json").write_text(json.dumps(NODE))  # fixed
    assert check(vite)[1] == set()
    assert found.count("tsconfig.node.json") == 1
