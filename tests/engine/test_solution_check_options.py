"""A solution's referenced program whose options err stops alone, as `tsc -b` says: its
tsconfig.app.json's TS2688 (a `types` entry not found) and the other program's TS2322, not
the app's own TS2322 (TypeScript 7.0.2 lspd check said it: the referenced programs'
configuration errors were `solution_check._configured`'s, unknown to the rule of
`engine/config_stops.py`). Real TypeScript 7.0.2 and 5.9.3 against their own tsc -b."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.conftest import answer, warm_root
from tests.workspace.toolchains import own_tsc, typescript_committed

OPTIONS = {
    "composite": True,
    "strict": True,
    "noEmit": True,
    "module": "esnext",
    "moduleResolution": "bundler",
    "target": "es2022",
}
FILES = {
    "tsconfig.json": json.dumps(
        {
            "files": [],
            "references": [{"path": "./tsconfig.app.json"}, {"path": "./tsconfig.node.json"}],
        }
    ),
    "tsconfig.app.json": json.dumps(
        {"compilerOptions": {**OPTIONS, "types": ["nope"]}, "include": ["src"]}
    ),
    "tsconfig.node.json": json.dumps(
        {"compilerOptions": {**OPTIONS, "types": []}, "include": ["tools"]}
    ),
    "src/a.ts": "export const n: number = 'x';\n",
    "tools/t.ts": "export const t: number = 'y';\n",
}
LINE = re.compile(r"^(\S+)\((\d+),\d+\): error TS(\d+): ", re.MULTILINE)
TRUTH = {("tsconfig.app.json", 1, "2688"), ("tools/t.ts", 1, "2322")}


def _build(root: Path) -> set[tuple[str, int, str]]:
    """tsc -b's errors (one said without a place: its tsconfig's first line, as lspd's)."""
    out = own_tsc(root, "-b", "--pretty", "false")
    found = {(p, int(line), c) for p, line, c in LINE.findall(out)}
    if "error TS2688: Cannot find type definition file for 'nope'." in out:
        found.add(("tsconfig.app.json", 1, "2688"))
    return found


@pytest.mark.parametrize("version", ["7.0.2", "5.9.3"])
def test_a_referenced_program_stops_at_its_options(tmp_path: Path, version: str) -> None:
    root = typescript_committed(tmp_path / "app", FILES, version)
    assert _build(root) == TRUTH
    once = answer(root, check_all)
    said = {(r.path, d.line, d.code) for r in once.results for d in r.diagnostics}
    assert said == TRUTH
    assert [(s.at, s.files) for s in once.stopped] == [
        ((("tsconfig.app.json", 1),), frozenset({"src/a.ts"}))
    ]
    if version != "7.0.2":
        return
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        checked = warm.run(check_all(warm.ws))
        assert {(r.path, d.line, d.code) for r in checked.results for d in r.diagnostics} == TRUTH


@pytest.mark.parametrize("version", ["7.0.2", "5.9.3"])
def test_a_file_of_two_programs_keeps_the_other_programs_errors(
    tmp_path: Path, version: str
) -> None:
    """src/shared.ts is the app's (stopped at its TS2688) and the node program's too: tsc -b
    says its TS2322 there; the stop emptied its whole result, the node program's part too."""
    node = {"compilerOptions": {**OPTIONS, "types": []}, "include": ["tools", "src/shared.ts"]}
    files = {**FILES, "tsconfig.node.json": json.dumps(node)}
    files["src/shared.ts"] = "export const s: number = 'z';\n"
    root = typescript_committed(tmp_path / "app", files, version)
    truth = TRUTH | {("src/shared.ts", 1, "2322")}
    assert _build(root) == truth
    once = answer(root, check_all)
    said = {(r.path, d.line, d.code) for r in once.results for d in r.diagnostics}
    assert said == truth
    stopped = [(s.at, s.files) for s in once.stopped]
    assert stopped == [((("tsconfig.app.json", 1),), frozenset({"src/a.ts", "src/shared.ts"}))]
