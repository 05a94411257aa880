"""A syntax error in a referenced project's source, as `tsc -b` says it: once, of the project
that owns the file, and the referencing project still checked (TypeScript 5.6 on: it builds
on against the recovered declarations).

vscode-languageserver-node (37 tsconfigs, TypeScript 5.9.3) with a syntax error in
jsonrpc/src/common/messages.ts: `lspd check` said its 8 errors 6 times each (once per
program holding the file as a referenced project's source) where tsc -b says them once.
The builder took a referenced project's sources (read in place of its outputs) for the
referencing program's own files. A watched workspace on TypeScript 5.9.3 against its tsc -b."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.conftest import Warm, warm_root
from tests.workspace.toolchains import own_tsc, typescript_committed


def _project(out: str, *references: str) -> str:
    options = {"composite": True, "strict": True, "outDir": f"../out/{out}", "rootDir": "."}
    refs = [{"path": r} for r in references]
    return json.dumps({"compilerOptions": options, "include": ["."], "references": refs})


FILES = {
    "tsconfig.json": json.dumps({"files": [], "references": [{"path": "a"}, {"path": "b"}]}),
    "a/tsconfig.json": _project("a"),
    "b/tsconfig.json": _project("b", "../a"),
    "a/x.ts": "export namespace Codes {\n  export const one = 1;\n}\n"
    "export function f(n: number): number {\n  return n;\n}\n",
    "b/y.ts": 'import { Codes, f } from "../a/x";\nexport const v: number = f(Codes.one);\n',
}
BUILD_LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)
Said = list[tuple[str, int, int, str]]


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Warm]:
    root = typescript_committed(tmp_path / "p", {**FILES, ".gitignore": "out\n"}, "5.9.3")
    yield from warm_root(root, tmp_path / "logs", watch=True)


def tsc_b(root: Path) -> Said:
    said = own_tsc(root, "-b", "--pretty", "false")
    return sorted((p, int(a), int(b), c) for p, a, b, c in BUILD_LINE.findall(said))


def errors(warm: Warm) -> Said:
    checked = warm.run(check_all(warm.ws))
    return sorted(
        (r.path, d.line, d.column, d.code or "") for r in checked.results for d in r.diagnostics
    )


def test_a_referenced_projects_syntax_error_is_said_once(warm: Warm) -> None:
    assert errors(warm) == tsc_b(warm.root) == []
    source = warm.root / "a/x.ts"
    source.write_text(FILES["a/x.ts"].replace("namespace Codes", "namespace ((( Codes"))
    truth = tsc_b(warm.root)
    assert len(truth) == 6 and ("b/y.ts", 1, 10, "2305") in truth
    assert errors(warm) == truth  # was a/x.ts's five twice, and no b/y.ts
    source.write_text(FILES["a/x.ts"])
    assert errors(warm) == tsc_b(warm.root) == []
