"""Which tsconfigs are the gate's programs (`typescript_projects._gated`, `tsc_scripts.built`):
a package checking its own tsconfig.json makes a tsconfig.json below it that no script runs
an editor's (and the root's, where that package is its workspace's); a `tsc -b FILE`
script's configuration and the projects it references are the gate's. Each compared with
the real `tsc` the gate runs (lspd's TypeScript)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops.check import workspace_diagnostics
from lspd.servers.registry import definitions, node_executable
from tests.conftest import answer
from tests.workspace.test_scope import write
from tests.workspace.toolchains import TS_PINNED, typescript_package

_ERROR = re.compile(r"^(\S+)\((\d+),(\d+)\): error (TS\d+)")
OPTIONS = '"strict": true, "noEmit": true, "types": [], "skipLibCheck": true'


def tsc(folder: Path, *arguments: str) -> list[str]:
    """The errors of lspd's `tsc` run in `folder` with `arguments`, as `file(line,col): code`."""
    package = definitions()["typescript-language-server"].npm_root() / "typescript"
    done = subprocess.run(
        [node_executable(), str(package / "bin" / "tsc"), *arguments, "--pretty", "false"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = (_ERROR.match(line) for line in done.stdout.splitlines())
    return [f"{m[1]}({m[2]},{m[3]}): {m[4]}" for m in found if m]


def said(root: Path) -> list[tuple[str | None, int, str | None]]:
    found = answer(root, lambda ws: workspace_diagnostics(ws))
    return [(d.path, d.line, d.code) for d in found.diagnostics]


def test_a_packages_tests_tsconfig_no_script_runs_is_an_editors(tmp_path: Path) -> None:
    """mobx's shape: packages/mobx runs `tsc --noEmit` on its tsconfig.json, whose
    src/global.d.ts declares `__DEV__`; its __tests__/tsconfig.json (and the workspace root's)
    no script runs holds src/x.ts without it: 147 TS2304 its gate never said (232 errors
    where the gate's 3 packages say 9)."""
    program = f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}'
    alone = f'{{"compilerOptions": {{{OPTIONS}}}}}'
    root = write(
        tmp_path / "p",
        {
            "package.json": '{"name": "r", "private": true, "workspaces": ["packages/a"]}',
            "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["packages"]}}',
            "packages/a/package.json": '{"name": "a", "scripts": {"test:types": "tsc --noEmit"}}',
            "packages/a/tsconfig.json": program,
            "packages/a/src/global.d.ts": "declare const __DEV__: boolean;\n",
            "packages/a/src/x.ts": "export const dev: boolean = __DEV__;\n",
            "packages/a/__tests__/tsconfig.json": alone,
            "packages/a/__tests__/t.ts": 'import { dev } from "../src/x";\nexport const d = dev;\n',
        },
    )
    assert tsc(root / "packages/a", "--noEmit") == []  # the gate
    assert tsc(root / "packages/a/__tests__", "--noEmit") != []  # what lspd said
    assert said(root) == []
    # A script running it makes it the gate's again.
    (root / "packages/a/package.json").write_text(
        '{"name": "a", "scripts": {"test:types": "tsc --noEmit && tsc --noEmit -p __tests__"}}'
    )
    assert said(root) == [("packages/a/src/x.ts", 1, "2304")]


def test_a_build_scripts_configuration_and_its_references_are_the_gates(tmp_path: Path) -> None:
    """wretch's shape: `"build": "tsc"` beside `"test:types": "tsc -b tsconfig.type-tests.json"`,
    a solution referencing test/: the test project was an editor's, its TS2322 (the gate's)
    unsaid, and the solution no project at all."""
    root = write(
        tmp_path / "p",
        {
            "package.json": (
                '{"name": "r", "private": true, "scripts": {"build": "tsc", '
                '"test:types": "tsc -b tsconfig.type-tests.json"}}'
            ),
            "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}',
            "src/index.ts": "export const one = 1;\n",
            "tsconfig.type-tests.json": '{"files": [], "references": [{"path": "./test"}]}',
            "test/tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}, "composite": true}}}}',
            "test/t.ts": 'export const wrong: number = "a string";\n',
        },
    )
    assert tsc(root, "-b", "tsconfig.type-tests.json") == ["test/t.ts(1,14): TS2322"]
    assert said(root) == [("test/t.ts", 1, "2322")]


def test_an_editors_tsconfigs_own_errors_are_no_gates(tmp_path: Path) -> None:
    """preact-signals' shape: the gate's `tsc -p tsconfig.json --noEmit` excludes docs/, whose
    tsconfig.json extends it with `"jsx": "react-jsx"` against its jsxFactory: tsc's TS5089
    of that configuration, which no script runs, were said and stopped the check."""
    jsx = '"jsx": "react", "jsxFactory": "h", "jsxFragmentFactory": "Fragment"'
    root = write(
        tmp_path / "p",
        {
            "package.json": '{"name": "r", "scripts": {"lint": "tsc -p tsconfig.json --noEmit"}}',
            "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}, {jsx}}}, "exclude": ["docs"]}}',
            "src/a.ts": "export const one = 1;\n",
            "docs/tsconfig.json": (
                '{"extends": "../tsconfig.json", "compilerOptions": {"jsx": "react-jsx"}, '
                '"include": ["."], "exclude": []}'
            ),
            "docs/d.ts": "export const two = 2;\n",
        },
    )
    (root / "node_modules").mkdir()
    (root / "node_modules/typescript").symlink_to(typescript_package(TS_PINNED))
    assert tsc(root, "-p", "tsconfig.json", "--noEmit") == []  # the gate
    assert tsc(root / "docs", "--noEmit")  # the editor's configuration: its TS5089
    found = answer(root, lambda ws: workspace_diagnostics(ws))
    assert (found.errors, found.stopped) == (0, [])


def test_a_folder_a_build_script_names_is_its_tsconfigs(tmp_path: Path) -> None:
    """`tsc --noEmit && tsc -b test/types`: test/types/tsconfig.json is the gate's, not an
    editor's below a root checking its own."""
    root = beside_tests(tmp_path, "tsc --noEmit && tsc -b test/types", "test/types", True)
    assert tsc(root, "-b", "test/types") == ["test/types/t.ts(1,14): TS2322"]
    assert said(root) == [("test/types/t.ts", 1, "2322")]


def beside_tests(tmp_path: Path, script: str, tests: str, composite: bool = False) -> Path:
    """A root whose `typecheck` script is `script`, its src/ clean, and a tsconfig.json in
    `tests` whose t.ts holds a TS2322."""
    options = f"{OPTIONS}, " + '"composite": true' if composite else OPTIONS
    return write(
        tmp_path / "p",
        {
            "package.json": json.dumps({"scripts": {"typecheck": script}}),
            "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}',
            "src/index.ts": "export const one = 1;\n",
            f"{tests}/tsconfig.json": f'{{"compilerOptions": {{{options}}}}}',
            f"{tests}/t.ts": 'export const wrong: number = "a string";\n',
        },
    )


def test_a_workspace_roots_program_checked_elsewhere_stays_the_gates(tmp_path: Path) -> None:
    """A workspace whose package checks its own, and whose root tsconfig.json a workflow's
    `npx tsc -p .` checks (no root script runs it): the root program is the gate's."""
    root = write(
        tmp_path / "p",
        {
            "package.json": '{"private": true, "workspaces": ["packages/a"]}',
            "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["scripts"]}}',
            "scripts/release.ts": 'export const wrong: number = "a string";\n',
            "packages/a/package.json": '{"name": "a", "scripts": {"check": "tsc --noEmit"}}',
            "packages/a/tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}',
            "packages/a/src/x.ts": "export const x = 1;\n",
        },
    )
    assert said(root) == []  # no one's: a root no workflow or script checks
    workflow = "jobs:\n  check:\n    steps:\n      - run: npx tsc -p .\n"
    write(root, {".github/workflows/ci.yml": workflow})
    assert said(root) == [("scripts/release.ts", 1, "2322")]


def test_a_yarn_plug_n_play_install_is_not_checked_and_says_why(tmp_path: Path) -> None:
    """es-toolkit installs with Yarn 4's Plug'n'Play: a .pnp.cjs, no node_modules. lspd's
    TypeScript resolves from node_modules, so every import was a TS2307 (906 errors where
    `yarn tsc` says none); it is said not checked, with the way to check it, until the
    install makes a node_modules."""
    root = write(
        tmp_path / "p",
        {
            ".pnp.cjs": "#!/usr/bin/env node\n/* Yarn's Plug'n'Play runtime */\n",
            "package.json": '{"name": "p", "scripts": {"typecheck": "tsc --noEmit"}}',
            "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}',
            "src/index.ts": 'import i from "tiny-invariant";\nexport const j = i;\n',
        },
    )
    found = answer(root, lambda ws: workspace_diagnostics(ws))
    assert found.errors == 0 and found.scope is not None
    [scope] = found.scope
    assert scope.note is not None and scope.note.startswith("not checked: Yarn Plug'n'Play")
    (root / "node_modules").mkdir()  # `nodeLinker: node-modules`, installed
    assert said(root) == [("src/index.ts", 1, "2307")]


@pytest.mark.parametrize(
    ("place", "text"),
    [
        (".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - run: npx tsc -p a\n"),
        ("Makefile", "types:\n\tcd packages/a && npx tsc -p __tests__\n"),
        (".husky/pre-commit", "npx tsc -p packages/a/__tests__\n"),
        ("packages/a/package.json", '{"scripts": {"t": "tsc --noEmit && tsc -b __tests__"}}'),
        ("packages/a/package.json", '{"scripts": {"t": "tsc --noEmit && cd __tests__ && tsc"}}'),
    ],
    ids=["workflow", "Makefile", "husky", "tsc -b FOLDER", "cd FOLDER && tsc"],
)
def test_a_tests_tsconfig_run_elsewhere_stays_the_gates(
    tmp_path: Path, place: str, text: str
) -> None:
    """The mobx shape, with packages/a/__tests__/tsconfig.json run by a workflow, a Makefile,
    a commit hook, `tsc -b __tests__` or `cd __tests__ && tsc`: its program's TS2304 is the
    gate's (each was said an editor's)."""
    program = f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}'
    root = write(
        tmp_path / "p",
        {
            "package.json": '{"name": "r", "private": true, "workspaces": ["packages/a"]}',
            "packages/a/package.json": '{"name": "a", "scripts": {"t": "tsc --noEmit"}}',
            "packages/a/tsconfig.json": program,
            "packages/a/src/global.d.ts": "declare const __DEV__: boolean;\n",
            "packages/a/src/x.ts": "export const dev: boolean = __DEV__;\n",
            "packages/a/__tests__/tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}}}',
            "packages/a/__tests__/t.ts": 'import { dev } from "../src/x";\nexport const d = dev;\n',
        },
    )
    assert said(root) == []
    write(root, {place: text})
    assert said(root) == [("packages/a/src/x.ts", 1, "2304")]


