"""TypeScript 5's builder parses a file again when an option its parse depends on changes
(TypeScript's `affectsSourceFile` options: jsxImportSource, jsx, target...), as tsc's own hosts
do (`shouldCreateNewSourceFile`; tsserver's document registry keys its files by them). The
builder's parsed files are shared by every program it makes, and a .tsx file's implied
jsx-runtime import is set on the parsed file by the first program reading it: after a
tsconfig's `jsxImportSource` edit (react -> preact) the daemon's check crashed with
"Debug Failure. False expression: Expected sourceFile.imports[0] to be the synthesized JSX
runtime import" (the examiner's toastkit, 5.9.3) where tsc -p says TS2875. Real TypeScript
5.9.3 against its own tsc -p."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

from lspd.servers.registry import node_executable
from lspd.workspace.tsbuilder import Builder
from tests.engine.test_affected import written
from tests.workspace.toolchains import TS_PINNED, gate, typescript_package

VERSION = "5.9.3"
RUNTIME = (
    "export namespace JSX {\n"
    "  interface IntrinsicElements {\n    [name: string]: unknown;\n  }\n"
    "  type Element = unknown;\n}\n"
    "export function jsx(type: unknown, props: unknown, key?: unknown): unknown;\n"
    "export function jsxs(type: unknown, props: unknown, key?: unknown): unknown;\n"
)


def _config(source: str) -> str:
    options = {
        "strict": True,
        "noEmit": True,
        "jsx": "react-jsx",
        "jsxImportSource": source,
        "module": "esnext",
        "moduleResolution": "bundler",
    }
    return json.dumps({"compilerOptions": options, "include": ["src"]})


def _project(root: Path) -> Path:
    root = written(
        root,
        {
            "tsconfig.json": _config("rt"),
            "node_modules/rt/package.json": '{"name": "rt", "version": "1.0.0"}',
            "node_modules/rt/jsx-runtime.d.ts": RUNTIME,
            "src/view.tsx": "export const view = <div>hi</div>;\n",
        },
    )
    (root / "node_modules" / "typescript").symlink_to(typescript_package(VERSION))
    return root


def _said(project: Any, file: Path) -> list[tuple[int, dict[str, int]]]:
    return [(i["code"], i["range"]["start"]) for i in project.items[file]]


def _checked_once(root: Path, version: str) -> Any:
    """The builder's check of `root`'s tsconfig.json, by TypeScript `version`."""

    async def run() -> Any:
        builder = Builder(typescript_package(version), root.parent / "tsbuilder.log")
        try:
            return await builder.check(root / "tsconfig.json")
        finally:
            await builder.stop()

    return asyncio.run(run())


def _checked_twice(root: Path, edit: str) -> tuple[list[Any], list[Any]]:
    """What the builder's check says of src/view.tsx, then after the tsconfig became `edit`
    (read at once: the builder's project is updated in place by its next check)."""
    view = root / "src/view.tsx"

    async def run() -> tuple[list[Any], list[Any]]:
        builder = Builder(typescript_package(VERSION), root.parent / "tsbuilder.log")
        try:
            before = _said(await builder.check(root / "tsconfig.json"), view)
            (root / "tsconfig.json").write_text(edit)
            return before, _said(await builder.check(root / "tsconfig.json"), view)
        finally:
            await builder.stop()

    return asyncio.run(run())


def test_a_jsx_import_source_edit_parses_the_tsx_files_again(tmp_path: Path) -> None:
    root = _project(tmp_path / "app")
    assert gate(root) == (0, "")
    before, after = _checked_twice(root, _config("missing"))
    code, out = gate(root)
    said = [line.split(": ", 1)[1].split(":", 1)[0] for line in out.splitlines()]
    assert (code, said) == (2, ["error TS7026", "error TS2875", "error TS7026"])
    assert before == []
    assert [c for c, _ in after] == [7026, 2875, 7026]
    assert after[1] == (2875, {"line": 0, "character": 20})


def test_a_program_emitting_declarations_only_is_checked_as_tsc_b_checks_it(
    tmp_path: Path,
) -> None:
    """`emitDeclarationOnly` (tsc -b writes the .d.ts alone: a composite monorepo's usual
    setting) beside the builder's own `noEmit` was TS5053 ('cannot be specified with option
    noEmit'), an options error tsc -b never says: the check stopped at it ('tsc stopped at
    tsconfig.json:1') and said 0 errors where tsc -b says src/a.ts's TS2322. TypeScript
    5.4.5 (5.9.3 no longer says TS5053 there)."""
    options = {"composite": True, "emitDeclarationOnly": True, "outDir": "dist", "strict": True}
    root = written(
        tmp_path / "app",
        {
            "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
            "src/a.ts": "export const a: string = 1;\n",
        },
    )
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS_PINNED))
    tsc = [node_executable(), "node_modules/typescript/bin/tsc", "-b", "--pretty", "false"]
    built = subprocess.run(tsc, cwd=root, capture_output=True, text=True, timeout=120)
    assert built.stdout.splitlines() == [
        "src/a.ts(1,14): error TS2322: Type 'number' is not assignable to type 'string'."
    ]

    project = _checked_once(root, TS_PINNED)
    assert (project.configured, project.stopped) == ([], [])
    assert _said(project, root / "src/a.ts") == [(2322, {"line": 0, "character": 13})]


