"""A `files` entry of a tsconfig that is gone: tsc -p says "File '.../src/b.ts' not found."
(TS6053; TypeScript 7 exits 1 at any error). The gate's scope took TypeScript's parsed file
names as they are, the missing one too, so TypeScript 7's check asked the server of a file no
project holds and failed ("typescript-native refused textDocument/diagnostic: no project
found for URI"; the reviewer's repro). Now a gone entry is no file of the gate, and its
error is tsc's, in tsconfig.json. Real TypeScript 7.0.2, a watched workspace and one-shot."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.ops.check import check_all
from tests.conftest import answer, warm_root
from tests.workspace.toolchains import TS7_PINNED, gate, typescript_committed

OPTIONS = {"strict": True, "noEmit": True}
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "files": ["src/a.ts", "src/b.ts"]}),
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
}


def test_a_files_entry_gone_is_tscs_error(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "ts7", FILES, TS7_PINNED)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert [d for r in warm.run(check_all(warm.ws)).results for d in r.diagnostics] == []
        (root / "src/b.ts").unlink()
        code, out = gate(root)  # said with no place: lspd says it in tsconfig.json
        assert (code, out.splitlines()[0]) == (
            1,
            f"error TS6053: File '{root}/src/b.ts' not found.",
        )
        for checked in (warm.run(check_all(warm.ws)), answer(root, check_all)):
            found = {(r.path, d.code) for r in checked.results for d in r.diagnostics}
            assert found == {("tsconfig.json", "6053")}
