"""One file's diagnostics without a watcher (`lspd diagnostics FILE`, no daemon): against a
baseline one question, so a TypeScript 7 program is listed once for it; without one, the
gate's scope read only where a solution-style layout may hold the file."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.models import DiagnosticsResult
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.engine.test_native_check import listed, native_project
from tests.engine.test_solution_check import DOCUMENT, FILES, shared, tsc_b
from tests.workspace.test_tsconfig_scope import readings
from tests.workspace.toolchains import (
    TS7_PINNED,
    own_tsc,
    typescript_committed,
    typescript_package,
)

# Beside the solution: a project whose tsconfig.json names no references, and one naming
# references whose own files hold its file (no layout: its tsc -p --showConfig lists it)
STRICT = {"compilerOptions": {"strict": True}, "include": ["src"]}
COMPOSITE = {"compilerOptions": {"strict": True, "composite": True}, "include": ["src"]}
OWN = {
    "own/tsconfig.json": json.dumps(COMPOSITE),
    "own/src/leaf.ts": "export const x: string = 1;\n",
    "own/src/user.ts": "export const y: number = 2;\n",
    "refs/tsconfig.json": json.dumps({**STRICT, "references": [{"path": "../own"}]}),
    "refs/src/use.ts": "export const z: number = 'z';\n",
}


def test_a_one_shot_baseline_lists_a_typescript_7_program_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's check and HEAD's texts held were each listed anew (mobx's usage.ts: three
    `tsc -p --listFilesOnly`, 0.43-0.60 s each at load 8); once now, and once more for the
    next question (a file may have come)."""
    root = native_project(tmp_path / "ts7")
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "base"]):
        subprocess.run(["git", *author, *args], cwd=root, check=True, capture_output=True)
    (root / "src" / "leaf.ts").write_text("export const x: string = 1;\n")
    listings = listed(monkeypatch)

    async def introduced(ws: Workspace) -> list[tuple[int, str]]:
        result = await diagnostics(ws, "src/leaf.ts", baseline="HEAD")
        assert result.changes is not None
        return [(d.line, d.code or "") for d in result.changes.introduced]

    async def run() -> None:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            assert ws.changes_seen is None
            assert await introduced(ws) == [(1, "2322")]
            assert listings == [root / "tsconfig.json"]
            assert await introduced(ws) == [(1, "2322")]
            assert listings == [root / "tsconfig.json"] * 2
        finally:
            await ws.close()

    asyncio.run(run())


