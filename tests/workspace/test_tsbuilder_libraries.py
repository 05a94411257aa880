"""Errors tsc -p says in a program's library files (a package's .d.ts under node_modules), where
it says them (skipLibCheck off): lspd says them too, named by their path from the root. Before
(issue 40, ts-pattern's examples/one-file-demo on 5.9.2: tsc -p 15 errors, 5 of them TS2416 in
node_modules/@types/node/globals.d.ts; lspd check 10), the builder's checks left every library
file out (`tsbuilder_check.cjs` ownFiles). A package whose index.d.ts has a class implementing
its interface wrongly (TS2416), imported by src/a.ts: `lspd check` says what tsc -p says, file,
line, column and code; with skipLibCheck nothing of the package; an edit of src/a.ts leaves the
package's error unchanged against HEAD, and one of src/config.d.ts taking away a global type the
package uses makes its TS2304 new, in a preview and against HEAD (whose result took the work
tree's for every file outside the gate: `committed.made_state`). Real TypeScript, its own
`tsc -p` beside. TypeScript 7 alike (its LSP was asked of the program's own files alone, though
it answers a package's .d.ts pulled: TS2416 at 5:3; now `engine/native_libraries.py`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Diagnostic
from lspd.ops.preview import previewed
from tests.conftest import answer
from tests.engine.test_native_check import CONFIG
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, own_tsc, typescript_committed

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): ", re.MULTILINE)
PACKAGE = (
    "export interface Shape {\n  area(): number;\n}\n"
    "export declare class Square implements Shape {\n  area(): string;\n}\n"
)
A = "import { Square } from 'some-pkg';\nexport const s = new Square();\n"
A += "export const n: number = 'x';\n"
LIBRARY = ("node_modules/some-pkg/index.d.ts", 5, 3, "2416")
OWN = ("src/a.ts", 3, 14, "2322")
Found = set[tuple[str, int, int, str]]
CONFIG_TYPE = "interface Config {\n  name: string;\n}\n"  # a global type the package uses


def _project(
    root: Path, version: str, skip: bool = False, more: dict[str, str] | None = None
) -> Path:
    options = {**CONFIG["compilerOptions"], "skipLibCheck": skip}
    files = {
        **(more or {}),
        "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
        "src/a.ts": A,
    }
    root = typescript_committed(root, files, version)
    package = root / "node_modules/some-pkg"
    package.mkdir()
    (package / "package.json").write_text(json.dumps({"name": "some-pkg", "types": "index.d.ts"}))
    (package / "index.d.ts").write_text(
        PACKAGE + ("export declare const c: Config;\n" if more else "")
    )
    return root


def _truth(root: Path) -> Found:
    out = own_tsc(root, "-p", ".", "--noEmit", "--pretty", "false")
    return {(p, int(line), int(column), c) for p, line, column, c in LINE.findall(out)}


def _found(diagnostics: list[Diagnostic]) -> Found:
    return {(d.path, d.line, d.column, d.code or "") for d in diagnostics}


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_a_packages_declaration_errors_are_said_as_tsc_says_them(
    tmp_path: Path, version: str
) -> None:
    root = _project(tmp_path / "p", version)
    assert _truth(root) == {LIBRARY, OWN}
    checked = answer(root, workspace_diagnostics)
    assert _found(checked.diagnostics) == {LIBRARY, OWN}
    fixing = A.replace("number = 'x'", "number = 1")
    preview = answer(
        root, lambda ws: previewed(ws, [{"path": "src/a.ts", "content": fixing}])
    ).changes
    assert (preview.introduced, _found(preview.fixed)) == ([], {OWN})
    (root / "src/a.ts").write_text(fixing)
    assert _truth(root) == {LIBRARY}
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert since is not None
    assert (since.introduced, _found(since.fixed), since.unchanged) == ([], {OWN}, 1)


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_skip_lib_check_leaves_a_packages_errors_unsaid(tmp_path: Path, version: str) -> None:
    root = _project(tmp_path / "p", version, skip=True)
    assert _truth(root) == {OWN}
    assert _found(answer(root, workspace_diagnostics).diagnostics) == {OWN}


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_an_own_edit_breaking_a_package_is_new_as_tsc_says(tmp_path: Path, version: str) -> None:
    root = _project(tmp_path / "p", version, more={"src/config.d.ts": CONFIG_TYPE})
    assert _truth(root) == {LIBRARY, OWN}
    gone = {"path": "src/config.d.ts", "content": "interface Other {}\n"}
    new = {("node_modules/some-pkg/index.d.ts", 7, 25, "2304")}
    preview = answer(root, lambda ws: previewed(ws, [gone])).changes
    assert (_found(preview.introduced), preview.fixed) == (new, [])
    (root / "src/config.d.ts").write_text("interface Other {}\n")
    assert _truth(root) == {LIBRARY, OWN} | new
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert since is not None
    assert (_found(since.introduced), since.fixed, since.unchanged) == (new, [], 2)
