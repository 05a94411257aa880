"""A TypeScript 7 edit that leaves the file's declarations as they were asks no importer
again, in the watched check and in a preview (`engine/native_declared`): a statement added
in a function whose return type is written. One whose return type TypeScript infers asks
them, and the error its importer gets is found. Real TypeScript 7.0.2 and its `tsc -p`;
the declarations by lspd's own TypeScript."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from lspd.engine.native_declared import ALIKE_MOST, declared_alike
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from tests.conftest import answer, warm_root
from tests.engine.test_native_check import CONFIG, CORE, check, native_project, tsc

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


def aliased(root: Path) -> Path:
    """`labelled`'s project with a `paths` wildcard not followed by name, and its importer."""
    root = labelled(root)
    paths = {"#impl/*": ["./src/*-impl.ts"]}
    config = {**CONFIG, "compilerOptions": {**CONFIG["compilerOptions"], "paths": paths}}
    (root / "tsconfig.json").write_text(json.dumps({**config, "include": ["src"]}))
    (root / "src/core-impl.ts").write_text(CORE)
    (root / "src/via.ts").write_text(
        'import { add } from "#impl/core";\nexport const v = add(1, 2);\n'
    )
    return root


def test_a_body_edit_asks_its_file_alone_where_aliases_cannot_be_followed(
    tmp_path: Path,
) -> None:
    """A `paths` wildcard whose files are not named as its specifiers (`#impl/*` ->
    `./src/*-impl.ts`) leaves importers unknown by name: every file was asked after any
    edit. An edit leaving the declarations as they were looks for no importer at all."""
    root = aliased(tmp_path / "ts7")
    change = [{"path": "src/core-impl.ts", "content": BODY}]
    previewed = answer(root, lambda ws: preview(ws, change))
    assert previewed.changes.scope.startswith("1 changed file(s) and 0 other file(s)")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        (root / "src/core-impl.ts").write_text(BODY)
        assert check(warm) == (["src/core-impl.ts"], set()) and tsc(warm) == set()
        (root / "src/core-impl.ts").write_text(CORE.replace("b: number", "b: string"))
        asked, found = check(warm)
        assert "src/via.ts" in asked and found == tsc(warm) != set()


def test_a_checkout_s_many_files_are_not_read_for_declarations(tmp_path: Path) -> None:
    """Past `ALIKE_MOST` edited files (a checkout), no declaration is emitted: their
    importers are most files, asked at once (hundreds of texts would cost seconds first)."""
    pairs = {tmp_path / f"m{n}.ts": (CORE, BODY) for n in range(ALIKE_MOST + 1)}
    few = dict(list(pairs.items())[:2])

    async def main() -> tuple[set[Path], set[Path]]:
        ws = Workspace(tmp_path, log_dir=tmp_path / "logs")
        try:
            return await declared_alike(ws, pairs), await declared_alike(ws, few)
        finally:
            await ws.close()

    many, two = asyncio.run(main())
    assert many == set() and two == set(few)
