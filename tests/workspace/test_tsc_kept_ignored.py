"""tsc's kept copy holds what git ignores only where tsc reads it (`workspace/tsc_kept.py`):
a gitignored folder or file is a link to the repository's, one entry however many files it
holds (3000 build-output .js in dist/ were each copied by a copy's first question); a file
tsc reads at its real path through such a link (a package's built `dist/index.d.ts` reached
through node_modules, realpath'd into the repository) is copied and tsc asked again, and a
held text under one is written in a folder of the copy. Every answer is tsc -p's on the
disk in that state. Real TypeScript 7.0.2 and 5.4.5."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

from lspd.engine.program_runs import compiler_of
from lspd.workspace import Workspace, tsc_kept
from lspd.workspace.tsc_copy import checked_copy
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_package

STRICT = {"strict": True, "types": [], "noEmit": True}
FILES = {
    ".gitignore": "node_modules\ndist\nsrc/gen\n*.tsbuildinfo\n",
    "tsconfig.json": json.dumps({"compilerOptions": STRICT, "include": ["src"]}),
    "src/main.ts": "export const a: number = 1;\n",
    "src/gen/made.ts": "export const made: number = 'made';\n",  # ignored, in tsc's include
    "dist/chunk0.js": "export const c0 = 0;\n",
    "dist/chunk1.js": "export const c1 = 1;\n",
}


def _tsc(root: Path, version: str) -> list[str]:
    (root / "node_modules").mkdir(exist_ok=True)
    (root / "node_modules/typescript").symlink_to(typescript_package(version))
    tsc = compiler_of(Workspace(root, log_dir=root.parent / "logs"), root / "tsconfig.json")
    assert tsc is not None
    return tsc


Said = list[tuple[str, int, str]]  # (file from the configuration's folder, line, code)


def _on_disk(tsc: list[str], root: Path, config: Path, texts: Mapping[Path, str | None]) -> Said:
    """tsc -p's errors with `texts` written to the disk (then put back): (file, line, code)."""
    before = {p: p.read_text() if p.exists() else None for p in texts}
    try:
        for path, text in texts.items():
            path.unlink() if text is None else path.write_text(text)
        done = subprocess.run(
            [*tsc, "-p", str(config), "--pretty", "false"],
            capture_output=True,
            text=True,
            cwd=config.parent,
        )
    finally:
        for path, text in before.items():
            path.unlink(missing_ok=True) if text is None else path.write_text(text)
    said = []
    for line in done.stdout.splitlines():
        if "): error TS" in line:
            file, rest = line.split("(", 1)
            said.append((file, int(rest.split(",")[0]), rest.split("error TS")[1].split(":")[0]))
    return sorted(said)


def _in_copy(
    tsc: list[str], root: Path, config: Path, texts: Mapping[Path, str | None], state: Path
) -> Said:
    checked = checked_copy(tsc, root, config, texts, state)
    assert checked is not None
    at = config.parent
    return sorted((os.path.relpath(e.file, at), e.line, e.code) for e in checked.errors)


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_what_git_ignores_is_linked_and_each_answer_is_tsc_s(tmp_path: Path, version: str) -> None:
    root = committed(written(tmp_path / "p", FILES))
    tsc, config, state = _tsc(root, version), root / "tsconfig.json", tmp_path / "state"
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    said = _in_copy(tsc, root, config, {}, state)
    assert said == _on_disk(tsc, root, config, {}) == [("src/gen/made.ts", 1, "2322")]
    kept = tsc_kept.folder(state, root, config, root).resolve()
    assert (kept / "dist").is_symlink() and (kept / "src/gen").is_symlink()
    assert not (kept / "src").is_symlink() and (kept / "src/main.ts").is_file()
    # a held text importing an ignored .js (no allowJs: TS7016, strict), one editing an
    # ignored file (written in the copy, never through the link)
    held = {
        root / "src/main.ts": "import { c1 } from '../dist/chunk1.js';\nexport const a = c1;\n",
        root / "src/gen/made.ts": "export const made: string = 'made';\n",
    }
    assert _in_copy(tsc, root, config, held, state) == _on_disk(tsc, root, config, held)
    assert _on_disk(tsc, root, config, held) == [("src/main.ts", 1, "7016")]
    assert (kept / "src/gen/made.ts").is_file() and not (kept / "src/gen").is_symlink()
    assert _in_copy(tsc, root, config, {}, state) == [("src/gen/made.ts", 1, "2322")]
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before


USE = "import {{ size }} from '@demo/core';\nexport const s: {} = size;\n"
MONO = {
    ".gitignore": "node_modules\ndist\n",
    "packages/core/package.json": json.dumps(
        {"name": "@demo/core", "exports": {".": {"types": "./dist/index.d.ts"}}}
    ),
    # the built declaration app reads; an error of its own (no skipLibCheck)
    "packages/core/dist/index.d.ts": (
        "export declare const size: number;\nexport declare const b: Nope;\n"
    ),
    "packages/core/dist/index.js": "export const size = 1;\n",
    "packages/core/dist/other.d.ts": "export declare const other: number;\n",
    "packages/core/src/index.ts": "export const size: number = 1;\n",
    "packages/app/tsconfig.json": json.dumps(
        {
            "compilerOptions": {**STRICT, "module": "ESNext", "moduleResolution": "Bundler"},
            "include": ["src"],
        }
    ),
    "packages/app/src/use.ts": USE.format("number"),
}


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_built_declaration_read_through_node_modules_is_copied(
    tmp_path: Path, version: str
) -> None:
    root = committed(written(tmp_path / "m", MONO))
    (root / "node_modules/@demo").mkdir(parents=True)
    (root / "node_modules/@demo/core").symlink_to("../../packages/core")
    config = root / "packages/app/tsconfig.json"
    tsc = _tsc(root, version)
    state = tmp_path / "state"
    truth = [("../core/dist/index.d.ts", 2, "2304")]
    assert _on_disk(tsc, root, config, {}) == truth
    assert _in_copy(tsc, root, config, {}, state) == truth
    kept = tsc_kept.folder(state, root, config, root).resolve()
    assert (kept / "packages/core/dist/index.d.ts").is_file()
    assert not (kept / "packages/core/dist/index.d.ts").is_symlink()
    assert (kept / "packages/core/dist/other.d.ts").is_symlink()
    held = {root / "packages/app/src/use.ts": USE.format("string")}
    assert _in_copy(tsc, root, config, held, state) == _on_disk(tsc, root, config, held)
    assert len(_on_disk(tsc, root, config, held)) == 2