def test_a_tsconfig_a_workflow_gives_tsc_is_the_gates(tmp_path: Path) -> None:
    """A root checking its own (`tsc --noEmit`), and a CI workflow running `npx tsc -p test
    --noEmit`: test/tsconfig.json was an editor's, its TS2322 (the workflow's) unsaid."""
    workflow = "on: push\njobs:\n  t:\n    steps:\n      - run: npx tsc -p test --noEmit\n"
    root = beside_tests(tmp_path, "tsc --noEmit", "test")
    assert said(root) == []
    write(root, {".github/workflows/ci.yml": workflow})
    assert tsc(root, "-p", "test", "--noEmit") == ["test/t.ts(1,14): TS2322"]
    assert said(root) == [("test/t.ts", 1, "2322")]


_LIB = '"strict": true, "types": [], "skipLibCheck": true, "lib": ["es2015"]'


@pytest.mark.parametrize(
    ("script", "check", "said_root"),
    [
        ("tsc --project tsconfig.test.json --outDir ./testDist && rimraf ./testDist", {}, False),
        ("tsc -p tsconfig.test.json", {"noEmit": True}, False),
        ("tsc --noEmit && tsc -p tsconfig.test.json", {"noEmit": True}, True),
    ],
    ids=["output removed", "noEmit in its configuration", "beside the root's own check"],
)
def test_a_configuration_a_script_checks_makes_the_roots_an_editors(
    tmp_path: Path, script: str, check: dict[str, object], said_root: bool
) -> None:
    """ts-essentials' shape: its test `tsc --project tsconfig.test.json --outDir ./testDist &&
    rimraf ./testDist` checks lib/ with `es2020.bigint`; its tsconfig.json (es2015), which no
    script runs, said 13 errors (a TS2583 of `BigInt` among them) where the gate says none,
    and tsconfig.test.json, emitting, was no project. A configuration saying `noEmit` is a
    check the same way; a script checking the root's own keeps it the gate's."""
    options = {"lib": ["es2015", "es2020.bigint"], **check}
    root = write(
        tmp_path / "p",
        {
            "package.json": json.dumps({"scripts": {"test": script}}),
            "tsconfig.json": f'{{"compilerOptions": {{{_LIB}}}, "include": ["lib"]}}',
            "tsconfig.test.json": json.dumps(
                {"extends": "./tsconfig.json", "compilerOptions": options}
            ),
            "lib/a.ts": "export const big: bigint = BigInt(1);\n",
        },
    )
    assert tsc(root, "-p", "tsconfig.test.json", "--noEmit") == []  # the gate
    assert tsc(root, "--noEmit") == ["lib/a.ts(1,28): TS2583"]  # the editor's program
    assert said(root) == ([("lib/a.ts", 1, "2583")] if said_root else [])


