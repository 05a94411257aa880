"""One file's diagnostics against a baseline without a watcher (`lspd diagnostics FILE
--baseline HEAD`, no daemon): one question, so a TypeScript 7 program is listed once for it."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from lspd.ops.file_diagnostics import diagnostics
from lspd.workspace import Workspace
from tests.engine.test_native_check import listed, native_project


def test_a_one_shot_baseline_lists_a_typescript_7_program_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's check and HEAD's texts held were each listed anew (mobx's usage.ts: three
    `tsc -p --listFilesOnly`, 0.43-0.60 s each at load 8); once now, and once more for the
    next question (a file may have come)."""
    root = native_project(tmp_path / "ts7")
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "base"]):
        subprocess.run(["git", *author, *args], cwd=root, check=True, capture_output=True)
    (root / "src" / "leaf.ts").write_text("export const x: string = 1;\n")
    listings = listed(monkeypatch)

    async def introduced(ws: Workspace) -> list[tuple[int, str]]:
        result = await diagnostics(ws, "src/leaf.ts", baseline="HEAD")
        assert result.changes is not None
        return [(d.line, d.code or "") for d in result.changes.introduced]

    async def run() -> None:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            assert ws.changes_seen is None
            assert await introduced(ws) == [(1, "2322")]
            assert listings == [root / "tsconfig.json"]
            assert await introduced(ws) == [(1, "2322")]
            assert listings == [root / "tsconfig.json"] * 2
        finally:
            await ws.close()

    asyncio.run(run())
