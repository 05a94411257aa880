"""true-myth's shape: its scripts and its CI workflow run `tsc --noEmit --project
ts/test.tsconfig.json`, whose program holds src/ and test/; test/fixtures/tsconfig.json, a
lint test's, has no package.json of its own, and no gate runs it. lspd took it as a gate
program: its one error (a TS5101 of `baseUrl` on TypeScript 6) was said where tsc says
none, and a signature change in src/ was said as 2 new errors where tsc says 7 (the
fixture program held the core files, and stopped at its configuration's error). A
tsconfig's package is now the nearest package.json above it
(`typescript_gated._checked_elsewhere`), and a workflow line naming the configuration tsc
checks, or a step's `name:`, no longer makes every configuration the gate's
(`tsc_scripts.checks_outside`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import preview
from lspd.workspace.tsc_scripts import checks_outside
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.test_scope import write
from tests.workspace.test_typescript_gated import OPTIONS, said, tsc

SCRIPT = "tsc --noEmit --project ts/test.tsconfig.json"
WORKFLOW = (
    f'jobs:\n  tsgo:\n    steps:\n      - name: "Latest version of tsgo"\n      - run: {SCRIPT}\n'
)
# the fixture program's own rule (a `lib` without Promise): an error of no gate program
FIXTURES = '{"compilerOptions": {"lib": ["es5"], "noEmit": true}, "include": ["fixture.ts"]}'
LIB = '"lib": ["es2015"]'
ROOT = f'{{"compilerOptions": {{{OPTIONS}, {LIB}}}, "include": ["src", "test"]}}'
UTIL = "export function g(v: unknown): string {\n  return String(v);\n}\n"


def project(root: Path, workflow: bool) -> Path:
    return write(
        root,
        {
            "package.json": json.dumps({"scripts": {"type-check": SCRIPT}}),
            "tsconfig.json": ROOT,
            "ts/test.tsconfig.json": '{"extends": "../tsconfig.json", "include": ["../src", '
            '"../test"]}',
            "src/util.ts": UTIL,
            "src/index.ts": 'import { g } from "./util";\nexport const shown = g(1);\n',
            "test/fixtures/tsconfig.json": FIXTURES,
            "test/fixtures/fixture.ts": (
                'import { shown } from "../../src/index";\n'
                "export const later = Promise.resolve(shown);\n"
            ),
            **({".github/workflows/ci.yml": WORKFLOW} if workflow else {}),
        },
    )


@pytest.mark.parametrize("workflow", [False, True], ids=["scripts", "scripts and workflow"])
def test_a_nested_tsconfig_of_no_package_no_gate_runs_is_an_editors(
    tmp_path: Path, workflow: bool
) -> None:
    root = project(tmp_path / "p", workflow)
    assert tsc(root, "--noEmit", "--project", "ts/test.tsconfig.json") == []  # the gate
    assert tsc(root / "test/fixtures", "--noEmit") != []  # the fixture's program
    assert said(root) == []
    changed = UTIL.replace("v: unknown", "v: unknown, depth: number")
    previewed = answer(root, lambda ws: preview(ws, [{"path": "src/util.ts", "content": changed}]))
    (root / "src/util.ts").write_text(changed)
    gate = tsc(root, "--noEmit", "--project", "ts/test.tsconfig.json")
    assert gate == ["src/index.ts(2,22): TS2554"]
    shown = [(d.path, d.line, d.code) for d in previewed.changes.introduced]
    assert shown == [("src/index.ts", 2, "2554")]


def test_a_workflow_naming_what_tsc_checks_is_known(tmp_path: Path) -> None:
    root = project(tmp_path / "p", False)
    assert not checks_outside(root, [WORKFLOW])
    assert checks_outside(root, ["  - run: cd web && npx tsc --noEmit\n"])  # no web/ here
    write(root, {"web/tsconfig.json": "{}"})
    assert not checks_outside(root, ["  - run: cd web && npx tsc --noEmit\n"])
    assert checks_outside(root, ["  - run: cd web && tsc -p tsconfig.app.json\n"])  # not there
    write(root, {"web/tsconfig.app.json": "{}"})
    assert not checks_outside(root, ["  - run: cd web && tsc -p tsconfig.app.json\n"])
    assert checks_outside(root, ["  - run: npx tsc --noEmit\n"])  # which: the root's own
    assert checks_outside(root, [WORKFLOW + "      - run: pnpm tsgo\n"])
    assert checks_outside(root, ["  - run: make tsc\n"])  # no tsc command lspd reads


def test_an_editors_solution_owns_no_file_of_the_gate(tmp_path: Path) -> None:
    """hono's shape: its root tsconfig.json (a solution no script runs) references
    tsconfig.build.json (src/ less its tests) and tsconfig.spec.json (all of src/), which its
    `test` script checks, and runtime-tests/node/tsconfig.json (no package.json of its own,
    no gate runs it) references the build's. The solution made the build's program the
    owner of src/, and the build was no gate's once runtime-tests/ was an editor's: src/'s
    errors were said by no program."""
    base = f'"compilerOptions": {{{OPTIONS}, {LIB}}}'
    tests = "src/**/*.test.ts"
    root = write(
        tmp_path / "p",
        {
            "package.json": json.dumps({"scripts": {"test": "tsc -p tsconfig.spec.json"}}),
            "tsconfig.json": '{"files": [], "references": [{"path": "./tsconfig.build.json"}, '
            '{"path": "./tsconfig.spec.json"}, {"path": "./runtime-tests/node"}]}',
            "tsconfig.build.json": f'{{{base}, "include": ["src"], "exclude": ["{tests}"]}}',
            "tsconfig.spec.json": f'{{{base}, "include": ["src"]}}',
            "src/a.ts": 'export const wrong: number = "a";\n',
            "src/a.test.ts": 'import { wrong } from "./a";\nexport const w: string = wrong;\n',
            "runtime-tests/node/tsconfig.json": (
                f'{{{base}, "references": [{{"path": "../../tsconfig.build.json"}}]}}'
            ),
            "runtime-tests/node/index.ts": "export const n: number = 1;\n",
        },
    )
    gate = tsc(root, "-p", "tsconfig.spec.json")
    assert gate == ["src/a.test.ts(2,14): TS2322", "src/a.ts(1,14): TS2322"]
    assert said(root) == [("src/a.test.ts", 2, "2322"), ("src/a.ts", 1, "2322")]


BUILD = """import { $ } from "bun";

