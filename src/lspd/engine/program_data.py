"""A baseline's TypeScript programs when a file they read that no server of lspd holds
differs from it (`revisions.program_data`: a JSON module imported under `resolveJsonModule`).

The servers hold source texts only: a JSON module's baseline text cannot be held for them,
so each TypeScript project of the gate is checked by its own `tsc -p` on a copy holding the
baseline's texts (`workspace/tsc_copy.py`: the project's TypeScript and JSON files, the held
texts written over them), TypeScript 5 and 7 alike, and its files' results are tsc's. Before,
such a file was no changed file at all: HEAD's result was made of the disk's JSON (an error
its edit made counted unchanged) and kept so (after the revert, a phantom fix).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar

from lspd.dirs import state_dir
from lspd.engine.overlaid_state import Texts
from lspd.engine.results import FileResult
from lspd.engine.revisions import program_data
from lspd.errors import LspdError
from lspd.lsp.positions import from_units, to_units
from lspd.lsp.text import split_lines
from lspd.servers.registry import node_executable
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope
from lspd.workspace.toolchain import find_typescript
from lspd.workspace.tsbuilder import Items
from lspd.workspace.tsc_copy import TscError, checked_copy

R = TypeVar("R", bound=FileResult)
R_co = TypeVar("R_co", bound=FileResult, covariant=True)


class Built(Protocol[R_co]):
    """How the caller makes results of tsc's items (`overlaid_state.Held.built`)."""

    def built(self, items: Mapping[Path, Items], texts: Texts) -> Mapping[Path, R_co]:
        """The items as results, their positions read in `texts` (the disk's for the rest)."""
        ...


class DataNotChecked(LspdError):
    """The project's tsc could not say what the baseline's texts make (it did not run)."""


def data_changed(ws: Workspace, texts: Mapping[Path, object]) -> list[Path]:
    """The files of `texts` a TypeScript program reads that no server holds (JSON modules)."""
    return sorted(p for p in texts if program_data(ws, p))


async def data_state(
    ws: Workspace, texts: Texts, gate: Collection[Path], held_by: Built[R]
) -> dict[Path, R]:
    """The results of the gate's TypeScript files in the state `texts` make (the baseline's
    texts of every changed file, the JSON modules among them), as each project's own
    `tsc -p` says them on a copy. Raises `DataNotChecked` where tsc could not say."""
    scope = await gate_scope(ws)
    found: dict[Path, R] = {}
    wanted = set(gate)
    for project in scope.projects:
        if project.language != "typescript" or project.config is None:
            continue
        if wanted.isdisjoint(project.files):
            continue  # none of the files asked: not run
        config = ws.resolve(project.config)
        package = find_typescript(config.parent, ws.root)
        if package is None:
            raise DataNotChecked(f"no node_modules/typescript for {project.config}")
        tsc = [node_executable(), str(package / "bin" / "tsc")]
        base = state_dir(ws.root)
        checked = await asyncio.to_thread(checked_copy, tsc, ws.root, config, texts, base)
        if checked is None:
            raise DataNotChecked(f"tsc -p {project.config} did not answer on a copy")
        errors: dict[Path, list[TscError]] = {}
        for error in checked.errors:
            errors.setdefault(error.file, []).append(error)
        items = {
            path: [_item(e, _lines(path, texts)) for e in errors.get(path, [])]
            for path in checked.files
            if path in wanted and path not in found
        }
        found.update(held_by.built(items, texts))
    return found


def _lines(path: Path, texts: Texts) -> list[str]:
    return split_lines((texts[path] if path in texts else read_text(path)) or "")


def _item(error: TscError, lines: list[str]) -> dict[str, Any]:
    """tsc's error as TypeScript's item (UTF-16 positions, as a builder's)."""
    points = []
    for line, column in ((error.line, error.column), (error.end_line, error.end_column)):
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        character = to_units(text, from_units(text, column - 1, "utf-16"), "utf-16")
        points.append({"line": line - 1, "character": character})
    return {
        "range": {"start": points[0], "end": points[1]},
        "severity": 1,
        "code": int(error.code),
        "source": "ts",
        "message": error.message,
    }
