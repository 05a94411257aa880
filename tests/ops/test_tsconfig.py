"""A tsconfig.json that TypeScript 7 rejects fails `lspd check` as it fails the project's
`tsc`: the same errors at the same places (its LSP reports none of them)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from lspd import ops
from lspd.ops import check as check_ops
from lspd.workspace import Workspace, tsc_native
from tests.conftest import answer, warm_root
from tests.workspace.toolchains import TS7_PINNED, gate, typescript_package

# Options TypeScript 7 removed: tsc 7 stops at them (TS5108, TS5102) before any file.
REJECTED = """\
{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "target": "es5",
    "moduleResolution": "node",
    "baseUrl": "."
  },
  "include": ["src"]
}
"""
GATE_LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): (.*)$", re.MULTILINE)


def rejected_project(root: Path) -> Path:
    """A TypeScript 7 project whose tsconfig.json holds options TypeScript 7 removed."""
    (root / "src").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"name": "app", "private": True}))
    (root / "tsconfig.json").write_text(REJECTED)
    (root / "src" / "main.ts").write_text("export const n: number = 1;\n")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    return root


def test_removed_options_fail_the_check_as_they_fail_tsc(tmp_path: Path) -> None:
    root = rejected_project(tmp_path / "app")
    code, output = gate(root)
    expected = [(p, int(line), int(col), c) for p, line, col, c, _ in GATE_LINE.findall(output)]
    assert code == 1 and [c for *_, c in expected] == ["5108", "5108", "5102"]

    async def run() -> ops.check_models.WorkspaceDiagnosticsResult:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            return await check_ops.workspace_diagnostics(ws)
        finally:
            await ws.close()

    result = asyncio.run(run())
    found = [(d.path, d.line, d.column, d.code) for d in result.diagnostics]
    assert found == expected
    assert result.errors == 3 and {d.severity for d in result.diagnostics} == {"error"}
    assert result.diagnostics[2].message == (
        "Option 'baseUrl' has been removed. Please remove it from your configuration.\n"
        'Use \'"paths": {"*": ["./*"]}\' instead.'
    )


def test_one_listing_says_the_configuration_and_the_syntax(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The configuration's errors are those of the program's listing the check reads its
    syntax from: one `tsc -p --listFilesOnly` per one-shot check, one at the daemon's first
    check and one after tsconfig.json's edit (two each before: ~2 CPU s on effect 4.1)."""
    root = rejected_project(tmp_path / "app")
    listings: list[str] = []
    run = subprocess.run

    def counted(argv: list[str], *rest: Any, **options: Any) -> Any:
        if "-p" in argv and "--listFilesOnly" in argv:
            listings.append(argv[argv.index("-p") + 1])
        return run(argv, *rest, **options)

    monkeypatch.setattr(tsc_native.subprocess, "run", counted)
    config = str(root / "tsconfig.json")

    def codes(result: ops.check_models.WorkspaceDiagnosticsResult) -> list[tuple[str, str]]:
        return [(d.path or "", d.code or "") for d in result.diagnostics]

    rejected = [("tsconfig.json", "5108"), ("tsconfig.json", "5108"), ("tsconfig.json", "5102")]
    assert codes(answer(root, check_ops.workspace_diagnostics)) == rejected
    assert listings == [config]

    listings.clear()
    with contextlib.contextmanager(warm_root)(root, tmp_path / "logs", True) as warm:
        assert codes(warm.run(check_ops.workspace_diagnostics(warm.ws))) == rejected
        assert listings == [config]
        accepted = json.loads(REJECTED.replace('"baseUrl": "."', '"paths": {}'))
        accepted["compilerOptions"].update(
            target="es2022", module="esnext", moduleResolution="bundler"
        )
        (root / "tsconfig.json").write_text(json.dumps(accepted))
        warm.run(warm.ws.refresh_open_documents(catch_up=True))
        assert codes(warm.run(check_ops.workspace_diagnostics(warm.ws))) == []
        assert listings == [config, config]
    assert gate(root) == (0, "")
