"""A baseline's TypeScript programs when a file they read that no server of lspd holds
differs from it (`revisions.program_data`: a JSON module imported under `resolveJsonModule`).

The servers hold source texts only: a JSON module's baseline text cannot be held for them,
so each TypeScript project of the gate is checked by its own `tsc -p` on a copy holding the
baseline's texts (`workspace/tsc_copy.py`: the project's TypeScript and JSON files, the held
texts written over them), TypeScript 5 and 7 alike, and its files' results are tsc's. Before,
such a file was no changed file at all: HEAD's result was made of the disk's JSON (an error
its edit made counted unchanged) and kept so (after the revert, a phantom fix).

Which JSON files count (`data_read`) is each program's own list where it is at hand: a
TypeScript 7 program's listing (`native_program.read_data`, `tsc -p --listFilesOnly` lists
its JSON modules), a TypeScript 5 builder's program files (its last check's). A package.json
no program imports then differs as no source does (no tsc -p on a copy for it: seconds to a
minute on a big project). Where neither is at hand (a one-shot question whose TypeScript 5
builder did not run), the JSON modules the gate's reading of the tsconfig resolved count
(`ProjectScope.data`: `tsconfig_files.js` resolves its files' imports as the compiler does,
the question reads it anyway); every such JSON under a tsconfig.json counted before, and
package.json ran tsc -p on a copy.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from lspd.dirs import state_dir
from lspd.engine.builders import builder_for, builder_stop
from lspd.engine.check_files import Said
from lspd.engine.config_stops import copy_stop
from lspd.engine.native_check import tsc_item
from lspd.engine.native_program import compiler, program_state, read_data
from lspd.engine.native_reach import native
from lspd.engine.overlaid_state import Texts
from lspd.engine.results import FileResult
from lspd.engine.revisions import Delta, program_data
from lspd.engine.stops import TSC, Stop, stop_of, syntax_code
from lspd.errors import LspdError
from lspd.lsp import shapes
from lspd.lsp.positions import from_units, to_units
from lspd.lsp.text import split_lines
from lspd.servers.registry import node_executable
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope
from lspd.workspace.tsbuilder import Items
from lspd.workspace.tsc_copy import TscError, checked_copy
from lspd.workspace.tsc_native import listed, tsc_script
from lspd.workspace.typescript_package import find_typescript

R = TypeVar("R", bound=FileResult)
Answered = tuple[Said, list[shapes.Diagnostic]]  # who said a file's items, and the items
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


async def data_read(ws: Workspace, paths: Iterable[Path]) -> list[Path]:
    """The files of `paths` a TypeScript program of the gate reads that no server holds:
    those its program lists where every TypeScript program's files are at hand, else all
    that may be (`revisions.program_data`)."""
    maybe = sorted(p for p in paths if program_data(ws, p))
    if not maybe:
        return []
    read: set[Path] = set()
    for project in (await gate_scope(ws)).projects:
        if project.language != "typescript" or project.config is None:
            continue
        read.update(_program_files(ws, ws.resolve(project.config), project.data))
    return [p for p in maybe if p in read]


async def data_delta(ws: Workspace, delta: Delta) -> Delta:
    """`delta` without the JSON files no TypeScript program reads (`data_read`)."""
    maybe = [p for p in {*delta.before, *delta.after} if program_data(ws, p)]
    dropped = set(maybe) - set(await data_read(ws, maybe)) if maybe else set()
    if not dropped:
        return delta
    before = {p: t for p, t in delta.before.items() if p not in dropped}
    return Delta(before, {p: t for p, t in delta.after.items() if p not in dropped})


async def data_file(ws: Workspace, path: Path, stops: list[Stop]) -> Answered | None:
    """A JSON module's answer as its program's tsc says it (`diagnostics FILE` of no
    server's file): its errors (`defaults.json(2,1): error TS1005`, unclosed, tsc's answer
    alone) and who said them, the program's stop added to `stops`; None where `path` is no
    JSON module a TypeScript program of the gate lists (a TypeScript 7 program's listing, a
    TypeScript 5 builder's last check of it, else the tsconfig reading's resolved imports)."""
    if not program_data(ws, path):
        return None
    for project in (await gate_scope(ws)).projects:
        if project.language != "typescript" or project.config is None or not project.files:
            continue
        config, source = ws.resolve(project.config), project.files[0]
        if path not in _program_files(ws, config, project.data):
            continue
        if (found := builder_for(ws, source)) is not None:  # TypeScript 5: its builder
            checked = await found[0].check(config)
            if checked.stopped:
                stops.append(builder_stop(ws, checked.stopped, checked.items, checked.items))
            handler = ws.definition_for(source)
            definition, toolchain = ws.pool.adapted(handler, ws.project_root(source, handler))
            label = None if toolchain is None else toolchain.label()
            said = Said(definition.name, label, "utf-16")
            return said, cast(list[shapes.Diagnostic], checked.items.get(path, []))
        if (session := native(ws, source)) is not None and (tsc := compiler(session)):
            state = await program_state(ws, tsc, config)
            if state.broken:
                at = [(ws.display(f), e.line) for f, found in state.broken.items() for e in found]
                stops.append(stop_of(TSC, at, map(ws.display, state.files)))
            return Said.by(session), [tsc_item({}, e) for e in state.broken.get(path, ())]
    return None


def _program_files(ws: Workspace, config: Path, resolved: Collection[Path]) -> Collection[Path]:
    """The files of `config`'s program, where a run already made says them: TypeScript 7's
    kept listing, or a TypeScript 5 builder's last check of it (its files' items); else the
    JSON modules the gate's reading of the tsconfig resolved (`resolved`: the scope's
    `data`, from the imports its files' scanner lists, as the compiler resolves them)."""
    if (data := read_data(ws, config)) is not None:
        return data
    for builder in ws.builders.values():
        if (project := builder.projects.get(config)) is not None:
            return project.items.keys()
    return resolved


