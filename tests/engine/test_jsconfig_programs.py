"""A jsconfig.json is its folder's program as a tsconfig.json is (`builders.tsconfig_of`):
a root tsconfig.json (`include: ["src"]`) and site/jsconfig.json (checkJs) whose page.js
imports src/a.ts. Before, page.js was taken for the root tsconfig's program: on TypeScript
5.4.5 a preview and `check --baseline HEAD` of an edit of src/a.ts breaking page.js said 0
new (HEAD's state kept page.js's work-tree errors; no builder checked its program), and on
7.0.2 a syntax error of page.js stopped nothing (its TS2322 said where tsc stops). Real
TypeScript, the project's own `tsc -p` of each configuration beside (each file once)."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

import pytest

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.checked import Checked
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.models import Diagnostic
from lspd.ops.preview import previewed
from tests.conftest import answer, warm_root
from tests.engine.test_native_check import CONFIG
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, own_tsc, typescript_committed

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): ", re.MULTILINE)
JSCONFIG = {"compilerOptions": {**CONFIG["compilerOptions"], "checkJs": True}}
A = "export function f(x: number): number {\n  return x;\n}\nexport const n: number = 'x';\n"
PAGE = "import { f } from '../src/a';\n/** @type {number} */\nexport const m = 'y';\n"
FILES = {
    "tsconfig.json": json.dumps({**CONFIG, "include": ["src"]}, indent=2),
    "src/a.ts": A,
    "site/jsconfig.json": json.dumps({**JSCONFIG, "include": ["**/*.js"]}, indent=2),
    "site/page.js": f"{PAGE}export const k = f(1);\n",
    "site/other.js": "export const o = Math.max(1, 2);\n",
}
BREAKING = A.replace("x: number): number", "x: string): string")  # page.js's f(1): TS2345
HEAD = {("site/page.js", 3, 14, "2322"), ("src/a.ts", 4, 14, "2322")}
Found = set[tuple[str, int, int, str]]


def _truth(root: Path) -> Found:
    """`tsc -p` of the root tsconfig and of site/jsconfig.json: each error once."""
    out = "".join(
        own_tsc(root, "-p", c, "--noEmit", "--pretty", "false") for c in (".", "site/jsconfig.json")
    )
    return {(p, int(line), int(column), c) for p, line, column, c in LINE.findall(out)}


def _said(checked: Checked) -> Found:
    return {
        (r.path, d.line, d.column, d.code or "") for r in checked.results for d in r.diagnostics
    }


def _found(diagnostics: list[Diagnostic]) -> Found:
    return {(d.path, d.line, d.column, d.code or "") for d in diagnostics}


@pytest.mark.parametrize("version", ["5.4.5", "7.0.2"])
def test_an_edit_breaking_a_jsconfig_file_is_new_as_tsc_says(tmp_path: Path, version: str) -> None:
    root = typescript_committed(tmp_path / "p", FILES, version)
    assert _truth(root) == HEAD
    checked = answer(root, check_all)
    assert _said(checked) == HEAD
    assert checked.scope is not None  # src/a.ts the root tsconfig's, its nearest's (was 3, 0)
    scope = checked.scope
    projects = {p.config: sorted(str(f.relative_to(root)) for f in p.files) for p in scope.projects}
    assert projects == {
        "site/jsconfig.json": ["site/other.js", "site/page.js"],
        "tsconfig.json": ["src/a.ts"],
    }
    edit = [{"path": "src/a.ts", "content": BREAKING}]
    preview = answer(root, lambda ws: previewed(ws, edit)).changes
    new = {("site/page.js", 4, 20, "2345")}
    assert (_found(preview.introduced), preview.fixed) == (new, [])
    (root / "src/a.ts").write_text(BREAKING)
    assert _truth(root) == HEAD | new
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert since is not None
    assert (_found(since.introduced), since.fixed, since.unchanged) == (new, [], 2)


@pytest.mark.parametrize("version", ["5.4.5", "7.0.2"])
def test_a_jsconfig_file_syntax_error_stops_its_program_alone(tmp_path: Path, version: str) -> None:
    files = {**FILES, "site/page.js": f"{PAGE}export const k = f(1;\n"}
    root = typescript_committed(tmp_path / "p", files, version)
    truth = _truth(root)
    assert truth == {("site/page.js", 4, 21, "1005"), ("src/a.ts", 4, 14, "2322")}
    checked = answer(root, check_all)
    assert _said(checked) == truth
    assert [s.at for s in checked.stopped] == [(("site/page.js", 4),)]
    assert {"site/page.js", "site/other.js"} <= checked.stopped[0].files


RC = "/** @type {number} */\nconst m = 'y';\nexport default m;\n"
LIB = {"compilerOptions": {**CONFIG["compilerOptions"], "composite": True, "noEmit": False}}
BESIDE = {  # vscode-languageserver-node's root: a solution tsconfig, a jsconfig's one file
    "tsconfig.json": json.dumps({"files": [], "references": [{"path": "./lib"}]}, indent=2),
    "lib/tsconfig.json": json.dumps({**LIB, "include": ["src"]}, indent=2),
    "lib/src/x.ts": "export const x: number = 1;\n",
    "jsconfig.json": json.dumps({**JSCONFIG, "include": ["./.tsconfigrc.js"]}, indent=2),
    ".tsconfigrc.js": RC,
}


@pytest.mark.parametrize("version", ["5.4.5", "7.0.2"])
def test_a_jsconfig_beside_a_solution_tsconfig_checks_its_file(
    tmp_path: Path, version: str
) -> None:
    """tsserver takes the folder's tsconfig.json (holding no file) first: 5.4.5's said
    nothing of .tsconfigrc.js where `tsc -p jsconfig.json` says TS2322; now its program's
    builder checks it (`builders.tsconfig_of`: the configuration that chose it)."""
    root = typescript_committed(tmp_path / "p", BESIDE, version)
    out = own_tsc(root, "-p", "jsconfig.json", "--pretty", "false")
    truth = {(p, int(line), int(c), code) for p, line, c, code in LINE.findall(out)}
    assert truth == {(".tsconfigrc.js", 2, 7, "2322")}
    assert _said(answer(root, check_all)) == truth


EDITORS_AID = {  # scripts/jsconfig.json an editor's aid; the root tsconfig.json checks x.js
    "tsconfig.json": json.dumps(
        {
            "compilerOptions": {**CONFIG["compilerOptions"], "allowJs": True, "checkJs": True},
            "include": ["src", "scripts"],
        }
    ),
    "src/a.ts": "export const n: number = 1;\n",
    "scripts/jsconfig.json": json.dumps({"compilerOptions": {"module": "esnext"}}),
    "scripts/x.js": "/** @type {number} */\nexport const k = 'x';\n",
}


# TypeScript 7's server takes x.js for its nearest configuration's (no checkJs): nothing was
# said (before 90f5a8d too); now its own program's tsc -p stands for the server's answer.
@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_a_file_a_tsconfig_holds_is_its_program_s_under_a_nearer_jsconfig(
    tmp_path: Path, version: str
) -> None:
    """The gate is `tsc -p .` (helper-review of 90f5a8d: its nearest jsconfig.json took
    scripts/x.js, and its TS2322 was not said; TypeScript 7 said nothing before either)."""
    root = typescript_committed(tmp_path / "p", EDITORS_AID, version)
    truth = set()
    for config in (".", "scripts/jsconfig.json"):
        out = own_tsc(root, "-p", config, "--noEmit", "--pretty", "false")
        truth |= {(p, int(a), int(b), e) for p, a, b, e in LINE.findall(out)}
    assert truth == {("scripts/x.js", 2, 14, "2322")}
    assert _said(answer(root, check_all)) == truth
    with contextlib.contextmanager(warm_root)(root, tmp_path / "logs", True) as warm:
        warm.run(check_all(warm.ws))  # a daemon's: the gate's scope read
        one = warm.run(diagnostics(warm.ws, "scripts/x.js")).diagnostics
        assert [(d.line, d.column, d.code) for d in one] == [(2, 14, "2322")]
    fixed = [{"path": "scripts/x.js", "content": "/** @type {number} */\nexport const k = 1;\n"}]
    changes = answer(root, lambda ws: previewed(ws, fixed)).changes
    assert [(d.path, d.line, d.code) for d in changes.fixed] == [("scripts/x.js", 2, "2322")]
    assert changes.introduced == []


def test_a_fresh_javascript_files_syntax_error_stops_its_typescript_7_program(
    tmp_path: Path,
) -> None:
    """A one-shot check of a layout just written reads its program anew, each file parsed
    alone (`tsc_native.parsed_errors`), which took no JavaScript file without `--allowJs`
    (TS6504): src/a.js's TS1109 was said with its TS2322 and no stop (the CI of a33d4c5
    failed test_a_jsconfig_file_syntax_error_stops_its_program_alone[7.0.2] so)."""
    options = {**CONFIG["compilerOptions"], "allowJs": True, "checkJs": True}
    files = {
        "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
        "src/a.js": f"{RC}const z = (;\n",
    }
    root = typescript_committed(tmp_path / "p", files, TS7_PINNED)
    out = own_tsc(root, "-p", ".", "--noEmit", "--pretty", "false")
    truth = {(p, int(a), int(b), e) for p, a, b, e in LINE.findall(out)}
    assert truth == {("src/a.js", 4, 12, "1109")}
    checked = answer(root, check_all)
    assert _said(checked) == truth
    assert [s.at for s in checked.stopped] == [(("src/a.js", 4),)]