def test_typescript_3_9_checks_an_emitting_program_again_after_an_edit(tmp_path: Path) -> None:
    """TypeScript before 4.0 marks an old program as reused and asserts it never is twice:
    the program made for an emitting tsconfig's options errors reused the builder's program,
    and the builder's next program after an edit reused it again. Every check after the
    first said 'Debug Failure. False expression. at tryReuseStructureFromOldProgram'
    (tsyringe, 3.9.7), after the edit was undone too, until the daemon was restarted."""
    options = {"strict": True, "target": "es2015", "module": "commonjs", "outDir": "dist"}
    root = written(
        tmp_path / "app",
        {
            "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
            "src/a.ts": "export const a = 1;\n",
            "src/b.ts": "import { a } from './a';\nexport const b: number = a;\n",
        },
    )
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package("3.9.7"))
    a = root / "src/a.ts"

    async def run() -> list[Any]:
        builder = Builder(typescript_package("3.9.7"), root.parent / "tsbuilder.log")
        try:
            said = []
            for text in ("export const a = 1;\n", "export const a = 'one';\n", a.read_text()):
                a.write_text(text)
                project = await builder.check(root / "tsconfig.json")
                said.append((project.stopped, _said(project, root / "src/b.ts")))
            return said
        finally:
            await builder.stop()

    assert gate(root) == (0, "")
    unchanged, broken, undone = asyncio.run(run())
    assert unchanged == undone == ([], [])
    assert broken == ([], [(2322, {"line": 1, "character": 13})])


def test_a_package_installed_twice_in_an_emitting_program_is_checked(tmp_path: Path) -> None:
    """One package at one version under two packages' node_modules (superstruct's
    pretty-format under @vitest/utils and @vitest/snapshot) is one parsed file and a
    redirect to it. The program made for an emitting tsconfig's options errors was given
    that redirect by its host: 'Debug Failure. False expression: Host should not return a
    redirect source file from `getSourceFile`', and the whole check failed (superstruct,
    redux-toolkit: 5.9.3)."""
    files = {
        "tsconfig.json": json.dumps(
            {"compilerOptions": {"strict": True, "outDir": "out"}, "include": ["src"]}
        ),
        "src/sum.ts": 'import { a } from "a";\nimport { b } from "b";\n'
        "export const sum: string = a().x + b().x;\n",
    }
    for name in "ab":
        files[f"node_modules/{name}/package.json"] = (
            f'{{"name": "{name}", "version": "1.0.0", "types": "index.d.ts"}}'
        )
        files[f"node_modules/{name}/index.d.ts"] = (
            f'import {{ Dup }} from "dup";\nexport declare function {name}(): Dup;\n'
        )
        files[f"node_modules/{name}/node_modules/dup/package.json"] = (
            '{"name": "dup", "version": "1.0.0", "types": "index.d.ts"}'
        )
        files[f"node_modules/{name}/node_modules/dup/index.d.ts"] = (
            "export interface Dup { x: number }\n"
        )
    root = written(tmp_path / "app", files)
    (root / "node_modules" / "typescript").symlink_to(typescript_package(VERSION))

    code, out = gate(root)
    assert (code, out.split(": ", 1)[1].split(":", 1)[0]) == (2, "error TS2322")
    project = _checked_once(root, VERSION)
    assert (project.stopped, _said(project, root / "src/sum.ts")) == (
        [],
        [(2322, {"line": 2, "character": 13})],
    )