async def data_state(
    ws: Workspace,
    texts: Texts,
    gate: Collection[Path],
    held_by: Built[R],
    stops: list[Stop] | None = None,
) -> dict[Path, R]:
    """The results of the gate's TypeScript files in the state `texts` make (the baseline's
    texts of every changed file, the JSON modules among them), as each project's own
    `tsc -p` says them on a copy, and of the program's JSON modules held or with errors
    (no gate's files: a JSON module unclosed is tsc's answer alone). A program whose JSON
    module's syntax error stopped tsc is added to `stops`, and a stop already there at JSON
    modules of a program checked so is dropped (`_stale`). Raises `DataNotChecked` where
    tsc could not say."""
    scope = await gate_scope(ws)
    found: dict[Path, R] = {}
    wanted = set(gate)
    given = {id(s) for s in stops or ()}  # the servers' runs' stops: the disk's JSON texts
    for project in scope.projects:
        if project.language != "typescript" or project.config is None:
            continue
        config = ws.resolve(project.config)
        if wanted.isdisjoint(project.files) and not _reads(ws, config, project.data, wanted):
            continue  # none of the files asked: not run
        package = find_typescript(config.parent, ws.root)
        if package is None:
            raise DataNotChecked(f"no node_modules/typescript for {project.config}")
        tsc = [node_executable(), str(tsc_script(package))]
        base = state_dir(ws.root)
        checked = await asyncio.to_thread(checked_copy, tsc, ws.root, config, texts, base, True)
        if checked is None:
            raise DataNotChecked(f"tsc -p {project.config} did not answer on a copy")
        errors: dict[Path, list[TscError]] = {}
        for error in checked.errors:
            errors.setdefault(error.file, []).append(error)
        answered = [p for p in checked.files if p in wanted or _data(ws, p, texts, errors)]
        items = {
            path: [_item(e, _lines(path, texts)) for e in errors.get(path, [])]
            for path in answered
            if path not in found
        }
        items.update(_config_items(checked.configs, texts, found))
        found.update(held_by.built(items, texts))
        if stops is None:
            continue
        stops[:] = [s for s in stops if id(s) not in given or not _stale(ws, s, checked.files)]
        parsed = await asyncio.to_thread(_parsed, tsc, errors, texts)
        stop = _data_stop(ws, checked.files, errors, parsed)
        if stop is not None and all((s.checker, s.at) != (TSC, stop.at) for s in stops):
            stops.append(stop)  # once: a builder's run held the same texts (`preview`)
        if (stop := copy_stop(ws, checked.files, checked.configs)) is not None:
            stops.append(stop)  # tsc said none of its files' semantic errors
    return found


def _stale(ws: Workspace, stop: Stop, files: Collection[Path]) -> bool:
    """Whether `stop` is tsc's at JSON modules of a program (`files`) its run on a copy has
    just said in the state asked: the servers' runs read those JSON files as the disk has
    them (no server holds their text), so a preview closing an unclosed defaults.json was
    said stopped there (a TypeScript 5 builder's stop, TypeScript 7's `native_held`)."""
    listed = {ws.display(p) for p in files if p.suffix == ".json"}
    return stop.checker == TSC and bool(stop.at) and all(p in listed for p, _ in stop.at)


async def configs_then(
    ws: Workspace, texts: Texts, configs: Collection[Path]
) -> list[TscError] | None:
    """The configuration errors each program of `configs` says in the state `texts` make
    (their texts there held), as its own `tsc -p` on a copy says them (`tsc_copy.Checked.
    configs`: its options', its parsing's; one said without a place at the tsconfig's first
    line), each once; None where one could not say (it did not run)."""
    base = state_dir(ws.root)
    found: list[TscError] = []
    for config in configs:
        package = find_typescript(config.parent, ws.root)
        if package is None:
            return None
        tsc = [node_executable(), str(tsc_script(package))]
        checked = await asyncio.to_thread(checked_copy, tsc, ws.root, config, texts, base, True)
        if checked is None:
            return None
        found += (e for e in checked.configs if e not in found)
    return found


