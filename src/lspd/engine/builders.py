"""TypeScript's builders in the whole-workspace check: which one checks a file (the
project's own TypeScript's, `workspace/tsbuilder.py`, one per toolchain, for the tsconfig
tsserver would pick), and the check of their files (`typescript_checked`).

A builder re-checks a changed file, and the files importing it only when its declarations
changed (`tsc --watch`'s rule). Its results for the other files are the very lists of last
time, and the results made of them are reused as they are. A preview asks for the builders
too (`engine/overlaid.py`); a TypeScript 7 project answers by its own `tsc --lsp`, file by
file (`engine/native_check.py`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

from lspd.engine.check_files import Answers, Known, Said
from lspd.engine.stops import TSC, Stop, lsp_lines, stop_of
from lspd.lsp import shapes
from lspd.workspace import Workspace, question
from lspd.workspace.npm_installed import PACKAGE
from lspd.workspace.scope import solution_of
from lspd.workspace.tsbuilder import Builder
from lspd.workspace.tsc_native import ConfigError
from lspd.workspace.tsc_scripts import tsc_heap

R = TypeVar("R")


def tsconfig_of(
    ws: Workspace, path: Path, known: dict[Path, Path | None] | None = None
) -> Path | None:
    """The configuration of the program that checks `path`, as the gate's scope last read
    them (`solution_of`): the one that chose it where its nearest holds it not (`held`: a
    typeRoots declaration, a jsconfig.json's file beside a solution tsconfig.json), else
    the nearest tsconfig.json or jsconfig.json above it (a folder's tsconfig.json first:
    tsserver's order), or in a solution-style layout (it holds not the file, a config it
    references does: Vite's) that referenced config. A jsconfig.json is a program's
    configuration as a tsconfig.json is (tsc -p takes it, `allowJs` implied): before,
    site/page.js under site/jsconfig.json was taken for the root tsconfig's program, and
    HEAD's state kept its errors of the work tree's src/a.ts. `known`: the nearest
    configuration of each folder walked so far (by one caller asking of many files)."""
    solution = solution_of(ws)
    if (held := solution.held.get(path)) is not None:
        return held
    nearest = _nearest(ws, path.parent, {} if known is None else known)
    return None if nearest is None else solution.owners.get(path, nearest)


def _nearest(ws: Workspace, folder: Path, known: dict[Path, Path | None]) -> Path | None:
    """The tsconfig.json or jsconfig.json nearest above `folder` up to the root, each
    folder walked once per `known` (a whole check's: 8 stats per file of effect 4.1's
    src/, ~25 ms of a TypeScript 7 leaf edit's check)."""
    walked: list[Path] = []
    found: Path | None = None
    for directory in (folder, *folder.parents):
        if directory in known:
            found = known[directory]
            break
        walked.append(directory)
        if (candidate := directory / "tsconfig.json").is_file():
            found = candidate
            break
        if (candidate := directory / "jsconfig.json").is_file():
            found = candidate
            break
        if directory == ws.root or not directory.is_relative_to(ws.root):
            break
    known.update(dict.fromkeys(walked, found))
    return found


def builder_for(
    ws: Workspace, path: Path, known: dict[Path, Path | None] | None = None
) -> tuple[Builder, Path] | None:
    """The builder and tsconfig that check `path`, when TypeScript's tsserver would answer
    it (a TypeScript 7 project answers by its own `tsc --lsp`, file by file)."""
    handler = ws.handler(path)
    if handler is None or handler.language != "typescript":  # no walk up for a Python file
        return None  # (every file of a whole check is asked: 54-165 ms of a Python check)
    if (config := tsconfig_of(ws, path, known)) is None:
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
        heap = tsc_heap([ws.root / PACKAGE, config.parent / PACKAGE])  # the gate's tsc's
        builder = ws.builders[toolchain.path] = Builder(toolchain.path, log_path, label, heap)
    return builder, config


Progress = Callable[[int], None]  # files checked so far


def _grouped(
    ws: Workspace, matched: list[Path]
) -> tuple[dict[tuple[Path, Path], list[Path]], dict[Path, Builder], list[Path]]:
    """`matched`'s files by the builder (its package) and tsconfig that check them, the
    builders, and the files none checks. Looked up once per folder, kind of file and
    layout's program (the walk up for each of effect 4.1's 572 files: ~60 ms of a
    TypeScript 7 leaf edit's 0.2 s check, where no builder checks any)."""
    groups: dict[tuple[Path, Path], list[Path]] = {}
    builders: dict[Path, Builder] = {}
    rest: list[Path] = []
    solution = solution_of(ws)
    founds: dict[tuple[Path, str, Path | None, Path | None], tuple[Builder, Path] | None] = {}
    nearest: dict[Path, Path | None] = {}  # each folder's nearest configuration
    for path in matched:
        key = path.parent, path.suffix, solution.owners.get(path), solution.held.get(path)
        if key not in founds:
            founds[key] = builder_for(ws, path, nearest)
        if (found := founds[key]) is None:
            rest.append(path)
            continue
        builder, config = found
        builders[builder.package] = builder
        groups.setdefault((builder.package, config), []).append(path)
    return groups, builders, rest


async def typescript_checked(
    ws: Workspace,
    matched: list[Path],
    known: Known[R],
    answers: Answers[R],
    progress: Progress,
    stops: list[Stop] | None = None,
) -> tuple[list[R], list[Path], list[Path]]:
    """The results of the matched files a TypeScript builder checks, those of them it
    checked anew, and the files left for the servers to answer one by one (no tsconfig
    holds them, or no builder runs). A file whose list is last time's very list keeps its
    result in `known`; the others' are made by `answers` (positions in UTF-16). A program
    whose syntax errors stopped tsc is added to `stops`, and its JSON modules' errors
    (`resolveJsonModule`: no gate's file, tsc's answer all the same) are results too."""
    groups, builders, rest = _grouped(ws, matched)
    results: list[R] = []
    rebuilt: list[Path] = []
    data: set[Path] = set()  # JSON modules said
    done = 0
    for (package, config), paths in groups.items():
        builder = builders[package]
        seen = ws.changes_seen
        project = await builder.check(config, functools.partial(_moved, progress, done, len(paths)))
        project.seen = seen
        ws.follow(project.read, read=True)  # a linked package's git-ignored build
        handler = ws.definition_for(paths[0])
        definition, toolchain = ws.pool.adapted(handler, ws.project_root(paths[0], handler))
        said = Said(definition.name, None if toolchain is None else toolchain.label(), "utf-16")
        rebuilt += [p for p in paths if p in project.checked]
        if (project.stopped or project.configured) and stops is not None:
            stop = builder_stop(ws, project.stopped, project.items, project.items)
            stops.append(
                stop if project.stopped else options_stop(ws, project.configured, project.items)
            )
        for path in paths:
            if (items := project.items.get(path)) is None:
                rest.append(path)  # not in this tsconfig's program
                continue
            results.append(_result_of(path, items, said, known, answers))
        for path in _data_said(project.items, {*matched, *data}, project.library):
            data.add(path)
            results.append(_result_of(path, project.items[path], said, known, answers))
        done += len(paths)
        progress(done)
    return results, rebuilt, rest


def listed(ws: Workspace, config: Path) -> list[ConfigError] | None:
    """What `tsc -p config --listFilesOnly` says of its program's JSON files (its
    configuration's errors), from the builder's check of `config` made at the disk's state
    now (watched: no change seen since it began; else within the running question): None
    when there is none (then tsc is asked). A program that emits: the builder's options'
    errors and tsc's checks of where it writes (TS5055, TS5056), which its noEmit leaves out,
    from a program of the tsconfig's own options (`tsbuilder_config.optionsErrors`)."""
    now, began = ws.changes_seen, question.began()
    for builder in ws.builders.values():
        project = builder.projects.get(config)
        if project is None or project.listed is None:
            continue
        if now is None and (began is None or project.began < began):
            continue
        if now is None or project.seen == now:
            return project.listed
    return None


def _result_of(path: Path, items: list[Any], said: Said, known: Known[R], answers: Answers[R]) -> R:
    """`path`'s result of the builder's `items`: last time's while they are its very list."""
    last = known.get(path)
    if last is not None and last[0] is items:
        return last[1]
    result = answers.of_items(said, path, cast(list[shapes.Diagnostic], items))
    known[path] = (items, result)
    return result


def _data_said(
    items: Mapping[Path, list[Any]], said: Collection[Path], library: Collection[Path]
) -> list[Path]:
    """The JSON modules of a program (`resolveJsonModule`) with errors, wherever they are
    (`tsc -p`: `defaults.json(2,1): error TS1005`, its answer alone), and its `library` files
    with errors (a package's .d.ts: tsc -p's TS2416), not `said` already: no server's files,
    so no gate's."""
    other = [p for p, found in items.items() if found and (p.suffix == ".json" or p in library)]
    return [p for p in other if p not in said]


def library_file(ws: Workspace, path: Path) -> bool:
    """Whether a program's file is a library's (a package's .d.ts, one outside the root): no
    gate's file, its errors tsc -p's all the same (skipLibCheck off), so a baseline's too."""
    if path.suffix == ".json":
        return False
    return not path.is_relative_to(ws.root) or "node_modules" in path.relative_to(ws.root).parts


def builder_stop(
    ws: Workspace, stopped: list[Path], items: Mapping[Path, list[Any]], files: Iterable[Path]
) -> Stop:
    """tsc's stop at the syntax errors of `stopped` (their `items`), in a program of `files`."""
    at = [(ws.display(p), line) for p in stopped for line in lsp_lines(items.get(p, []))]
    return stop_of(TSC, at, map(ws.display, files))


def options_stop(
    ws: Workspace, configured: Iterable[tuple[Path, int]], files: Iterable[Path]
) -> Stop:
    """tsc's stop at a program's options errors (`configured`: where they are; TS5110, TS6053
    of a `files` entry, TS2688, ...: `engine/config_stops.py`): none of its `files` was
    checked, and no syntax error read (`read` empty)."""
    at = sorted({(ws.display(path), line) for path, line in configured})
    return Stop(TSC, tuple(at), frozenset(map(ws.display, files)), frozenset())


def _moved(progress: Progress, start: int, count: int, checked: int) -> None:
    progress(start + min(checked, count))
