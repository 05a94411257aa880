"""A TypeScript gate's files are the files its program compiles under the root, outside
node_modules: also the declaration files `include` does not list that tsc's program holds (a
`/// <reference path>`'s shim, a typeRoots package named in `compilerOptions.types` or by
`/// <reference types>`, a .d.ts imported from outside `include`), compared with the project's
own `tsc -p --listFilesOnly` (TypeScript 7.0.2 and 5.9.3). tsc reports their errors unless
skipLibCheck: with it, those git ignores (generated, build output) are left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.workspace.test_scope import scope_of, shown
from tests.workspace.toolchains import TS7_PINNED, gate, own_tsc, typescript_committed

TS5 = "5.9.3"
OPTIONS = {
    "strict": True,
    "noEmit": True,
    "target": "es2022",
    "module": "esnext",
    "moduleResolution": "bundler",
    "skipLibCheck": False,
    "types": ["appenv"],
    "typeRoots": ["./types"],
}
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "src/app.ts": (
        '/// <reference path="../extra/shim" />\n'  # no extension: tsc tries .ts, .d.ts
        '/// <reference types="legacyenv" />\n'
        'import { w } from "../lib/w";\n'
        "export const n: number = shimVersion() + w + legacyLog() + (__DEV__ ? 1 : 0);\n"
    ),
    # reached only by the reference above, and itself referencing another
    "extra/shim.d.ts": (
        '/// <reference path="./more.d.ts" />\ndeclare function shimVersion(): More;\n'
    ),
    "extra/more.d.ts": "type More = number;\n",
    "extra/unused.d.ts": "declare const unused: Strng;\n",  # in no program
    "types/appenv/index.d.ts": "declare var __DEV__: Booln;\n",  # an error tsc reports
    "types/legacyenv/index.d.ts": "declare function legacyLog(): number;\n",
    "types/other/index.d.ts": "declare var other: number;\n",  # not in `types`: not read
    "lib/w.d.ts": "export declare const w: number;\n",  # imported from outside `include`
}
ERRORS = [
    "types/appenv/index.d.ts(1,22): error TS2552: Cannot find name 'Booln'. Did you mean 'Boolean'?"
]


def listed(root: Path) -> set[str]:
    """The project's own `tsc -p . --listFilesOnly`: its program's files under the root,
    outside node_modules."""
    paths = {Path(line) for line in own_tsc(root, "-p", ".", "--listFilesOnly").splitlines()}
    return {
        p.relative_to(root).as_posix()
        for p in paths
        if root in p.parents and "node_modules" not in p.parts
    }


@pytest.mark.parametrize("version", [TS7_PINNED, TS5])
def test_the_programs_declaration_files_as_tsc_lists_them(tmp_path: Path, version: str) -> None:
    root = typescript_committed(tmp_path / "p", FILES, version)
    program = listed(root)
    assert program == {
        "src/app.ts",
        "extra/shim.d.ts",
        "extra/more.d.ts",
        "types/appenv/index.d.ts",
        "types/legacyenv/index.d.ts",
        "lib/w.d.ts",
    }
    assert gate(root)[1].splitlines() == ERRORS  # an error tsc reports outside `include`
    scope = scope_of(root)
    assert shown(root, scope) == sorted(program)
    assert scope.outside == 2  # extra/unused.d.ts, types/other/index.d.ts


@pytest.mark.parametrize("version", [TS7_PINNED, TS5])
def test_skip_lib_check_leaves_out_the_declarations_git_ignores(
    tmp_path: Path, version: str
) -> None:
    """A generated .d.ts git ignores (gen/api.d.ts) holds an error: tsc reports it without
    skipLibCheck (so the gate checks it), and not with it (so it is left out); a tracked
    one (extra/shim.d.ts) stays either way: its edit breaks the files using it."""
    files = {
        **FILES,
        "src/app.ts": '/// <reference path="../gen/api.d.ts" />\n' + FILES["src/app.ts"],
    }
    root = typescript_committed(tmp_path / "p", files, version)
    (root / ".gitignore").write_text("node_modules\ngen/\n")  # its generated files
    (root / "gen").mkdir()
    (root / "gen/api.d.ts").write_text("declare const api: Strng;\n")
    program = listed(root)
    assert "gen/api.d.ts" in program
    said = gate(root)[1].splitlines()
    assert said[0].startswith("gen/api.d.ts(1,20): error TS2552: Cannot find name 'Strng'.")
    assert shown(root, scope_of(root)) == sorted(program)
    options = {**OPTIONS, "skipLibCheck": True}
    (root / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": options, "include": ["src"]})
    )
    assert gate(root) == (0, "")
    assert listed(root) == program
    assert shown(root, scope_of(root)) == sorted(program - {"gen/api.d.ts"})