async def data_then(
    ws: Workspace,
    texts: Texts,
    data: Collection[Path],
    gate: Collection[Path],
    held_by: Built[R],
    stops: list[Stop],
) -> tuple[dict[Path, R], list[Stop]]:
    """A committed state's results where JSON modules (`data`) changed since (`data_state`
    with its `texts`, theirs among them), and its stops: the work tree's `stops` but those at
    a changed JSON module, and tsc's there. Before, an unclosed defaults.json's stop was
    kept as HEAD's, so use.ts's TS2322 its next edit made read as unchecked at HEAD (0 new
    where tsc -p says it new). Raises `DataNotChecked` where tsc could not say."""
    then: list[Stop] = []
    found = await data_state(ws, texts, gate, held_by, then)
    changed = {ws.display(p) for p in data}
    said = {(s.checker, s.at) for s in then}  # a syntax stop the copy's tsc said too: once
    kept = [s for s in stops if changed.isdisjoint(p for p, _ in s.at)]
    return found, [s for s in kept if (s.checker, s.at) not in said] + then


def _reads(ws: Workspace, config: Path, resolved: Collection[Path], paths: set[Path]) -> bool:
    """Whether `config`'s program reads a JSON module of `paths` (`diagnostics FILE` of one)."""
    data = [p for p in paths if p.suffix == ".json"]
    return bool(data) and not set(_program_files(ws, config, resolved)).isdisjoint(data)


def _data(ws: Workspace, path: Path, texts: Texts, errors: Mapping[Path, object]) -> bool:
    """Whether `path` is a JSON module of the project held at other `texts` or with errors:
    its result is tsc's in that state (the disk's check's said it in another)."""
    if path.suffix != ".json" or "node_modules" in path.relative_to(ws.root).parts:
        return False
    return path in texts or path in errors


def _data_stop(
    ws: Workspace,
    files: Collection[Path],
    errors: Mapping[Path, list[TscError]],
    parsed: Iterable[tuple[Path, int]] = (),
) -> Stop | None:
    """tsc's stop at its program's JSON modules' errors (a JSON module's are its parser's
    alone: tsc said the program's syntax errors and nothing else) and at its source files'
    syntax errors (`parsed`); None without any."""
    at = [
        (ws.display(p), e.line) for p, found in errors.items() if p.suffix == ".json" for e in found
    ]
    at += [(ws.display(p), line) for p, line in parsed]
    return stop_of(TSC, at, map(ws.display, files)) if at else None


def _parsed(
    tsc: list[str], errors: Mapping[Path, list[TscError]], texts: Texts
) -> list[tuple[Path, int]]:
    """Where tsc stopped at its program's source files' syntax errors on a copy: every error
    it said there of its parser's codes, confirmed by its parser (each file alone, nothing
    resolved: a checker's grammar error of those codes is none). Before, a state made on a
    copy (a commit's under its own tsconfig, a turn's start before a tsconfig edit) held
    the syntax errors and no stop, so what they hide counted as checked."""
    said = [e for path, found in errors.items() if path.suffix != ".json" for e in found]
    if not said or not all(syntax_code(TSC, e.code) for e in said):
        return []  # none, or tsc went on to the checker's errors: no stop
    # TypeScript 5 and 7 alike (`tsc_native.parsed_errors`' `--types ""` is 7's alone)
    with tempfile.TemporaryDirectory(prefix="lspd-parse-") as directory:
        names = {}
        for index, path in enumerate(sorted({e.file for e in said})):
            text = texts[path] if path in texts else read_text(path)
            alone = Path(directory, str(index), path.name)
            alone.parent.mkdir()
            alone.write_text(text or "", encoding="utf-8")
            names[alone.resolve()] = path
        options = {"noResolve": True, "noLib": True, "types": [], "allowJs": True, "noEmit": True}
        config = Path(directory, "tsconfig.json")
        config.write_text(json.dumps({"compilerOptions": options, "files": [*map(str, names)]}))
        found = listed(tsc, config)[1]
    return [(names[e.file], e.line) for e in found if e.file in names]


def _config_items(
    said: Collection[TscError], texts: Texts, found: Mapping[Path, object]
) -> dict[Path, list[dict[str, Any]]]:
    """tsc's errors of the program's configurations (`Checked.configs`: a tsconfig's options,
    a `types` entry not found) as items of their files, their messages' chains as `tsc -p
    --listFilesOnly` says them (`ops/tsconfig.py` the disk's): an error of a configuration
    another program's run said already (an `extends` shared) once."""
    items: dict[Path, list[dict[str, Any]]] = {}
    for error in said:
        if error.file in found:
            continue
        message = "\n".join(line.strip() for line in error.message.split("\n"))
        at = replace(error, end_line=error.line, end_column=error.column)  # as the disk's
        item = _item(replace(at, message=message), _lines(error.file, texts))
        if item not in (made := items.setdefault(error.file, [])):
            made.append(item)
    return items


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
