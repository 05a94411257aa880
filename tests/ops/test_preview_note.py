"""How a preview's answer says which files it compared: the files the check would re-check
for the change (`ops/overlaid_check._note`). A TypeScript program emitting declarations
answers every file of a preview (an error anywhere takes every file's declaration errors
away): hono's said "328 other file(s) the check would re-check" after a comment, where the
builder checked one file anew. Real TypeScript."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.ops.preview import preview
from tests.conftest import answer
from tests.workspace.toolchains import typescript_committed

OPTIONS = {"strict": True, "declaration": True, "outDir": "dist"}
CORE = "export function area(w: number): number {\n  return w * 2;\n}\n"
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "src/core.ts": CORE,
    **{
        f"src/{n}.ts": f'import {{ area }} from "./core";\nexport const {n} = area(1);\n'
        for n in "abc"
    },
    "src/leaf.ts": "export const leaf = 1;\n",
}
EDITS = {
    "comment": ("// the area\n" + CORE, 0),
    "signature": (CORE.replace("w: number)", "w: number, h: number)"), 3),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_the_note_counts_the_files_checked_anew(tmp_path: Path, edit: str) -> None:
    root = typescript_committed(tmp_path / "p", FILES)
    text, others = EDITS[edit]
    result = answer(root, lambda ws: preview(ws, [{"path": "src/core.ts", "content": text}]))
    assert result.changes.scope.startswith(
        f"1 changed file(s) and {others} other file(s) the check would re-check for it"
    )
    assert len(result.changes.introduced) == others