await Promise.all([
  $`tsc ${isWatch ? ["-w"] : []} --emitDeclarationOnly --declaration --project tsconfig.build.json`,
  $`tsc --noEmit ${files}`,
]);
"""


def test_a_build_script_files_tsc_is_read(tmp_path: Path) -> None:
    """hono's `build` is `bun ./build/build.ts`, whose `tsc --emitDeclarationOnly --project
    tsconfig.build.json` builds src/ under `noUnusedLocals` (its CI runs it), which the
    checked `tsconfig.spec.json` leaves off: read from package.json alone, an unused local
    failing the build was said by no program. A tsc naming no configuration (msw's `tsc
    --noEmit ${files}`) is not read."""
    base = f"{OPTIONS}, {LIB}"
    scripts = {"test": "tsc -p tsconfig.spec.json", "build": "bun ./build/build.ts"}
    root = write(
        tmp_path / "p",
        {
            "package.json": json.dumps({"scripts": scripts}),
            "tsconfig.build.json": f'{{"compilerOptions": {{{base}, "noUnusedLocals": true}}, '
            '"include": ["src"]}',
            "tsconfig.spec.json": f'{{"compilerOptions": {{{base}}}, "include": ["src"]}}',
            "src/a.ts": "export function f(): number {\n  const unused = 1;\n  return 2;\n}\n",
            "build/build.ts": BUILD,
        },
    )
    assert tsc(root, "-p", "tsconfig.spec.json") == []
    assert tsc(root, "--noEmit", "-p", "tsconfig.build.json") == ["src/a.ts(2,9): TS6133"]
    assert said(root) == [("src/a.ts", 2, "6133")]


def test_a_script_file_without_tsc_is_a_source_not_a_configuration(tmp_path: Path) -> None:
    """untyped's `"cli": "jiti ./src/cli.ts"`: every file a script runs had been watched as
    a configuration of the gate, so an edit of src/cli.ts (a gate file holding no tsc
    command) refused `check --baseline HEAD` as a configuration edit. Only a script file
    holding a tsc command (hono's build/build.ts) is read, and it makes the scope again."""
    root = committed(
        write(
            tmp_path / "p",
            {
                "package.json": json.dumps({"scripts": {"cli": "jiti ./src/cli.ts"}}),
                "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}',
                "src/lib.ts": "export const one = (x: number): number => x + 1;\n",
                "src/cli.ts": 'import { one } from "./lib";\nexport const two = one(1);\n',
            },
        )
    )
    with (root / "src/cli.ts").open("a") as cli:
        cli.write('export const leaf: number = "x";\n')
    assert tsc(root, "--noEmit") == ["src/cli.ts(3,14): TS2322"]
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD"))
    assert since.changes is not None
    assert [(d.path, d.line, d.code) for d in since.changes.introduced] == [
        ("src/cli.ts", 3, "2322")
    ]
