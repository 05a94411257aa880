"""tsc's copy of a held state is kept between questions (`workspace/tsc_kept.py`): the next
question copies again only what moved on the disk or what a question before held, removes
what is gone, and answers as tsc -p on a fresh copy would; a question finding the kept copy
taken gets a fresh one; nothing reaches the repository. Real TypeScript 7.0.2 (its native
tsc) and 5.4.5."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lspd.engine.program_runs import compiler_of
from lspd.workspace import Workspace, tsc_kept
from lspd.workspace.tsc_copy import Checked, checked_copy
from tests.engine.test_affected import written
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_package

CONFIG = {"compilerOptions": {"strict": True, "types": [], "noEmit": True}, "include": ["src"]}
FILES = {
    "tsconfig.json": json.dumps(CONFIG),
    "src/shapes.ts": "export const area = (r: number): number => r * r;\n",
    "src/main.ts": "import { area } from './shapes';\nexport const a: number = area(2);\n",
    "src/eq.ts": "export const same = (a: string, b: string): boolean => a === b;\n",
}
BUILT = 40  # gitignored build output the copy holds (tsc reads none of it)


def _project(tmp_path: Path, version: str) -> tuple[Path, list[str]]:
    root = written(tmp_path / "ts", {**FILES, ".gitignore": "node_modules\ndist\n"})
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    (root / "dist").mkdir()
    for i in range(BUILT):
        (root / f"dist/chunk{i}.js").write_text(f"export const c{i} = {i};\n")
    tsc = compiler_of(Workspace(root, log_dir=tmp_path / "logs"), root / "tsconfig.json")
    assert tsc is not None
    return root, tsc


def _said(root: Path, checked: Checked | None) -> tuple[list[str], list[tuple[str, int, str]]]:
    assert checked is not None
    files = sorted(str(p.relative_to(root)) for p in checked.files if p.is_relative_to(root))
    errors = [(str(e.file.relative_to(root)), e.line, e.code) for e in checked.errors]
    return files, errors


def _kept(root: Path, state: Path) -> Path:
    return tsc_kept.folder(state, root, root / "tsconfig.json", root).resolve()


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and "node_modules" not in p.relative_to(root).parts
    }


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_the_kept_copy_answers_each_state_and_copies_again_only_what_moved(
    tmp_path: Path, version: str
) -> None:
    root, tsc = _project(tmp_path, version)
    config, state = root / "tsconfig.json", tmp_path / "state"
    before = _tree(root)
    held = {
        root / "src/shapes.ts": "export const area = (r: number): string => r * r;\n",
        root / "src/eq.ts": None,
        root / "src/extra.ts": "export const x: number = 'x';\n",
    }
    files, errors = _said(root, checked_copy(tsc, root, config, held, state))
    assert files == ["src/extra.ts", "src/main.ts", "src/shapes.ts"]
    assert errors == [
        ("src/extra.ts", 1, "2322"),
        ("src/main.ts", 2, "2322"),
        ("src/shapes.ts", 1, "2322"),
    ]
    kept = _kept(root, state)
    chunk = (kept / "dist/chunk0.js").stat().st_mtime_ns
    main = (kept / "src/main.ts").stat().st_mtime_ns
    # the disk moves meanwhile: main.ts edited, a file added, one removed
    (root / "src/main.ts").write_text(
        "import { area } from './shapes';\nexport const a: string = area(2);\n"
    )
    (root / "src/more.ts").write_text("export const m: boolean = 1;\n")
    (root / "dist/chunk1.js").unlink()
    files, errors = _said(root, checked_copy(tsc, root, config, {}, state))
    assert files == ["src/eq.ts", "src/main.ts", "src/more.ts", "src/shapes.ts"]
    assert errors == [("src/main.ts", 2, "2322"), ("src/more.ts", 1, "2322")]
    assert (kept / "dist/chunk0.js").stat().st_mtime_ns == chunk  # not copied again
    assert (kept / "src/main.ts").stat().st_mtime_ns != main
    assert not (kept / "dist/chunk1.js").exists() and not (kept / "src/extra.ts").exists()
    assert (kept / "src/shapes.ts").read_text() == FILES["src/shapes.ts"]
    after = {k: v for k, v in _tree(root).items() if k not in ("src/main.ts", "src/more.ts")}
    assert after == {k: v for k, v in before.items() if k not in ("src/main.ts", "dist/chunk1.js")}
    assert not any(os.stat(p).st_nlink > 1 for p in (kept / "src").iterdir())


def test_a_question_finding_the_kept_copy_taken_is_answered_on_a_fresh_one(tmp_path: Path) -> None:
    root, tsc = _project(tmp_path, TS7_PINNED)
    config, state = root / "tsconfig.json", tmp_path / "state"
    assert _said(root, checked_copy(tsc, root, config, {}, state))[1] == []
    kept = _kept(root, state)
    held = {root / "src/shapes.ts": "export const area = (r: number): string => r * r;\n"}
    with tsc_kept.taken(kept, root) as manifest:  # another question holds it
        assert manifest is not None
        with tsc_kept.taken(kept, root) as other:
            assert other is None
        said = _said(root, checked_copy(tsc, root, config, held, state))
        assert said[1] == [("src/main.ts", 2, "2322"), ("src/shapes.ts", 1, "2322")]
        assert (kept / "src/shapes.ts").read_text() == FILES["src/shapes.ts"]
    assert _said(root, checked_copy(tsc, root, config, {}, state))[1] == []
    assert sorted(p.name for p in state.iterdir()) == ["tsc-kept"]  # the fresh one removed


def test_a_copy_left_half_made_is_made_again(tmp_path: Path) -> None:
    root, tsc = _project(tmp_path, TS7_PINNED)
    config, state = root / "tsconfig.json", tmp_path / "state"
    held = {root / "src/shapes.ts": "export const area = (r: number): string => r * r;\n"}
    assert len(_said(root, checked_copy(tsc, root, config, held, state))[1]) == 2
    kept = _kept(root, state)
    kept.with_suffix(".json").unlink()  # as a question that died while changing it leaves it
    (kept / "src/stray.ts").write_text("export const s: number = 's';\n")
    assert _said(root, checked_copy(tsc, root, config, {}, state)) == (
        ["src/eq.ts", "src/main.ts", "src/shapes.ts"],
        [],
    )


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_the_kept_copy_s_build_state_is_kept_and_read_right_in_each_state(
    tmp_path: Path, version: str
) -> None:
    root, tsc = _project(tmp_path, version)
    config, state = root / "tsconfig.json", tmp_path / "states" / "kept"
    signature = {root / "src/shapes.ts": "export const area = (r: number): string => `${r}`;\n"}
    fixed = {**signature, root / "src/main.ts": FILES["src/main.ts"].replace("number", "string")}
    moved = {root / "src/eq.ts": None, root / "src/extra.ts": "export const x: number = 'x';\n"}
    every = ["src/eq.ts", "src/main.ts", "src/shapes.ts"]
    states: list[tuple[dict[Path, str | None], list[str], list[tuple[str, int, str]]]] = [
        ({}, every, []),
        # its importer's error comes from another file's declarations
        (signature, every, [("src/main.ts", 2, "2322")]),
        (fixed, every, []),
        (moved, ["src/extra.ts", "src/main.ts", "src/shapes.ts"], [("src/extra.ts", 1, "2322")]),
        (signature, every, [("src/main.ts", 2, "2322")]),
    ]
    for held, files, errors in states:
        assert _said(root, checked_copy(tsc, root, config, held, state)) == (files, errors)
        assert tsc_kept.build_info(_kept(root, state)).is_file()
    kept = _kept(root, state)
    kept.with_suffix(".json").unlink()  # made again: its build state with it
    (root / "src/shapes.ts").write_text("export const area = 1;\n")
    assert _said(root, checked_copy(tsc, root, config, {}, state))[1] == [
        ("src/main.ts", 2, "2349"),
    ]
    assert tsc_kept.swept(state.parent, now=10**12) == [kept]  # unused for years: removed
    assert not tsc_kept.build_info(kept).exists()
    assert not (root / "tsconfig.tsbuildinfo").exists()