def test_a_build_beside_a_check_of_another_configuration_is_the_gates(tmp_path: Path) -> None:
    """A package checking tests/ with `tsc --noEmit -p tsconfig.test.json` and building src/
    with `tsc -p tsconfig.build.json`, its tsconfig.json run by neither: the build's program
    says src/'s errors (it fails the gate), where src/ was in no program of the gate."""
    scripts = {"test": "tsc --noEmit -p tsconfig.test.json", "build": "tsc -p tsconfig.build.json"}
    root = write(
        tmp_path / "p",
        {
            "package.json": json.dumps({"scripts": scripts}),
            "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}}}',
            "tsconfig.test.json": '{"extends": "./tsconfig.json", "include": ["test"]}',
            "tsconfig.build.json": (
                '{"extends": "./tsconfig.json", "compilerOptions": {"noEmit": false, '
                '"outDir": "dist"}, "include": ["src"]}'
            ),
            "src/b.ts": 'export const wrong: number = "a string";\n',
            "test/t.ts": "export const one = 1;\n",
        },
    )
    assert tsc(root, "-p", "tsconfig.build.json") == ["src/b.ts(1,14): TS2322"]
    assert said(root) == [("src/b.ts", 1, "2322")]


def test_a_build_of_the_roots_own_makes_those_below_editors_unreadable_too(
    tmp_path: Path,
) -> None:
    """pinia's shape: its gate `tsc --build ./tsconfig.json` checks the root's program; the
    tsconfig.json files below it that no script runs said 281 errors its gate never says,
    and one extending a `.nuxt/tsconfig.json` that `nuxi prepare` writes stopped the whole
    check (TS5083). Each is an editor's now, the unreadable one said so."""
    root = write(
        tmp_path / "p",
        {
            "package.json": json.dumps({"scripts": {"test:types": "tsc --build ./tsconfig.json"}}),
            "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}',
            "src/a.ts": "export const one = 1;\n",
            "playground/tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}}}',
            "playground/p.ts": 'export const wrong: number = "a string";\n',
            "nuxt/tsconfig.json": '{"extends": "./.nuxt/tsconfig.json"}',
            "nuxt/n.ts": "export const two = 2;\n",
        },
    )
    assert tsc(root, "--build", "./tsconfig.json") == []  # the gate
    found = answer(root, lambda ws: workspace_diagnostics(ws))
    assert (found.errors, found.stopped) == (0, [])
    assert found.scope is not None
    notes = {s.config: s.note or "" for s in found.scope}
    assert notes["nuxt/tsconfig.json"].startswith(
        "not checked: nothing the repository runs checks it (an editor's tsconfig); "
        "nuxt/tsconfig.json: TypeScript cannot read this tsconfig: TS5083"
    )
    assert notes["playground/tsconfig.json"].startswith("not checked: nothing the repository runs")
    # Run by a script the root runs, the unreadable one is the gate's: the check says why
    # it cannot be.
    scripts = {"test:types": "tsc --build ./tsconfig.json && pnpm -C nuxt t"}
    write(root, {"package.json": json.dumps({"scripts": scripts})})
    write(root, {"nuxt/package.json": json.dumps({"scripts": {"t": "tsc --noEmit"}})})
    with pytest.raises(InvalidInput, match="TS5083"):
        answer(root, lambda ws: workspace_diagnostics(ws))


