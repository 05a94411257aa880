"""The gate's TypeScript projects (`workspace/typescript_projects.py`): each tsconfig's files
as TypeScript's own `tsc -p --listFilesOnly` lists them, and a tsconfig TypeScript cannot
read named with its fix."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops.check import workspace_diagnostics
from lspd.servers.registry import definitions, node_executable
from tests.conftest import answer
from tests.workspace.test_scope import scope_of, shown, write


def tsc_lists(root: Path, config: str) -> set[str]:
    """`tsc -p CONFIG --listFilesOnly` of lspd's TypeScript: the project's own files."""
    package = definitions()["typescript-language-server"].npm_root() / "typescript"
    done = subprocess.run(
        [node_executable(), str(package / "bin" / "tsc"), "-p", config, "--listFilesOnly"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    listed = {Path(line) for line in done.stdout.splitlines() if line.strip()}
    return {p.relative_to(root).as_posix() for p in listed if root in p.parents}


def test_tsconfigs_files_as_tsc_lists_them(tmp_path: Path) -> None:
    strict = '"compilerOptions": {"strict": true, "composite": true}'
    root = write(
        tmp_path / "p",
        {
            # ky's shape: the root config includes `source`, `test/` is outside it
            "ky/tsconfig.base.json": '{"compilerOptions": {"strict": true}}',
            "ky/tsconfig.json": '{"extends": "./tsconfig.base.json", "include": ["source"]}',
            "ky/source/index.ts": 'export { u } from "../shared/util";\n',
            "ky/shared/util.ts": "export const u = 1;\n",  # outside `include`, imported
            "ky/source/types.d.ts": "export type T = string;\n",
            "ky/test/main.ts": "const x: number = 'no';\n",
            # a solution-style config naming others, one of them not called tsconfig.json
            "packages/tsconfig.json": '{"files": [], "references": [{"path": "./a"}, '
            '{"path": "./b/tsconfig.lib.json"}]}',
            "packages/a/tsconfig.json": "{" + strict + ', "include": ["src"]}',
            "packages/a/src/x.ts": "export const x = 1;\n",
            "packages/b/tsconfig.lib.json": "{" + strict + ', "files": ["lib/y.ts"]}',
            "packages/b/lib/y.ts": "export const y = 2;\n",
            "packages/b/lib/z.ts": "export const z = 3;\n",  # not in `files`
            "scripts/tool.ts": "export const t = 1;\n",  # no tsconfig above it: as before
            "scripts/run.js": "console.log(1);\n",  # JavaScript no config asks to check
        },
    )
    scope = scope_of(root)
    gate = (
        tsc_lists(root, "ky/tsconfig.json")
        | tsc_lists(root, "packages/a")
        | tsc_lists(root, "packages/b/tsconfig.lib.json")
    )
    assert gate == {"ky/source/index.ts", "ky/source/types.d.ts", "ky/shared/util.ts",
                    "packages/a/src/x.ts", "packages/b/lib/y.ts"}  # fmt: skip
    assert shown(root, scope) == sorted(gate | {"scripts/tool.ts"})
    lines = [(p.config, len(p.files), p.note) for p in scope.projects]
    assert lines == [
        ("ky/tsconfig.json", 3, None),
        ("packages/a/tsconfig.json", 1, None),
        ("packages/b/tsconfig.lib.json", 1, None),
        ("packages/tsconfig.json", 0, "references 2 project(s)"),
        (None, 1, "no tsconfig.json: every file"),
    ]
    assert scope.outside == 3  # ky/test/main.ts, packages/b/lib/z.ts, scripts/run.js


def test_a_tsconfig_typescript_cannot_read_is_named_with_the_fix(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"web/tsconfig.json": '{"include": ["src"', "web/src/a.ts": ""})
    with pytest.raises(InvalidInput) as raised:
        scope_of(root)
    assert str(raised.value).startswith(
        "web/tsconfig.json:1:19: TypeScript cannot read this tsconfig: TS1005 ']' expected. "
        "Fix it (`tsc -p web/tsconfig.json` says the same)"
    )
    write(root, {"web/tsconfig.json": '{"extends": "./missing.json"}'})
    with pytest.raises(InvalidInput) as raised:
        scope_of(root)
    assert "TS6053" in str(raised.value) or "TS5083" in str(raised.value)


def test_typescript_no_tsconfig_or_package_claims_in_a_python_project_is_left_out(
    tmp_path: Path,
) -> None:
    """textual's tools/gen_easings_tests.ts: no tsconfig.json or package.json above it, in a
    project whose gate is mypy's; 5 errors nothing the project runs says. Left out and said,
    as is jsonschema's vendored Deno script under a package.json naming no TypeScript; one
    in an npm package depending on TypeScript is checked as before; `--all` checks it; a
    package.json naming TypeScript written above it (watched) makes it a package's again."""
    root = write(
        tmp_path / "p",
        {
            "pyproject.toml": "[project]\nname = 'p'\n",
            "pkg/__init__.py": "",
            "tools/gen.ts": "const n: number = 'one';\n",
            "tools/deep/more.ts": "export const m = 1;\n",
            "web/package.json": '{"devDependencies": {"typescript": "5.9.3"}}',
            "web/main.ts": "export const w: number = 1;\n",
            "json/package.json": '{"name": "suite", "license": "MIT"}',
            "json/bin/check.ts": "#!/usr/bin/env deno\nconsole.log(Deno.args);\n",
        },
    )
    scope = scope_of(root)
    assert shown(root, scope) == ["pkg/__init__.py", "web/main.ts"]
    lines = [(p.project.relative_to(root).as_posix(), len(p.files), p.note) for p in scope.projects]
    note = (
        "not checked: TypeScript in a Python project that no tsconfig.json, nor package.json "
        "naming TypeScript, claims, so nothing the project runs checks it "
        "(`lspd check --all` does)"
    )
    assert [line for line in lines if line[0] != "."] == [
        ("web", 1, "no tsconfig.json: every file"),
        ("json", 0, note),
        ("tools", 0, note),  # tools/deep/more.ts too: one line per top folder
    ]
    assert root / "tools/package.json" in dict(scope.read)
    every = answer(root, lambda ws: workspace_diagnostics(ws, all=True))
    assert [f.path for f in every.files] == ["json/bin/check.ts", "tools/gen.ts"]
    (root / "json/package.json").unlink()
    (root / "tools/package.json").write_text('{"scripts": {"check": "tsc --noEmit"}}')
    assert shown(root, scope_of(root)) == [
        "pkg/__init__.py",
        "tools/deep/more.ts",
        "tools/gen.ts",
        "web/main.ts",
    ]
    # a TypeScript project with no Python: every file, as before
    (root / "tools/package.json").unlink()
    (root / "json/bin/check.ts").unlink()
    (root / "pyproject.toml").unlink()
    (root / "pkg/__init__.py").unlink()
    assert shown(root, scope_of(root)) == ["tools/deep/more.ts", "tools/gen.ts", "web/main.ts"]


