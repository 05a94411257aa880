"""What an edit can affect: the whole-workspace check asks again only about that.

TypeScript: the files of each tsconfig are checked by the project's own TypeScript builder
(`workspace/tsbuilder.py`), which re-checks a changed file, and the files importing it only
when its declarations changed (`tsc --watch`'s rule). Its results for the other files are
the very lists of last time, and the results made of them here are reused as they are.

Python: the server (basedpyright) re-checks every file importing an edited module, even
when only a function's body changed. When every file changed since the last check is a
Python file the check asks about and its declarations are as they were
(`ops/declarations.py`), only the changed files are asked again; the others' results are
reused. Any other change (a file added, removed, a configuration, a declaration) asks
every file, and the server answers "unchanged" for those it did not re-check.
"""

from __future__ import annotations

import functools
import stat
from collections.abc import Callable
from pathlib import Path
from typing import cast

from lspd.lsp import shapes
from lspd.ops.check_memory import CheckMemory, PythonSeen
from lspd.ops.convert import Converter, convert_items
from lspd.ops.declarations import signature
from lspd.ops.file_diagnostics import Known, make_result
from lspd.ops.models import DiagnosticsResult
from lspd.ops.python_imports import imports, module_parts, touched
from lspd.workspace import Workspace
from lspd.workspace.tsbuilder import Builder

Progress = Callable[[int], None]  # files checked so far


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


PYTHON = (".py", ".pyi")


def python_unaffected(
    ws: Workspace,
    matched: list[Path],
    rest: list[Path],
    changes: int | None,
    memory: CheckMemory,
) -> tuple[list[DiagnosticsResult], list[Path]]:
    """Of `rest` (the files answered one by one), the results no edit since the last check
    can have changed (reused), and the files to ask."""
    seen, memory.python, known = memory.python, None, memory.known
    if changes is None:  # without a watcher nothing says what changed
        return [], rest
    asked = set(rest)
    changed = {p for p, n in ws.changed_at.items() if seen is not None and n > seen.changes}
    skip = (
        seen is not None
        and bool(changed)
        and changed - asked <= set(matched)  # other changes: a builder's files only
        and all(p in known for p in asked - changed)
        and all(_unseen(ws.root, p, seen.texts) for p in changed & asked)
    )
    last = {} if seen is None else seen.texts
    texts = {
        p: t
        for p in rest
        if p.suffix in PYTHON
        and (t := last[p] if p in last and p not in changed else _read(p)) is not None
    }
    memory.python = PythonSeen(changes, texts)
    if not skip:
        return [], rest
    return [known[p][1] for p in rest if p not in changed], [p for p in rest if p in changed]


def _unseen(root: Path, path: Path, texts: dict[Path, str]) -> bool:
    """Whether no other file can see a change of `path`: none names its module (a leaf),
    or its declarations are as they were."""
    old, new = texts.get(path), _read(path)
    if path.suffix not in PYTHON or old is None or new is None:
        return False
    if old == new or (signature(old) or "\0") == signature(new):
        return True
    module, shortest = module_parts(root, path)  # no other file's imports name it
    return not any(
        imports(touched(root, other, text), module, shortest)
        for other, text in texts.items()
        if other != path
    )


def _read(path: Path) -> str | None:
    """The file's text; None when it is no regular file (reading a FIFO blocks the daemon's
    loop for good), unreadable or not UTF-8."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return None
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
