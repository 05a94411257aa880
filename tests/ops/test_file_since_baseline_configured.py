"""`diagnostics FILE --baseline HEAD` after an edit of the checker's configuration, no HEAD
result kept (one-shot): the file at HEAD's texts and configuration, by its checker on a copy
(`ops/file_since_baseline._configured`, `engine/configured.configured_how`), whatever the
change reaches. Before, the file was held at HEAD's texts under the disk's configuration, or
not asked again at all ("the change cannot reach it"): the errors the configuration makes
read as unchanged (0 new where tsc -p and the basedpyright CLI say them new). Real
TypeScript 7.0.2 and basedpyright, each's own runs the judge."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from lspd.ops.file_diagnostics import diagnostics
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.engine.test_configured import (
    B_NOW,
    PY_FILES,
    STRICT,
    TS_HEAD,
    TS_NOW,
    pyright_rows,
    ts_files,
    tsc_rows,
)
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_committed


def since_head(path: str) -> object:
    async def ask(ws: Workspace) -> object:
        return await diagnostics(ws, path, baseline="HEAD")

    return ask


def test_a_files_baseline_is_tsc_s_under_heads_tsconfig(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "p", ts_files(TS_HEAD), TS7_PINNED)
    before = tsc_rows(root)
    written(root, {"tsconfig.json": json.dumps(TS_NOW)})
    after = tsc_rows(root)
    assert after - before == Counter({("src/core.ts", 1, "6133"): 1})
    found = answer(root, since_head("src/core.ts")).changes  # type: ignore[attr-defined]
    assert [(d.path, d.line, d.code) for d in found.introduced] == [("src/core.ts", 1, "6133")]
    assert (found.fixed, found.unchanged) == ([], 0)
    assert "texts and configuration (tsconfig.json), by tsc on a copy" in found.scope


def test_a_files_baseline_is_basedpyright_s_under_heads_configuration(tmp_path: Path) -> None:
    root = committed(written(tmp_path / "p", PY_FILES))
    before = pyright_rows(root)
    written(root, {"pyrightconfig.json": STRICT, "pkg/b.py": B_NOW})
    after = pyright_rows(root)
    found = answer(root, since_head("pkg/a.py")).changes  # type: ignore[attr-defined]
    rows = Counter((d.path, d.line, d.code or "", d.severity) for d in found.introduced)
    assert rows == Counter({r: n for r, n in (after - before).items() if r[0] == "pkg/a.py"})
    fixed = Counter((d.path, d.line, d.code or "", d.severity) for d in found.fixed)
    assert fixed == Counter({r: n for r, n in (before - after).items() if r[0] == "pkg/a.py"})
    assert fixed and rows  # a warning made an error, the unreachable code's unsaid


def test_a_file_no_tsconfig_includes_keeps_its_errors_unchanged(tmp_path: Path) -> None:
    """A file in no program at HEAD nor now (a test the tsconfig leaves out): its errors
    are the server's under no tsconfig either way, not new (before: every one new)."""
    outside = {"scripts/x.ts": 'export const x: number = "s";\n'}
    root = typescript_committed(tmp_path / "p", {**ts_files(TS_HEAD), **outside}, TS_PINNED)
    written(root, {"tsconfig.json": json.dumps(TS_NOW)})
    assert ("scripts/x.ts", 1, "2322") not in tsc_rows(root)  # the gate leaves it out
    found = answer(root, since_head("scripts/x.ts")).changes  # type: ignore[attr-defined]
    assert (found.introduced, found.fixed, found.unchanged) == ([], [], 1)