def test_a_deno_project_is_not_checked_and_says_so(tmp_path: Path) -> None:
    """typebox: a deno.jsonc at the root (its import map, Deno's globals, `npm:` specifiers)
    beside an editor's tsconfig.json. Checked with TypeScript's rules, its clean tree had 899
    errors where `deno test` says none; no file is checked, and the scope says why. A
    package.json naming TypeScript makes it a TypeScript project again."""
    root = write(
        tmp_path / "p",
        {
            "deno.json": '{ "imports": { "mylib": "./lib/index.ts" } }',
            "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }',
            "lib/index.ts": "export function add(a: number, b: number): number { return a + b }\n",
            "test/add.ts": "import { add } from 'mylib'\nDeno.test('add', () => add(1, 2))\n",
        },
    )
    checked = answer(root, workspace_diagnostics)
    note = (
        "not checked: a Deno project (deno.json), whose checker is `deno check`, which lspd "
        "does not run (`lspd check --all` checks its files with TypeScript's rules)"
    )
    assert (checked.errors, checked.files_checked, checked.outside_gate) == (0, 0, 2)
    assert [(s.project, s.config, s.files, s.note) for s in checked.scope or []] == [
        (".", None, 0, note)
    ]
    every = answer(root, lambda ws: workspace_diagnostics(ws, all=True))
    assert sorted((d.path, d.code) for d in every.diagnostics) == [
        ("test/add.ts", "2304"),  # Cannot find name 'Deno'
        ("test/add.ts", "2307"),  # Cannot find module 'mylib'
    ]
    (root / "package.json").write_text('{"devDependencies": {"typescript": "5.9.3"}}')
    assert [s.config for s in scope_of(root).projects] == ["tsconfig.json"]
