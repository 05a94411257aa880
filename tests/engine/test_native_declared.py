"""A TypeScript 7 edit that leaves the file's declarations as they were asks no importer
again, in the watched check and in a preview (`engine/native_declared`): a statement added
in a function whose return type is written. One whose return type TypeScript infers asks
them, and the error its importer gets is found. Real TypeScript 7.0.2 and its `tsc -p`;
the declarations by lspd's own TypeScript."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.preview import preview
from tests.conftest import answer, warm_root
from tests.engine.test_native_check import CORE, check, native_project, tsc

# `label`'s return type is inferred: a body edit can change what its importer sees
INFERRED = "export function label(n: number) {\n  return n;\n}\n"
USE = 'import { label } from "./label";\n\nexport const shown: number = label(1);\n'
BODY = CORE.replace("return a + b;", "const sum = a + b;\n  return sum;")
EDITS = {  # file, its new text, the files asked, the errors then
    "body": ("src/core.ts", BODY, ["src/core.ts"], set()),
    "inferred": (
        "src/label.ts",
        INFERRED.replace("return n;", "return String(n);"),
        ["src/label.ts", "src/use.ts"],
        {("src/use.ts", 3, 14, "2322")},
    ),
}


def labelled(root: Path) -> Path:
    """The check's project with a module whose return type is inferred, and its importer."""
    root = native_project(root)
    (root / "src/label.ts").write_text(INFERRED)
    (root / "src/use.ts").write_text(USE)
    return root


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_check_asks_importers_only_where_declarations_change(tmp_path: Path, edit: str) -> None:
    name, text, asked, errors = EDITS[edit]
    root = labelled(tmp_path / "ts7")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        (root / name).write_text(text)
        assert tsc(warm) == errors
        assert check(warm) == (asked, errors)


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_preview_asks_importers_only_where_declarations_change(tmp_path: Path, edit: str) -> None:
    name, text, asked, errors = EDITS[edit]
    root = labelled(tmp_path / "ts7")
    result = answer(root, lambda ws: preview(ws, [{"path": name, "content": text}]))
    others = len(asked) - 1
    assert result.changes.scope.startswith(
        f"1 changed file(s) and {others} other file(s) the check would re-check for it"
    )
    found = {(d.path, d.line, d.column, d.code) for d in result.changes.introduced}
    assert found == errors
