"""A file TypeScript 5's builder helper cannot read is no file, as `tsc -p`'s own host has it:
deleting a script another script `/// <reference path>`s says tsc's TS6053 (file not found)
and the uses of its globals, never a TS5012 "Cannot read file ...: ENOENT" tsc -p does not
say (the helper's host told TypeScript its stat's error). A watched daemon on TypeScript
5.9.3, against the project's own `tsc -p`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.conftest import Warm, warm_root
from tests.workspace.toolchains import gate, typescript_committed

CONFIG = {"compilerOptions": {"strict": True, "noEmit": True, "target": "es2022"}}
FILES = {
    "tsconfig.json": json.dumps({**CONFIG, "include": ["globals"]}),
    "globals/util.ts": "function fmtMoney(amount: number): string {\n  return '$' + amount;\n}\n",
    "globals/report.ts": (
        '/// <reference path="./util.ts" />\nconst total: string = fmtMoney(3);\n'
    ),
}
GATE_LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)
Found = set[tuple[str, int, int, str]]


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Warm]:
    root = typescript_committed(tmp_path / "p", FILES, "5.9.3")
    yield from warm_root(root, tmp_path / "logs", watch=True)


def tsc(root: Path) -> Found:
    return {(p, int(a), int(b), c) for p, a, b, c in GATE_LINE.findall(gate(root)[1])}


def errors(warm: Warm) -> Found:
    checked = warm.run(check_all(warm.ws))
    return {
        (r.path, d.line, d.column, d.code or "") for r in checked.results for d in r.diagnostics
    }


def test_a_deleted_referenced_script_is_tscs_file_not_found(warm: Warm) -> None:
    assert errors(warm) == tsc(warm.root) == set()
    (warm.root / "globals/util.ts").unlink()
    truth = tsc(warm.root)
    assert truth == {("globals/report.ts", 1, 22, "6053"), ("globals/report.ts", 2, 23, "2304")}
    assert errors(warm) == truth
    (warm.root / "globals/util.ts").write_text(FILES["globals/util.ts"])
    assert errors(warm) == set()