def test_a_one_shot_reads_the_gates_scope_only_where_a_layout_may_hold_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gate's scope (TypeScript's reading of every tsconfig, a Node run of 0.75-1.2 s on
    the examiner's monorepo) was read after every one-shot answer of a TypeScript file, for
    the solution-style layouts' other programs. A file whose nearest tsconfig.json names no
    `references`, or holds it among its own files, is in none: its answer is tsc -p's
    without it. Vite's layout beside a
    project of its own, on TypeScript 7.0.2: app/shapes.ts, in both programs of the
    solution, is still checked in each (tsc -b's TS2584 under the node program's lib)."""
    root = written(tmp_path / "ts", {**FILES, **OWN})
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    shared(root, DOCUMENT)
    read = readings(monkeypatch)

    def said(path: str) -> list[tuple[int, int, str]]:
        result = answer(root, lambda ws: diagnostics(ws, path))
        return [(d.line, d.column, d.code or "") for d in result.diagnostics]

    assert said("own/src/leaf.ts") == [(1, 14, "2322")]
    assert said("own/src/user.ts") == []
    assert said("refs/src/use.ts") == [(1, 14, "2322")]
    assert read == []
    assert own_tsc(root, "-p", "own", "--noEmit", "--pretty", "false") == (
        "own/src/leaf.ts(1,14): error TS2322: Type 'number' is not assignable to type 'string'.\n"
    )
    assert own_tsc(root, "-p", "refs", "--noEmit", "--pretty", "false") == (
        "refs/src/use.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.\n"
    )
    assert said("app/shapes.ts") == [(2, 22, "2584")]
    assert ("app/shapes.ts", 2, 22, 2584) in [t[:4] for t in tsc_b(root)]
    found = [
        root / "own" / "tsconfig.json",
        root / "refs" / "tsconfig.json",
        root / "tsconfig.json",
    ]
    assert read == [found, found]  # asked of TypeScript 7 (no API), then lspd's 5


BASE = {"strict": True, "composite": True, "emitDeclarationOnly": True, "types": []}
# Vite's layout with the app's tsconfig.json in its own folder (naming no references): the
# node program holds src/shared.ts too, so tsc -b checks it under both libs
NESTED = {
    "tsconfig.json": json.dumps(
        {"files": [], "references": [{"path": "./src"}, {"path": "./tsconfig.node.json"}]}
    ),
    "src/tsconfig.json": json.dumps(
        {"compilerOptions": {**BASE, "lib": ["es2022", "dom"], "outDir": "../out/app"}}
    ),
    "tsconfig.node.json": json.dumps(
        {
            "compilerOptions": {**BASE, "lib": ["es2022"], "outDir": "out/node"},
            "include": ["src/shared.ts"],
        }
    ),
    "src/shared.ts": "export const title: string = document.title;\n",
    "src/main.ts": 'import { title } from "./shared";\n\nexport const t: string = title;\n',
}


def test_a_file_whose_nearest_tsconfig_a_solution_references_is_checked_in_each(
    tmp_path: Path,
) -> None:
    """src/shared.ts's nearest tsconfig.json (src/, no references) is one program of the
    root's solution, tsconfig.node.json another: tsc -b's TS2584 of it (no DOM there) was
    said by neither `lspd check` nor `lspd diagnostics FILE` (a layout counted a file only
    where the solution was its nearest tsconfig.json). TypeScript 7.0.2."""
    root = written(tmp_path / "ts", NESTED)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    assert [t[:4] for t in tsc_b(root)] == [("src/shared.ts", 1, 30, 2584)]
    result = answer(root, lambda ws: diagnostics(ws, "src/shared.ts"))
    assert [(d.line, d.column, d.code) for d in result.diagnostics] == [(1, 30, "2584")]
    found = answer(root, lambda ws: workspace_diagnostics(ws, limit=100)).diagnostics
    assert [(d.path, d.line, d.column, d.code) for d in found] == [("src/shared.ts", 1, 30, "2584")]


def test_a_relative_import_not_found_gets_no_npm_install_hint(tmp_path: Path) -> None:
    """`./gone` names a file not there (deleted, misspelt): `npm install` cannot bring it, so
    no hint says so; a package declared, not installed, still gets it, and one no
    package.json declares is said so. Real TypeScript 5."""
    root = typescript_committed(
        tmp_path / "p",
        {
            "package.json": '{"devDependencies": {"not-installed": "1.0.0"}}',
            "tsconfig.json": '{"compilerOptions": {"strict": true}, "include": ["src"]}',
            "src/a.ts": 'import { x } from "./gone";\nexport const y = x;\n',
            "src/b.ts": 'import { x } from "not-installed";\nexport const y = x;\n',
            "src/c.ts": 'import { x } from "printj";\nexport const y = x;\n',
        },
    )

    async def ask(ws: Workspace) -> list[DiagnosticsResult]:
        return [await diagnostics(ws, f"src/{name}.ts") for name in "abc"]

    a, b, c = answer(root, ask)
    assert (
        [(d.line, d.code) for d in a.diagnostics]
        == [(1, "2307")]
        == [(d.line, d.code) for d in b.diagnostics]
        == [(d.line, d.code) for d in c.diagnostics]
    )
    # consola's `printj`, which no package.json declares: no install brings it
    assert c.environment == (
        f"imports did not resolve with {c.toolchain}: no package.json from the file's folder up "
        "declares `printj`, so installing brings nothing; add it to the dependencies (or mend "
        "the import)"
    )
    assert a.environment is None
    assert b.environment == (
        f"imports did not resolve with {b.toolchain}; run `npm install` in the project (a "
        "package of its workspace resolves once built, where its package.json points into a "
        "folder not built yet)"
    )
    # pnpm's lockfile: pnpm's install (TanStack/store was told `npm install`)
    (root / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    again = answer(root, lambda ws: diagnostics(ws, "src/b.ts"))
    assert again.environment is not None and "; run `pnpm install` in the" in again.environment


def test_classic_module_resolution_is_said_not_an_install(tmp_path: Path) -> None:
    """hotscript's `module: ESNext` without `moduleResolution`: TypeScript resolves imports
    the classic way, in no node_modules (TS2792); the hint said to run `npm install` where
    everything was installed."""
    root = typescript_committed(
        tmp_path / "p",
        {
            "tsconfig.json": '{"compilerOptions": {"module": "esnext"}, "include": ["src"]}',
            "src/c.ts": 'import { x } from "installed";\nexport const y = x;\n',
        },
    )
    c = answer(root, lambda ws: diagnostics(ws, "src/c.ts"))
    assert [(d.line, d.code) for d in c.diagnostics] == [(1, "2792")]
    assert c.environment is not None
    assert "(TS2792: `classic`" in c.environment and "installing changes nothing" in c.environment


def test_a_librarys_optional_peer_not_found_is_said_so(tmp_path: Path) -> None:
    """magicast's tsdown declarations import optional peers of theirs, which no install
    brings: tsc says a TS2307 in the library's file, and the hint said `npm install`. A
    missing dependency that is no optional peer still gets the install hint."""
    lib = {
        "name": "lib",
        "version": "1.0.0",
        "types": "index.d.ts",
        "peerDependencies": {"optional-peer": "*"},
        "peerDependenciesMeta": {"optional-peer": {"optional": True}},
    }
    root = typescript_committed(
        tmp_path / "p",
        {
            "package.json": '{"scripts": {"t": "tsc --noEmit"}, "devDependencies": {"lib": "1"}}',
            "tsconfig.json": '{"compilerOptions": {"strict": true, "moduleResolution": '
            '"bundler", "module": "esnext", "noEmit": true}, "include": ["src"]}',
            "src/index.ts": 'import { x } from "lib";\nexport const y = x;\n',
        },
    )
    written(
        root / "node_modules/lib",
        {
            "package.json": json.dumps(lib),
            "index.d.ts": 'import type { T } from "optional-peer";\n'
            "export declare const x: number;\nexport type U = T;\n",
        },
    )
    said = answer(root, lambda ws: workspace_diagnostics(ws))
    assert [(d.path, d.line, d.code) for d in said.diagnostics] == [
        ("node_modules/lib/index.d.ts", 1, "2307")
    ]
    [hint] = said.environment
    assert hint.endswith(
        " in lib's own declarations: `optional-peer`, its optional peer dependencies, which no "
        "install brings with it; tsc says the same (add them to the project's "
        "devDependencies, or set `skipLibCheck`)"
    )
    del lib["peerDependenciesMeta"]  # a peer an install brings
    (root / "node_modules/lib/package.json").write_text(json.dumps(lib))
    [hint] = answer(root, lambda ws: workspace_diagnostics(ws)).environment
    assert "; run `npm install` in the project" in hint
