"""What an edit can affect: the whole-workspace check asks again only about that.

TypeScript: the files of each tsconfig are checked by the project's own TypeScript builder
(`workspace/tsbuilder.py`), which re-checks a changed file, and the files importing it only
when its declarations changed (`tsc --watch`'s rule). Its results for the other files are
the very lists of last time, and the results made of them here are reused as they are.

Python: `engine/python_affected.py`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import cast

from lspd.engine.builders import builder_for
from lspd.lsp import shapes
from lspd.ops.convert import Converter, convert_items
from lspd.ops.file_diagnostics import Known, make_result
from lspd.ops.models import DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.tsbuilder import Builder

Progress = Callable[[int], None]  # files checked so far


async def typescript_checked(
    ws: Workspace, matched: list[Path], known: Known, progress: Progress
) -> tuple[list[DiagnosticsResult], list[Path], list[Path]]:
    """The results of the matched files a TypeScript builder checks, those of them it
    checked anew, and the files left for the servers to answer one by one (no tsconfig
    holds them, or no builder runs)."""
    groups: dict[tuple[Path, Path], list[Path]] = {}
    builders: dict[Path, Builder] = {}
    rest: list[Path] = []
    for path in matched:
        found = builder_for(ws, path)
        if found is None:
            rest.append(path)
            continue
        builder, config = found
        builders[builder.package] = builder
        groups.setdefault((builder.package, config), []).append(path)
    results: list[DiagnosticsResult] = []
    rebuilt: list[Path] = []
    done = 0
    for (package, config), paths in groups.items():
        builder = builders[package]
        project = await builder.check(config, functools.partial(_moved, progress, done, len(paths)))
        handler = ws.definition_for(paths[0])
        definition, toolchain = ws.pool.adapted(handler, ws.project_root(paths[0], handler))
        label = None if toolchain is None else toolchain.label()
        convert = Converter(ws, "utf-16")
        rebuilt += [p for p in paths if p in project.checked]
        for path in paths:
            items = project.items.get(path)
            if items is None:
                rest.append(path)  # not in this tsconfig's program
                continue
            last = known.get(path)
            if last is not None and last[0] is items:
                results.append(last[1])
                continue
            diagnostics = convert_items(convert, path, cast(list[shapes.Diagnostic], items))
            result = make_result(ws, path, definition.name, label, diagnostics)
            known[path] = (items, result)
            results.append(result)
        done += len(paths)
        progress(done)
    return results, rebuilt, rest


def _moved(progress: Progress, start: int, count: int, checked: int) -> None:
    progress(start + min(checked, count))
