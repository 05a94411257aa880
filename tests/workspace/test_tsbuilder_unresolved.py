"""A module its importer could not resolve at one check, there at the next: the builder's
program is made from the last one, which reuses what unchanged files resolved, a module not
found too (tsc --watch looks again where a lookup failed; a plain compiler host does not).
A module missing for a moment while a check read the disk (`git checkout` writing it again)
stayed missing: the examiner's ts-pattern said three false TS2307 "Cannot find module
'./internals/helpers'" after reverts, until an importer changed. Made here without a race: a
tsconfig whose `files` names the entry alone, so the module's coming changes no root name.
Real TypeScript 5.4.5, and 7.0.2 (whose server looks again itself), its own `tsc -p` beside."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import previewed
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.engine.test_native_check import CONFIG
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, own_tsc, typescript_committed

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): ", re.MULTILINE)
MAIN = "import { b } from './b';\nexport const n: number = b;\n"
FILES = {
    "tsconfig.json": json.dumps({**CONFIG, "files": ["src/main.ts"]}),
    "src/main.ts": MAIN,
}
Row = tuple[str, int, int, str]


def _tsc(root: Path) -> list[Row]:
    said = own_tsc(root, "-p", ".")
    return [(m[1], int(m[2]), int(m[3]), m[4]) for m in LINE.finditer(said)]


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_a_module_come_since_the_last_check_is_resolved(tmp_path: Path, version: str) -> None:
    root = typescript_committed(tmp_path / "p", FILES, version)
    missing = [("src/main.ts", 1, 19, "2307")]
    assert _tsc(root) == missing
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        said = warm.run(workspace_diagnostics(warm.ws)).diagnostics
        assert [(d.path, d.line, d.column, d.code) for d in said] == missing
        written(root, {"src/b.ts": "export const b: string = 'x';\n"})
        assert _tsc(root) == [("src/main.ts", 2, 14, "2322")]
        change = [{"path": "src/b.ts", "content": "export const b = 1;\n"}]
        preview = warm.run(previewed(warm.ws, change)).changes
        assert [(d.path, d.line, d.code) for d in preview.fixed] == [("src/main.ts", 2, "2322")]
        said = warm.run(workspace_diagnostics(warm.ws)).diagnostics
        assert [(d.path, d.line, d.column, d.code) for d in said] == _tsc(root)
