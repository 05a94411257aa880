"""Which TypeScript builder checks a file: the project's own TypeScript's (`tsc --watch`'s
rules, `workspace/tsbuilder.py`), one per toolchain, for the tsconfig tsserver would pick.

The whole-workspace check (`ops/affected.py`) and a preview (`engine/overlaid.py`) ask it;
a TypeScript 7 project answers by its own `tsc --lsp`, file by file (`engine/native_reach.py`).
"""

from __future__ import annotations

from pathlib import Path

from lspd.workspace import Workspace
from lspd.workspace.tsbuilder import Builder


def tsconfig_of(ws: Workspace, path: Path) -> Path | None:
    """The tsconfig.json tsserver would pick for `path` first: the nearest one above it."""
    for directory in path.parents:
        candidate = directory / "tsconfig.json"
        if candidate.is_file():
            return candidate
        if directory == ws.root or not directory.is_relative_to(ws.root):
            return None
    return None


def builder_for(ws: Workspace, path: Path) -> tuple[Builder, Path] | None:
    """The builder and tsconfig that check `path`, when TypeScript's tsserver would answer
    it (a TypeScript 7 project answers by its own `tsc --lsp`, file by file)."""
    handler = ws.handler(path)
    config = tsconfig_of(ws, path)
    if handler is None or config is None:
        return None
    definition, toolchain = ws.pool.adapted(handler, ws.project_root(path, handler))
    if definition.diagnostics != "tsserver" or definition.unavailable or toolchain is None:
        return None  # answered file by file (a server that cannot run says so there)
    if not (toolchain.path / "lib" / "typescript.js").is_file():
        return None
    builder = ws.builders.get(toolchain.path)
    if builder is None:
        log_path = ws.log_dir / f"tsbuilder-{len(ws.builders)}.log"
        label = toolchain.label()
        builder = ws.builders[toolchain.path] = Builder(toolchain.path, log_path, label)
    return builder, config
