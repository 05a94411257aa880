"""A project on TypeScript 7 runs its own native `tsc --lsp`, answers as its `tsc -p`, and
one whose TypeScript 7 cannot run here is told what to install, never given another."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path

import pytest

from lspd import ops
from lspd.errors import ServerNotInstalled
from lspd.ops import file_diagnostics, navigation, state
from lspd.workspace import Workspace
from lspd.workspace.toolchain import Choice
from lspd.workspace.tsc_native import locate, platform_package
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, gate, typescript_package

TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "noUnusedLocals": True,
        "noUnusedParameters": True,
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
    },
    "include": ["src"],
}
# Unused declarations are errors under noUnusedLocals/noUnusedParameters, as tsc counts them.
UNUSED = """\
import { helper } from "./helper";
type Unused = { a: number };
export function f(x: number, y: string): number {
  const z = 3;
  return x;
}
export const n: number = "s";
"""
# TypeScript >= 5.5 infers the filter's type predicate: 5.4.5 reports TS2322, 7 does not.
FILTER = """\
const xs = [1, "a", 2].filter((x) => typeof x === "number");
export const ns: number[] = xs;
"""
GATE_LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)


def _project(root: Path, typescript: str | Path, **files: str) -> Path:
    """A package at `root` holding `files` under src/, its node_modules/typescript linked to
    the pinned `typescript` (a version), as pnpm links it, or a copy of a package (a Path)."""
    (root / "src").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"name": root.name, "private": True}))
    (root / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    for name, text in files.items():
        (root / "src" / f"{name}.ts").write_text(text)
    (root / "node_modules").mkdir()
    if isinstance(typescript, Path):
        shutil.copytree(typescript, root / "node_modules" / "typescript")
    else:
        (root / "node_modules" / "typescript").symlink_to(typescript_package(typescript))
    return root


def _errors(output: str) -> set[tuple[str, int, int, str]]:
    return {(p, int(line), int(col), code) for p, line, col, code in GATE_LINE.findall(output)}


def _cmdline(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


def test_the_projects_typescript_7_runs_its_own_native_tsc(tmp_path: Path) -> None:
    root = _project(tmp_path / "app", TS7_PINNED, main=UNUSED, helper="export const helper = 1;\n")
    code, output = gate(root)
    expected = _errors(output)
    assert code == 1 and {c for *_, c in expected} == {"6133", "6196", "2322"}

    async def run() -> tuple[ops.models.DiagnosticsResult, list[str]]:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            result = await file_diagnostics.diagnostics(ws, "src/main.ts")
            (session,) = ws.sessions.values()
            assert session.pid is not None
            return result, _cmdline(session.pid)
        finally:
            await ws.close()

    result, cmdline = asyncio.run(run())
    assert result.server == "typescript-native"
    assert result.toolchain == f"typescript {TS7_PINNED}, project"
    native = typescript_package(TS7_PINNED).parent / platform_package() / "lib" / "tsc"
    assert cmdline == [str(native), "--lsp", "--stdio"]  # no Node wrapper, not lspd's copy
    # The same errors as tsc, all of them errors: no style check demoted to a warning.
    found = {("src/main.ts", d.line, d.column, d.code or "") for d in result.diagnostics}
    assert found == expected
    assert {d.severity for d in result.diagnostics} == {"error"}
    assert result.errors == len(expected) == 5


def test_a_monorepo_on_typescript_5_and_7_runs_both(tmp_path: Path) -> None:
    root = tmp_path / "mono"
    old = _project(root / "packages" / "old", TS_PINNED, main=FILTER)
    new = _project(root / "packages" / "new", TS7_PINNED, main=FILTER)
    assert _errors(gate(old)[1]) == {("src/main.ts", 2, 14, "2322")}
    assert _errors(gate(new)[1]) == set()

    async def run() -> tuple[list[ops.models.DiagnosticsResult], ops.models.StatusResult]:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            answers = [
                await file_diagnostics.diagnostics(ws, "packages/old/src/main.ts"),
                await file_diagnostics.diagnostics(ws, "packages/new/src/main.ts"),
            ]
            return answers, state.status(ws)
        finally:
            await ws.close()

    (on_5, on_7), status = asyncio.run(run())
    assert (on_5.server, on_5.toolchain, on_5.errors) == (
        "typescript-language-server",
        f"typescript {TS_PINNED}, project",
        1,
    )
    assert (on_7.server, on_7.toolchain, on_7.errors) == (
        "typescript-native",
        f"typescript {TS7_PINNED}, project",
        0,
    )
    shown = {(s.server, s.project, s.toolchain) for s in status.servers}
    assert shown == {
        ("typescript-language-server", "packages/old", f"typescript {TS_PINNED}, project"),
        ("typescript-native", "packages/new", f"typescript {TS7_PINNED}, project"),
    }


def test_choosing_typescript_native_keeps_a_typescript_5_project_on_its_own(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path / "app", TS_PINNED, main=FILTER)
    (root / "lspd.toml").write_text('[languages.typescript]\nserver = "typescript-native"\n')

    async def run() -> ops.models.DiagnosticsResult:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            return await file_diagnostics.diagnostics(ws, "src/main.ts")
        finally:
            await ws.close()

    result = asyncio.run(run())
    assert (result.server, result.toolchain) == (
        "typescript-language-server",
        f"typescript {TS_PINNED}, project",
    )
    assert [(d.line, d.code) for d in result.diagnostics] == [(2, "2322")]  # as its tsc


def test_typescript_7_without_its_platform_package_says_what_to_install(tmp_path: Path) -> None:
    """npm installs the native compiler as an optional dependency: a lockfile made on
    another machine, or `--no-optional`, leaves it out. lspd runs no other TypeScript."""
    root = _project(tmp_path / "app", typescript_package(TS7_PINNED), main=FILTER)
    needed = platform_package()
    why = (
        f"typescript {TS7_PINNED}, project, cannot run here: its native compiler for this "
        f"machine, {needed}, is not installed; npm install (or your package manager's "
        f"install) in {root}, which installs {needed}@{TS7_PINNED} for this machine"
    )

    async def run() -> tuple[str, ops.models.StatusResult]:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            with pytest.raises(ServerNotInstalled) as raised:
                await file_diagnostics.diagnostics(ws, "src/main.ts")
            with pytest.raises(ServerNotInstalled):
                await navigation.hover(ws, "src/main.ts", 2, 14)
            return str(raised.value), state.status(ws)
        finally:
            await ws.close()

    message, status = asyncio.run(run())
    package = root / "node_modules" / "typescript"
    assert message == (
        f"language server typescript-native is not available (the project's typescript "
        f"{TS7_PINNED} ({package}) cannot run here: its native compiler for this machine, "
        f"{needed}, is not installed); install it with: npm install (or your package "
        f"manager's install) in {root}, which installs {needed}@{TS7_PINNED} for this machine"
    )
    [server] = status.servers  # never a second TypeScript answering in its place
    assert (server.server, server.state, server.pid, server.toolchain) == (
        "typescript-native",
        "stopped",
        None,
        why,
    )
    listed = state.servers(root=root, choice=Choice())
    [selected] = [s for s in listed.servers if s.language == "typescript" and s.selected]
    assert selected.toolchain == why.replace(", cannot", ", by typescript-native, cannot")


def test_a_platform_package_without_its_binary_is_a_broken_install(tmp_path: Path) -> None:
    package = _project(tmp_path / "app", typescript_package(TS7_PINNED)) / "node_modules"
    shipped = typescript_package(TS7_PINNED).parent / platform_package()
    (package / platform_package()).mkdir(parents=True)
    shutil.copy(shipped / "package.json", package / platform_package() / "package.json")
    found = locate(package / "typescript", TS7_PINNED)
    assert found.executable is None
    assert found.problem == (
        f"{platform_package()} ({package / platform_package()}) has no executable lib/tsc: "
        "a broken install"
    )
    assert found.fix == (
        f"reinstall it: npm install --no-save {platform_package()}@{TS7_PINNED} "
        f"in {tmp_path / 'app'}"
    )
