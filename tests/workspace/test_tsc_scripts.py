"""The tsconfigs a project's package.json scripts type-check (`workspace/tsc_scripts.py`):
neverthrow's `tsc --noEmit -p ./tests/tsconfig.tests.json`, a configuration no walk finds
by name, is a project of the gate; its error is the one that script's tsc says. Real
TypeScript 5.9.3."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.preview import preview
from lspd.workspace.tsc_scripts import scripted_configs, tsc_heap
from tests.conftest import Warm, answer, warm_root
from tests.workspace.toolchains import own_tsc, typescript_committed

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): ", re.MULTILINE)
STRICT = {"compilerOptions": {"strict": True, "noEmit": True}}
SCRIPTS = {
    "typecheck": "tsc --noEmit",
    "test-types": "tsc --noEmit -p ./tests/tsconfig.tests.json && echo done",
    "build": "tsc -p tsconfig.build.json & tsc --noEmit;echo",  # a build, then a check
    "other": "npx tsc --project types/tsconfig.types.json --noemit",
    "later": "tsc --noEmit -p later/tsconfig.later.json",  # not written yet: watched
}


def test_a_type_check_script_s_configuration_is_a_project_of_the_gate(tmp_path: Path) -> None:
    files = {
        "package.json": json.dumps({"scripts": SCRIPTS}),
        "tsconfig.json": json.dumps({**STRICT, "include": ["src"]}),
        # a build: it emits (one saying `noEmit` is a check: test_typescript_gated.py)
        "tsconfig.build.json": json.dumps(
            {"compilerOptions": {"strict": True}, "include": ["src"]}
        ),
        "src/a.ts": "export const a: number = 1;\n",
        "tests/tsconfig.tests.json": json.dumps({**STRICT, "include": ["./check.ts"]}),
        "tests/check.ts": 'import { a } from "../src/a";\nexport const s: string = a;\n',
        "types/tsconfig.types.json": json.dumps({**STRICT, "files": ["t.ts"]}),
        "types/t.ts": "export const t = 1;\n",
    }
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    assert scripted_configs([root / "package.json"], root) == (
        [root / "tests/tsconfig.tests.json", root / "types/tsconfig.types.json"],
        [root / "later/tsconfig.later.json"],
    )
    said = own_tsc(root, "--noEmit", "-p", "tests/tsconfig.tests.json", "--pretty", "false")
    truth = {(p, int(line), int(column), code) for p, line, column, code in LINE.findall(said)}
    assert truth == {("tests/check.ts", 2, 14, "2322")}
    checked = answer(root, check_all)
    found = {(r.path, d.line, d.column, d.code) for r in checked.results for d in r.diagnostics}
    assert found == truth
    assert checked.scope is not None
    assert [p.config for p in checked.scope.projects] == [
        "tests/tsconfig.tests.json",
        "tsconfig.json",
        "types/tsconfig.types.json",
    ]


def test_a_check_is_told_from_a_build_by_where_its_output_goes(tmp_path: Path) -> None:
    """`tsc -p FILE` without `--noEmit` is a check where its configuration says `noEmit`
    (an `extends`'s too) or its script removes the `--outDir` it emitted into
    (ts-essentials' test); `cd FOLDER &&` moves where FILE is read from. A build's output
    kept, or another folder removed, is a build (and none is read where the package checks
    its own tsconfig.json)."""
    scripts = {
        "a": "tsc -p tsconfig.a.json --outDir ./out && rimraf ./out",
        "b": "tsc -p tsconfig.b.json",  # extends base.json's noEmit
        "c": "cd test && tsc -p tsconfig.c.json",  # its own noEmit
        "d": "tsc -p tsconfig.d.json --outDir out2 && rm -rf out",  # another folder removed
        "e": "rimraf dist && tsc -p tsconfig.e.json --outDir dist",  # removed before: a build
        "own": "tsc --noEmit",
    }
    files = {
        "package.json": json.dumps({"scripts": scripts}),
        "base.json": '{\n  // tsc reads comments\n  "compilerOptions": {"noEmit": true,},\n}\n',
        "tsconfig.b.json": json.dumps({"extends": "./base.json"}),
        "test/tsconfig.c.json": json.dumps({"compilerOptions": {"noEmit": True}}),
    }
    files |= {f"tsconfig.{n}.json": "{}" for n in "ade"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found, _ = scripted_configs([tmp_path / "package.json"], tmp_path)
    checks = [tmp_path / "tsconfig.a.json", tmp_path / "tsconfig.b.json"]
    assert found == [*checks, tmp_path / "test/tsconfig.c.json"]
    scripts.pop("own")  # its tsconfig.json checked by none: its builds are the gate's too
    (tmp_path / "package.json").write_text(json.dumps({"scripts": scripts}))
    found, _ = scripted_configs([tmp_path / "package.json"], tmp_path)
    assert sorted(found) == sorted(
        [
            *checks,
            tmp_path / "test/tsconfig.c.json",
            *(tmp_path / f"tsconfig.{n}.json" for n in "de"),
        ]
    )


TSD = "export declare function expectError<T = unknown>(value: T): void;\n"


def test_tsd_s_tests_are_left_to_tsd(tmp_path: Path) -> None:
    """kysely's `tsd test/typings`: its tests' `expectError(...)` hold errors on purpose,
    and lspd said 334 of them where every gate passes. A script running tsd (on its project,
    its package.json's `tsd.directory`) leaves its tests out; the rest is tsc's, as before."""
    test = (
        'import { expectError } from "tsd";\nexpectError<number>("one");\nconst n: number = "x";\n'
    )
    package = {"scripts": {"typecheck": "tsc --noEmit", "test:types": "npx tsd typings"}}
    files = {
        "package.json": json.dumps(package),
        "tsconfig.json": json.dumps({**STRICT, "include": ["src", "typings"]}),
        "src/a.ts": "export const a: number = 1;\n",
        "typings/package.json": json.dumps({"tsd": {"directory": "checks"}}),
        "typings/checks/a.test-d.ts": test,
        "typings/index.test-d.ts": test,
    }
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    (root / "node_modules/tsd").mkdir()  # its declarations (git ignores node_modules)
    (root / "node_modules/tsd/package.json").write_text('{"name": "tsd", "types": "index.d.ts"}')
    (root / "node_modules/tsd/index.d.ts").write_text(TSD)
    said = own_tsc(root, "--noEmit")  # tsc's: each test's errors
    assert sorted((m[1], m[4]) for m in LINE.finditer(said)) == [
        ("typings/checks/a.test-d.ts", "2322"),
        ("typings/checks/a.test-d.ts", "2345"),
        ("typings/index.test-d.ts", "2322"),
        ("typings/index.test-d.ts", "2345"),
    ]
    checked = answer(root, check_all)
    assert [r.path for r in checked.results] == ["src/a.ts"]
    scope = answer(root, workspace_diagnostics).scope or []
    note = (  # said, where they had been counted outside the gate with no word (execa's 565)
        "not checked: tsd's tests, which tsd checks with its own assertions (`expectError`, "
        "`expectType`) that lspd does not run (`lspd check --all` checks them with "
        "TypeScript's rules)"
    )
    assert [(s.project, s.files, s.note) for s in scope] == [
        (".", 1, None),
        ("typings", 0, note),
        ("typings/checks", 0, note),
    ]
    (root / "package.json").write_text(json.dumps({"scripts": {"typecheck": "tsc --noEmit"}}))
    again = answer(root, check_all)  # nothing runs tsd: tsc's tests
    assert sorted(r.path for r in again.results if r.diagnostics) == [
        "typings/checks/a.test-d.ts",
        "typings/index.test-d.ts",
    ]


def test_a_package_tsconfig_no_script_runs_is_the_root_program_s(tmp_path: Path) -> None:
    """xstate's shape: the root's `"typecheck": "tsc"` checks every package under the root
    tsconfig (its vue shim, strict); a package's tsconfig.json, which no script runs, left
    the shim out and relaxed noImplicitAny: lspd said its TS2307 and not the gate's TS7006.
    A package whose own script runs tsc, a script the root runs, keeps its tsconfig as a
    program of the gate."""
    options = {"strict": True, "noEmit": True, "module": "esnext", "moduleResolution": "bundler"}
    package = {"extends": "../tsconfig.json", "include": ["src"]}
    files = {
        "package.json": json.dumps({"scripts": {"typecheck": "tsc"}}),
        "tsconfig.json": json.dumps({"compilerOptions": options}),
        "types/vue-shim.d.ts": 'declare module "*.vue" {\n  const c: unknown;\n'
        "  export default c;\n}\n",
        "pkg/tsconfig.json": json.dumps({**package, "compilerOptions": {"noImplicitAny": False}}),
        "pkg/src/a.ts": 'import C from "./Comp.vue";\nexport const c = C;\n',
        "pkg/src/b.ts": "export function f(x) {\n  return x;\n}\n",
    }
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    gate = sorted((m[1], m[4]) for m in LINE.finditer(own_tsc(root)))
    assert gate == [("pkg/src/b.ts", "7006")]

    def said() -> list[tuple[str, str | None]]:
        checked = answer(root, check_all)
        return sorted((r.path, d.code) for r in checked.results for d in r.diagnostics)

    assert said() == gate
    (root / "pkg/package.json").write_text(json.dumps({"scripts": {"types": "tsc --noEmit"}}))
    assert said() == gate  # a script nothing runs (`member_checks`)
    scripts = {"typecheck": "tsc", "types": "pnpm -r types"}
    (root / "package.json").write_text(json.dumps({"scripts": scripts}))
    # its own program too, as the root runs its script: each program's errors
    assert said() == [("pkg/src/a.ts", "2307"), ("pkg/src/b.ts", "7006")]


def test_a_folder_a_script_names_is_gated_and_an_editors_files_are_unchecked(
    tmp_path: Path,
) -> None:
    """kysely's shape: the root's `tsc` checks src; `tsc -p test/node` (a folder, emitting)
    checks test/node's program, which is the gate's, its own options; scripts/tsconfig.json
    no script runs holds files no program of the gate holds: no tsc the project runs says
    their errors (lspd said 4 TS6059 of their rootDir there)."""
    options = {"strict": True, "outDir": "dist", "module": "esnext", "moduleResolution": "bundler"}
    scripts = {"build": "tsc && echo built", "test:build": "tsc -p test/node"}
    files = {
        "package.json": json.dumps({"scripts": scripts}),
        "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
        "src/a.ts": "export const a: number = 1;\n",
        "test/node/tsconfig.json": json.dumps(
            {"compilerOptions": {**options, "noImplicitAny": False}, "include": ["."]}
        ),
        "test/node/a.test.ts": "export function f(x) {\n  return x;\n}\nconst n: number = 's';\n",
        "scripts/tsconfig.json": json.dumps({"compilerOptions": options, "include": ["."]}),
        "scripts/tool.ts": "const s: string = 1;\n",
    }
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    gate = [(m[1], m[4]) for m in LINE.finditer(own_tsc(root, "--noEmit"))]
    gate += [(m[1], m[4]) for m in LINE.finditer(own_tsc(root, "--noEmit", "-p", "test/node"))]
    assert gate == [("test/node/a.test.ts", "2322")]
    checked = answer(root, check_all)
    assert sorted((r.path, d.code) for r in checked.results for d in r.diagnostics) == gate
    assert sorted(r.path for r in checked.results) == ["src/a.ts", "test/node/a.test.ts"]


def test_tsgo_is_typescript_s_command_line_too(tmp_path: Path) -> None:
    """rolldown-plugin-dts's `"typecheck": "tsgo --noEmit"` (TypeScript 7's preview) checks
    the root tsconfig, as `tsc --noEmit` would: a test fixture's tsconfig no script runs,
    whose files the root excludes, is an editor's (its TS2322 was said where the gate
    passes)."""
    options = {"strict": True, "noEmit": True}
    files = {
        "package.json": json.dumps({"scripts": {"typecheck": "tsgo --noEmit"}}),
        "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
        "src/a.ts": "export const a: number = 1;\n",
        "tests/fixtures/a/tsconfig.json": json.dumps({"compilerOptions": options}),
        "tests/fixtures/a/main.ts": "const n: number = 's';\n",
    }
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    assert LINE.findall(own_tsc(root, "--noEmit")) == []
    checked = answer(root, check_all)
    assert [(r.path, r.errors) for r in checked.results] == [("src/a.ts", 0)]


def test_a_configuration_only_an_editor_s_references_is_an_editor_s(tmp_path: Path) -> None:
    """rolldown-plugin-dts's test fixtures: a solution tsconfig.json no script runs, below
    a root `tsc --noEmit` gate, references tsconfig.app.json; the gate never reads either,
    and the app's TS5102-like errors were said (here: its file's TS2322)."""
    options = {"strict": True, "noEmit": True}
    files = {
        "package.json": json.dumps({"scripts": {"typecheck": "tsc --noEmit"}}),
        "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
        "src/a.ts": "export const a: number = 1;\n",
        "tests/fixtures/sol/tsconfig.json": json.dumps(
            {"files": [], "references": [{"path": "./tsconfig.app.json"}]}
        ),
        "tests/fixtures/sol/tsconfig.app.json": json.dumps(
            {"compilerOptions": {"composite": True, "strict": True}, "include": ["app.ts"]}
        ),
        "tests/fixtures/sol/app.ts": "export const n: number = 's';\n",
    }
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    assert LINE.findall(own_tsc(root, "--noEmit")) == []
    checked = answer(root, check_all)
    assert [(r.path, r.errors) for r in checked.results] == [("src/a.ts", 0)]


def test_the_heap_the_gate_gives_its_tsc_is_the_builder_s(tmp_path: Path) -> None:
    """type-fest's `node --max-old-space-size=6144 ./node_modules/.bin/tsc`: its program
    needs 5.7 GB, and lspd's builder on Node's default (~4 GB) died where its gate passes."""
    scripts = {
        "test:tsc": "node --max-old-space-size=6144 ./node_modules/.bin/tsc",
        "lint": "node --max-old-space-size=9000 ./node_modules/.bin/xo",  # no tsc: not read
        "other": "NODE_OPTIONS='--max-old-space-size=2048 --trace-warnings' tsc --noEmit",
    }
    files = {
        "package.json": json.dumps({"scripts": scripts}),
        "tsconfig.json": json.dumps({**STRICT, "include": ["src"]}),
        "src/a.ts": "export const a: number = 1;\n",
    }
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    assert tsc_heap([root / "package.json"]) == 6144
    scripts["test:tsc"] = "node --max_old_space_size 3000 node_modules/typescript/bin/tsc"
    (root / "package.json").write_text(json.dumps({"scripts": scripts}))
    assert tsc_heap([root / "package.json"]) == 3000
    assert tsc_heap([root / "missing/package.json"]) is None

    def builder_command(warm: Warm) -> list[str]:
        warm.run(check_all(warm.ws))
        [builder] = warm.ws.builders.values()
        assert builder.pid is not None
        return Path(f"/proc/{builder.pid}/cmdline").read_bytes().decode().split("\0")

    for warm in warm_root(root, tmp_path / "logs"):
        assert "--max-old-space-size=3000" in builder_command(warm)


def test_tsd_s_tests_no_tsconfig_claims_are_left_to_tsd_too(tmp_path: Path) -> None:
    """p-map: `"test": "tsd"`, no tsconfig, its index.test-d.ts at the root. Its
    `expectError(f('x'))` was said as an error (TypeScript's defaults on a file no tsconfig
    claims), beside the scope line saying tsd's tests are not checked. A preview of a
    change under their folder names them."""
    test = 'import { expectError } from "tsd";\nexpectError<number>("one");\n'
    files = {
        "package.json": json.dumps({"scripts": {"test": "tsd"}, "types": "index.d.ts"}),
        "index.d.ts": "export declare function f(n: number): number;\n",
        "index.test-d.ts": test,
    }
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    (root / "node_modules/tsd").mkdir()
    (root / "node_modules/tsd/package.json").write_text('{"name": "tsd", "types": "index.d.ts"}')
    (root / "node_modules/tsd/index.d.ts").write_text(TSD)
    checked = answer(root, workspace_diagnostics)
    # index.d.ts too is tsd's: no package.json names TypeScript (emittery's said 5 errors
    # of TypeScript's defaults, where tsd says none)
    assert (checked.errors, checked.files_checked) == (0, 0)
    assert [(s.project, s.files, (s.note or "")[:48]) for s in checked.scope or []] == [
        (".", 0, "not checked: tsd's tests, which tsd checks with "),
        (".", 0, "not checked: TypeScript no tsconfig.json, nor pa"),
    ]
    package = {"scripts": {"test": "tsd"}, "devDependencies": {"typescript": "5.9.3"}}
    (root / "package.json").write_text(json.dumps(package))  # TypeScript named: its files
    assert answer(root, workspace_diagnostics).files_checked == 1
    every = answer(root, lambda ws: workspace_diagnostics(ws, all=True))
    assert [(d.path, d.code) for d in every.diagnostics] == [("index.test-d.ts", "2345")]
    # p-limit: a preview of a change its tsd tests break said "0 new", with no word of them
    changed = "export declare function f(n: string): number;\n"
    previewed = answer(root, lambda ws: preview(ws, [{"path": "index.d.ts", "content": changed}]))
    assert previewed.changes.introduced == []
    assert previewed.changes.scope.endswith(
        "; .: not checked: tsd's tests, which tsd checks with its own assertions (`expectError`, "
        "`expectType`) that lspd does not run (`lspd check --all` checks them with "
        "TypeScript's rules) (this change is not proven against them)"
    )