def test_a_jsconfig_no_script_runs_beside_the_one_a_script_runs_is_an_editors(
    tmp_path: Path,
) -> None:
    """preact's shape: `"lint": "run-s oxlint tsc"` runs its script `tsc`, `tsc -p
    jsconfig-lint.json` (noEmit from the jsconfig.json it extends, checkJs off); run-s's
    word `tsc` was taken for a check of the package's own configuration, and jsconfig.json's
    checkJs said 1049 errors its gate never says."""
    scripts = {"lint": "run-s oxlint tsc", "tsc": "tsc -p jsconfig-lint.json"}
    jsconfig = {"compilerOptions": {"checkJs": True, "allowJs": True, "noEmit": True, "types": []}}
    lint = {"extends": "./jsconfig.json", "compilerOptions": {"checkJs": False}}
    root = write(
        tmp_path / "p",
        {
            "package.json": json.dumps({"scripts": scripts}),
            "jsconfig.json": json.dumps(jsconfig),
            "jsconfig-lint.json": json.dumps({**lint, "include": ["src"]}),
            "src/a.js": "export const one = 1;\nexport const wrong = one.toUpperCase();\n",
        },
    )
    assert tsc(root, "-p", "jsconfig-lint.json") == []  # the gate
    assert tsc(root, "-p", "jsconfig.json") == ["src/a.js(2,26): TS2339"]  # the editor's
    assert said(root) == []


