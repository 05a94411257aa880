"""The files of a TypeScript solution-style layout that more than one of its programs holds,
checked in each, as `tsc -b` checks them.

Vite's layout (`tsconfig.json` `{"files": [], "references": [app, node]}`) builds each
referenced project with its own options: a file both include (tsconfig.node.json's include
naming app/shapes.ts) is checked twice, once per program, and `tsc -b` prints each program's
errors of it (a `document` use is nothing in the app's program, lib DOM, and TS2584 in the
node's, lib ES2023 only; an error both see is printed twice). TypeScript's server answers the
file from one program only (the first reference holding it: `tsconfig_scope.solutions`), so
the check adds the file's errors in every other program holding it, from that program's own
`tsc -p CONFIG --noEmit` (TypeScript 7's; 0.9 s for Vite's node side on 7.0.2), or its
builder's program of that tsconfig (TypeScript 5: the items a preview's builder gives too),
said as its (`tsc -p tsconfig.node.json`). A program's run is kept while none of its files
and configs changed (their stamps). tsc's `--pretty` answer is read (`workspace/tsc_copy`):
it alone shows where an error ends (its squiggles), as the server's items do, so one error
both programs see is one key twice; its lines are moved to LSP's.

A state never written (a preview's texts, a dirty tree's HEAD texts: `overlaid_state`) is
TypeScript 5's builder's over those texts (`engine/overlaid.py`); on TypeScript 7 the server
answers the file from its first program alone, so each other program holding it is its own
`tsc -p CONFIG` on a copy holding the texts (`held_also`; the disk's run where the texts
touch none of its files).

A file a referenced program includes whose nearest tsconfig.json no build references
(src/tools/x.ts under tsconfig.app.json's src/**, src/tools/tsconfig.json unbuilt:
`Solution.unbuilt`) is checked by tsc -b in the build's programs alone: the server's answer,
from the unbuilt program, is replaced by the first build program's (`unbuilt_checked`,
`held_unbuilt`; TypeScript 5's whole check has it from that program's builder already).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar, cast

from lspd.dirs import state_dir
from lspd.engine.builders import builder_for
from lspd.engine.check_files import Answers, Said
from lspd.engine.config_stops import noted, program_said
from lspd.engine.native_program import compiler, configuration
from lspd.engine.program_runs import compiler_of, items_of, program_items
from lspd.engine.ts_configs import asked
from lspd.lsp import shapes
from lspd.servers.registry import node_executable
from lspd.workspace import Workspace, new_files
from lspd.workspace.files import read_text
from lspd.workspace.scope import files_found, solution_of
from lspd.workspace.tsbuilder import Builder
from lspd.workspace.tsc_copy import checked_copy
from lspd.workspace.tsc_native import ConfigError, listed
from lspd.workspace.tsconfig_extends import configured_stamps, extended

R = TypeVar("R")
Items = dict[Path, list[shapes.Diagnostic]]
Texts = Mapping[Path, str | None]
Steps = Callable[[int, int], None]  # (runs done, runs in all)
# `_configured`'s: (workspace root, config) -> (the stamps it ran at, its items by file, the
# errors its listing said of configurations)
_configs_ran: dict[tuple[Path, Path], tuple[object, Items, tuple[ConfigError, ...]]] = {}


async def also_checked(
    ws: Workspace, matched: Iterable[Path], answers: Answers[R], progress: Steps | None = None
) -> list[R]:
    """The results of `matched`'s files in the other programs of their `tsc -b` that hold
    them (none outside solution-style layouts): one result per file and program with
    errors, to be joined with the file's own (`Checks.merged`); and the errors of the
    configurations of every referenced program holding one of them (`tsc -b` says a
    tsconfig.node.json's TS5023; the servers say nothing of it: `_configured`). `progress`:
    told (done, of) its programs' runs, each a tsc of seconds on a cold one (a whole
    check's progress counts them from its start, `also_runs`: before, it said every file
    checked while they ran)."""
    if ws.restricted:  # the workspace's own TypeScript does not run
        return []
    solution = solution_of(ws)
    wanted, owners = _programs(ws, matched)
    results: list[R] = []
    runs, done = len(wanted) + len(owners | set(wanted)), 0
    told = progress or (lambda done, of: None)  # after each run
    for config, paths in sorted(wanted.items()):
        found = builder_for(ws, paths[0])
        if found is not None:  # TypeScript 5: its builder's program of that tsconfig
            items = await _built(ws, found[0], config)
            items = {p: await not_owned(ws, p, items.get(p, [])) for p in paths}
        else:
            items = await program_items(ws, config, solution.files.get(config, ()))
        said = program_said(ws, config)
        results += [answers.of_items(said, p, items[p]) for p in paths if items.get(p)]
        done += 1
        told(done, runs)
    configured: dict[Path, tuple[Said, list[shapes.Diagnostic]]] = {}
    listings: dict[Path, tuple[ConfigError, ...]] = {}
    apart = {found[0] for found in asked(ws)}  # `ops/tsconfig` lists them, says their errors
    for config in sorted(owners | set(wanted)):
        if config in apart:
            done += 1
            told(done, runs)
            continue
        said = program_said(ws, config)
        items, listings[config] = await _configured(ws, config)
        for path in _configs(config, items, apart):  # an extended one's errors said once
            known = configured.setdefault(path, (said, []))[1]
            known += [item for item in items[path] if item not in known]
        done += 1
        told(done, runs)
    noted(ws, listings, solution=True)  # which stop their programs (`engine/config_stops`)
    return results + [answers.of_items(c[0], p, c[1]) for p, c in sorted(configured.items())]


async def not_owned(
    ws: Workspace, path: Path, items: list[shapes.Diagnostic]
) -> list[shapes.Diagnostic]:
    """`items`, another program's errors of `path`, but those its own program says too where
    the two are gates apart (`Solution.once`: `tsc -p .` and `tsc -p tests` each say it, one
    error; `tsc -b` prints one of a solution's programs twice): the builder's of its own."""
    found = builder_for(ws, path)
    if path not in solution_of(ws).once or found is None or not items:
        return items
    own = (await _built(ws, found[0], found[1])).get(path, [])
    return [item for item in items if item not in own]


async def _built(ws: Workspace, builder: Builder, config: Path) -> Items:
    """The builder's items of `config`'s program on disk now: its last check's while no
    change was seen since it began (the whole check's, just made: a round trip to Node each,
    0.1-0.2 s of an edit's check at load 8), else a check."""
    project = builder.projects.get(config)
    if project is None or ws.changes_seen is None or project.seen != ws.changes_seen:
        project = await builder.check(config)
    return cast(Items, project.items)


def also_runs(ws: Workspace, matched: Iterable[Path]) -> int:
    """How many programs `also_checked` and `unbuilt_checked` run for `matched` (each a
    step of their progress)."""
    if ws.restricted:
        return 0
    matched = list(matched)
    wanted, owners = _programs(ws, matched)
    return len(wanted) + len(owners | set(wanted)) + len(_unbuilt(ws, matched, False))


def _unbuilt(ws: Workspace, matched: Iterable[Path], every: bool) -> dict[Path, list[Path]]:
    """The files of `matched` `unbuilt_checked` answers, by the build program it asks."""
    solution = solution_of(ws)
    found: dict[Path, list[Path]] = {}
    for path in matched:
        config = solution.owners.get(path)
        if path not in solution.unbuilt or config is None:
            continue
        if every or builder_for(ws, path) is None:
            found.setdefault(config, []).append(path)
    return found


def _programs(ws: Workspace, matched: Iterable[Path]) -> tuple[dict[Path, list[Path]], set[Path]]:
    """The other programs holding each of `matched`'s files (their files of it), and the
    programs owning one: those `also_checked` asks."""
    solution = solution_of(ws)
    wanted: dict[Path, list[Path]] = {}
    owners: set[Path] = set()
    for path in matched:
        owners.update(c for c in (solution.owners.get(path),) if c is not None)
        for config in solution.also.get(path, ()):
            wanted.setdefault(config, []).append(path)
    return wanted, owners


async def unbuilt_checked(
    ws: Workspace,
    matched: Iterable[Path],
    answers: Answers[R],
    every: bool = False,
    progress: Steps | None = None,
) -> tuple[set[Path], list[R]]:
    """The files of `matched` whose nearest tsconfig.json no `tsc -b` builds
    (`Solution.unbuilt`: TypeScript's server answers them from that program, which may say
    errors tsc -b never does, and not those it does), and their results in the first program
    of a build holding them (`also_checked` adds the others'), one each, to stand for the
    server's. TypeScript 5's whole check checks them in that program already (the scope
    gives them to it): `every` asks for them too (a file's diagnostics). `progress`: told
    (done, of) its programs' runs (TypeScript 7's `tsc -p`, counted in `also_runs`)."""
    if ws.restricted:
        return set(), []
    solution = solution_of(ws)
    replaced: set[Path] = set()
    results: list[R] = []
    programs = _unbuilt(ws, matched, every)
    for done, (config, paths) in enumerate(programs.items(), 1):
        found = builder_for(ws, paths[0])
        if found is not None:
            items = cast(Items, (await found[0].check(config)).items)
        else:
            items = await program_items(ws, config, solution.files.get(config, ()))
        replaced.update(paths)
        said = program_said(ws, config)
        results += [answers.of_items(said, path, items.get(path, [])) for path in paths]
        if progress is not None:
            progress(done, len(programs))
    return replaced, results


def _configs(config: Path, items: Items, own: set[Path]) -> list[Path]:
    """`config` and the configurations it extends that `items` holds errors of, but those
    whose errors the check asks `tsc -p` for anyway (`own`, `ts_configs.asked`'s, once a
    check: a TypeScript 7 server's folder's own tsconfig.json, a TypeScript 5 project's)."""
    return [p for p in (config, *extended(config, read_text)) if items.get(p) and p not in own]


async def held_also(
    ws: Workspace, texts: Texts, matched: Iterable[Path]
) -> list[tuple[Path, str, list[shapes.Diagnostic]]]:
    """`also_checked` in the state `texts` make (None: absent; the disk's for the rest), for
    TypeScript 7's files of `matched` (TypeScript 5's builder previews every program): each
    file's errors in each other program holding it, by that program's own `tsc -p` on a copy
    holding the texts, or its disk's run where they touch none of its files. (file, who
    said them, its items) for each with any."""
    if ws.restricted:
        return []
    solution = solution_of(ws)
    wanted: dict[Path, list[Path]] = {}
    for path in matched:
        if path in solution.also and builder_for(ws, path) is None:
            for config in solution.also[path]:
                wanted.setdefault(config, []).append(path)
    for path, config in await _new_also(ws, texts, [p for p in matched if p not in solution.also]):
        wanted.setdefault(config, []).append(path)
    found: list[tuple[Path, str, list[shapes.Diagnostic]]] = []
    for config, paths in sorted(wanted.items()):
        files = solution.files.get(config)
        if files is None or any(p in files or not p.exists() for p in texts):
            items = await _copy_items(ws, config, texts)
        else:
            items = await program_items(ws, config, files)
        said = f"tsc -p {ws.display(config)}"
        found += [(p, said, items[p]) for p in paths if items.get(p)]
    return found


async def _new_also(ws: Workspace, texts: Texts, matched: list[Path]) -> list[tuple[Path, Path]]:
    """(file, program) for the new TypeScript 7 files of `matched` and each other program of
    their solution that would hold them (`new_files.owner`'s `others`: no check has placed
    them yet; the server answers from the first). Before, a new file both programs include
    was said in the first program's errors alone."""
    found = []
    for path in matched:
        if texts.get(path) is None or path.exists() or builder_for(ws, path) is not None:
            continue
        if not path.name.endswith(new_files.HOST_SUFFIXES) or not _native(ws, path):
            continue
        package = new_files.reader(path, ws.root)
        owner = await asyncio.to_thread(new_files.owner, path, ws.root, package)
        found += [(path, config) for config in (owner.others if owner else ())]
    return found


def _native(ws: Workspace, path: Path) -> bool:
    """Whether `path` is a TypeScript 7 server's file (its session's: the toolchain chooses)."""
    return ws.handler(path) is not None and compiler(ws.session_for(path)) is not None


async def held_unbuilt(
    ws: Workspace, texts: Texts, matched: Iterable[Path], every: bool = False
) -> Items:
    """`unbuilt_checked` in the state `texts` make, for TypeScript 7's files of `matched`
    (TypeScript 5's builder checks them in that program; `every`: those too): each one's
    errors in the first program of a build holding it, its own tsc -p on a copy holding
    the texts, or its disk's run where they touch none of its files; every such file,
    errors or none."""
    if ws.restricted:
        return {}
    solution = solution_of(ws)
    found: Items = {}
    for path in matched:
        config = solution.owners.get(path)
        if path not in solution.unbuilt or config is None:
            continue
        if not every and builder_for(ws, path) is not None:
            continue
        files = solution.files.get(config, ())
        if any(p in files or not p.exists() for p in texts):
            items = await _copy_items(ws, config, texts)
        else:
            items = await program_items(ws, config, files)
        found[path] = items.get(path, [])
    return found


async def _copy_items(ws: Workspace, config: Path, texts: Texts) -> Items:
    """The errors of `config`'s program by file in the state `texts` make: its own tsc -p
    on a copy (`workspace/tsc_copy`); none where it could not say."""
    tsc = compiler_of(ws, config)
    if tsc is None:
        return {}
    base = state_dir(ws.root)
    # as tsc says the files beside its configuration's errors (said by `_configured`)
    checked = await asyncio.to_thread(checked_copy, tsc, ws.root, config, texts, base, True)
    return {} if checked is None else items_of(checked)


async def _configured(ws: Workspace, config: Path) -> tuple[Items, tuple[ConfigError, ...]]:
    """The errors `tsc -p config --listFilesOnly` says in `config` and the configurations it
    extends (a TypeScript 5 builder's items hold none), as items and as tsc said them, kept
    while they are as they were and no file came or went (a `files` entry gone is TS6053, an
    `include` matching none TS18003): a file replaced (`sed -i`) is none (`files_found`)."""
    stamps = (configured_stamps(config), files_found(ws), id(ws))
    kept = _configs_ran.get((ws.root, config))
    if kept is not None and kept[0] == stamps:
        return kept[1], kept[2]
    tsc = compiler_of(ws, config)
    errors = () if tsc is None else await _listing(ws, tsc, config)
    configs = {config, *extended(config, read_text)}
    items: Items = {}
    said = tuple(e for e in errors if e.file in configs and e.code)
    for error in said:
        point = {"line": error.line - 1, "character": error.column - 1}
        item = {"range": {"start": point, "end": point}, "severity": 1, "source": "ts"}
        made = {**item, "code": int(error.code), "message": error.message}
        items.setdefault(error.file, []).append(cast(shapes.Diagnostic, made))
    _configs_ran[(ws.root, config)] = (stamps, items, said)
    return items, said


async def _listing(ws: Workspace, tsc: list[str], config: Path) -> Sequence[ConfigError]:
    """What `tsc -p config --listFilesOnly` says of the configuration files: TypeScript 7's
    from its program's listing (`native_program.configuration`: the one the check reads its
    syntax from; Vite's tsconfig.app.json and tsconfig.node.json were each listed twice at a
    daemon's first check), TypeScript 5's (Node's `tsc.js`) run here."""
    if tsc[0] != node_executable():
        return await configuration(ws, tsc, config)
    return (await asyncio.to_thread(listed, tsc, config))[1]