_RECURSIVE = {"t": "tsc -b", "types": "pnpm -r type-check"}


@pytest.mark.parametrize(
    ("files", "said_at"),
    [
        (
            {  # pinia: packages/pinia has no tsconfig.json, its script runs test-dts'
                "packages/lib/package.json": json.dumps(
                    {"scripts": {"test:dts": "tsc -p ./test-dts/tsconfig.json"}}
                ),
                "packages/lib/test-dts/tsconfig.json": (
                    f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["."]}}'
                ),
                "packages/lib/test-dts/a.test-d.ts": 'export const bad: number = "x";\n',
            },
            "packages/lib/test-dts/a.test-d.ts",
        ),
        (
            {  # a Vue package: `vue-tsc --noEmit` checks its own tsconfig.json
                "packages/app/package.json": json.dumps(
                    {"scripts": {"type-check": "vue-tsc --noEmit"}}
                ),
                "packages/app/tsconfig.json": (
                    f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}'
                ),
                "packages/app/src/main.ts": 'export const bad: number = "x";\n',
            },
            "packages/app/src/main.ts",
        ),
    ],
    ids=["script of a package.json above it", "vue-tsc"],
)
def test_a_tsconfig_a_package_above_or_vue_tsc_runs_stays_the_gates(
    tmp_path: Path, files: dict[str, str], said_at: str
) -> None:
    """A root building its own (`tsc -b`) makes a tsconfig.json below it no script runs an
    editor's; one a package.json above it names (pinia's `tsc -p ./test-dts/tsconfig.json`,
    in a folder without a tsconfig.json), or a package's vue-tsc checks where the root runs
    its packages' checks (`pnpm -r type-check`), is the gate's."""
    root = write(
        tmp_path / "p",
        {
            "package.json": json.dumps({"workspaces": ["packages/*"], "scripts": _RECURSIVE}),
            "tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}',
            "src/index.ts": "export const one = 1;\n",
            **files,
        },
    )
    assert said(root) == [(said_at, 1, "2322")]


def test_typescript_no_tsconfig_claims_is_unchecked_where_the_scripts_name_the_gate(
    tmp_path: Path,
) -> None:
    """vue-router's scripts/release.ts: no tsconfig.json claims it, its root holds none, and
    its package checks its own tsconfig.json (the one below it an editor's): nothing it runs
    checks the script, which was checked with TypeScript's defaults (a TS7016 its gate never
    says). Without an editor's configuration (what the scripts gate is not known), as before."""
    program = f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}'
    root = write(
        tmp_path / "p",
        {
            "package.json": '{"private": true, "workspaces": ["packages/a"]}',
            "scripts/release.ts": 'export const wrong: number = "a string";\n',
            "packages/a/package.json": '{"name": "a", "scripts": {"check": "tsc --noEmit"}}',
            "packages/a/tsconfig.json": program,
            "packages/a/src/x.ts": "export const x = 1;\n",
            "packages/a/e2e/tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}}}',
            "packages/a/e2e/t.ts": "export const t = 1;\n",
        },
    )
    checked = answer(root, lambda ws: workspace_diagnostics(ws))
    assert checked.diagnostics == []
    [stray] = [s for s in checked.scope if s.project == "scripts"]
    assert (stray.files, stray.note) == (0, _UNCLAIMED)
    (root / "packages/a/e2e/tsconfig.json").unlink()  # every configuration the gate's
    assert said(root) == [("scripts/release.ts", 1, "2322")]


_UNCLAIMED = (
    "not checked: TypeScript no tsconfig.json claims, where the scripts name the "
    "configurations they check, so nothing the project runs checks it (`lspd check --all` does)"
)
