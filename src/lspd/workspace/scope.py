"""Which files a whole-workspace check checks: the files the project's own gate checks.

- Python (basedpyright, pyright): each `pyrightconfig.json`, or `pyproject.toml` with
  `[tool.basedpyright]` / `[tool.pyright]`, chooses files as the checker's CLI does
  (`pyright_scope`); where the gate runs ty alone, ty's files (`ty_scope`), whatever else
  is configured.
- TypeScript / JavaScript: each `tsconfig.json` / `jsconfig.json` and every config it
  references chooses its root files and the declarations its program holds
  (`typescript_projects`).
- A file no configuration governs (none in its directory or above it, up to the root), and
  every file of a language whose gate lspd does not read (Go, C, ty, pyrefly ...): as
  before, every source file lspd's own walk keeps, said so per project
  (`project_scope.fallback`); but TypeScript in a workspace holding Python that no
  package.json claims either is no project's (`typescript_projects._loose`), nor is C
  there that no build describes (a compile database, go.mod, Cargo.toml: `built_projects`).

A file under a configuration that the configuration leaves out (SQLAlchemy's tests, ky's
`test/`) is not checked: no gate the project runs checks it. `--all` checks every file.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.errors import InvalidInput
from lspd.workspace import question
from lspd.workspace.built_projects import BUILT, built_projects
from lspd.workspace.files import stamp
from lspd.workspace.mypy_config import (
    MYPY,
    UNCONFIGURED,
    choose,
    configures_checker,
    mypy_config_in,
)
from lspd.workspace.mypy_files import CONFIG_FILES as MYPY_FILES
from lspd.workspace.mypy_imports import ImportsRead, unmoved
from lspd.workspace.mypy_scope import EVERY, MypyScope, Stamp, gate_mypy_scopes
from lspd.workspace.mypy_unconfigured import may_run_mypy, may_run_paths, runner_paths
from lspd.workspace.npm_installed import PACKAGE
from lspd.workspace.project_scope import ProjectScope, fallback, ours, under
from lspd.workspace.pyright_given import given_files, given_paths, pyright_given
from lspd.workspace.pyright_part import part_paths, pyright_part
from lspd.workspace.pyright_scope import (
    CONFIG_JSON,
    PYPROJECT,
    PyrightConfig,
    config_in,
    files_of,
    is_toml,
)
from lspd.workspace.pyright_verified import verified_said
from lspd.workspace.scope_walk import Walk
from lspd.workspace.scope_walk import walk as walk_root
from lspd.workspace.tsc_scripts import script_sources
from lspd.workspace.tsconfig_scope import Solution
from lspd.workspace.ty_config import CONFIG as TY_CONFIG
from lspd.workspace.ty_config import TY, gated_ty, unrun_note
from lspd.workspace.ty_paths import ty_files
from lspd.workspace.ty_scope import ty_projects
from lspd.workspace.typescript_projects import typescript_projects
from lspd.workspace.typing_tests import typing_tests_said

if TYPE_CHECKING:
    from lspd.workspace.workspace import Workspace

PYRIGHT_SERVERS = {"basedpyright", "pyright"}
# the files whose imports chose mypy's part, stamped, and what was read of their imports
Imports = tuple[tuple[tuple[Path, Stamp], ...], tuple[tuple[Path, ImportsRead], ...]]


@dataclass(frozen=True)
class GateScope:
    """What a whole-workspace check checks, project by project."""

    root: Path
    projects: tuple[ProjectScope, ...]
    files: tuple[Path, ...]  # every project's files, each once, sorted
    outside: int  # source files lspd's walk finds that no gate checks
    read: tuple[tuple[Path, tuple[int, int] | None], ...]  # configs read, as they were
    # TypeScript's solution-style layouts: each file's config and the others of its `tsc -b`
    solution: Solution = field(default_factory=lambda: Solution({}, {}, {}))
    # What chose the checker of a root configuring none (its scripts, hooks, package.json), as
    # they were: watched like `read`, but no configuration (a commit's kept result is keyed
    # by `read`, and a pyrightconfig.json written would change this set: never found again)
    chose: tuple[tuple[Path, tuple[int, int] | None], ...] = ()


# Per workspace: the `projects.generation` it was made at, the walk it was made of, the scope,
# when its walk began (`time.monotonic`).
_cache: weakref.WeakKeyDictionary[Workspace, tuple[int, Walk, GateScope, float]] = (
    weakref.WeakKeyDictionary()
)
# Per workspace: how many of its watched walks found other files than the walk before, and
# the `projects.generation` of the first walk that found these (`files_found`)
_walked: weakref.WeakKeyDictionary[Workspace, tuple[int, int]] = weakref.WeakKeyDictionary()


async def gate_scope(ws: Workspace) -> GateScope:
    """The gate's files of the workspace. In a daemon (a watcher runs) it is kept while no
    file came or went and no configuration it read changed. A file told created that
    replaced one (`git apply`, an atomic save, `sed -i`: the watcher says created) leaves
    the walk as it was: the scope is kept, not read again (TypeScript's reading of the
    tsconfigs is a Node run, 0.3-1.3 s). Without a watcher it is made again for every
    question, once (`workspace.question`)."""
    generation = ws.projects.generation
    cached = _cache.get(ws)
    watched = ws.changes_seen is not None
    if watched and cached is not None and cached[0] == generation and _unchanged(cached[2]):
        return cached[2]
    asked = None if watched else question.began()  # without a watcher: one question's
    if asked is not None and cached is not None and cached[3] >= asked:
        return cached[2]
    made = time.monotonic()
    walk = await asyncio.to_thread(walk_root, ws)
    same = watched and cached is not None and cached[1].same(walk)
    if same and cached is not None and _unchanged(cached[2]):
        scope = cached[2]
    elif same and cached is not None and _unchanged(cached[2], False):
        scope = await asyncio.to_thread(_refollowed, ws, walk, cached[2])  # an import edited
    else:
        scope = await asyncio.to_thread(_scope, ws, walk)
    _cache[ws] = (generation, walk, scope, made)
    found = _walked.get(ws)
    if found is None or (watched and not same):  # without a watcher: as `projects.generation`
        _walked[ws] = (0 if found is None else found[0] + 1, generation)
    return scope


def files_found(ws: Workspace) -> tuple[int, int]:
    """Which files are under the root, as a value that changes when files came or went:
    kept while each walk of the gate's scope finds the same files (a `sed -i`'s rename over
    a file, an atomic save: told created, the files the same), the workspace's
    `projects.generation` in it where files came or went since the last walk. What a
    tsconfig's listing says hangs on it (a `files` entry gone: TS6053): kept on
    `projects.generation`, a solution's listings ran again after every `sed -i` (~6 s)."""
    cached, found = _cache.get(ws), _walked.get(ws)
    generation = ws.projects.generation
    if cached is None or found is None or cached[0] != generation:
        return (0 if found is None else found[0], generation)
    return found


def solution_of(ws: Workspace) -> Solution:
    """The solution-style layouts of the gate's scope last made (none before one is made)."""
    scope = last_scope(ws)
    return scope.solution if scope is not None else Solution({}, {}, {})


def last_scope(ws: Workspace) -> GateScope | None:
    """The gate's scope last made (None before one is), without making it again: a whole
    check made it as it began."""
    cached = _cache.get(ws)
    return cached[2] if cached is not None else None


def _unchanged(scope: GateScope, imports: bool = True) -> bool:
    """Whether every configuration `scope` read is as it was then (and with `imports`, each
    file whose imports mypy's part was chosen by imports the same: `unmoved`)."""
    if not all(stamp(path) == was for path, was in (*scope.read, *scope.chose)):
        return False
    ours = (p for p in scope.projects if p.imports) if imports else ()
    return all(unmoved(p.imports, dict(p.imports_read)) is not None for p in ours)


def _refollowed(ws: Workspace, walk: Walk, scope: GateScope) -> GateScope:
    """`scope` with mypy's projects that follow imports made again (an import edited), the
    rest kept (no tsconfig read again: a Node run)."""
    python = [p for p in walk.sources if ours(ws, p, "python")]
    mypys = gate_mypy_scopes(ws, [p.project for p in scope.projects if p.imports], python)
    again = {s.directory: _mypy_project(ws, s, python) for s in mypys}
    for project in scope.projects:  # those both judge, mypy's files part of their gate
        if project.imports and project.project not in again:
            config = _config_in(ws, project.project)
            if config is not None:
                chosen = tuple(p for p in files_of(config) if ours(ws, p, "python"))
                files, note, (imports, read) = _both(
                    ws, project.project, config, chosen, python, []
                )
                again[project.project] = replace(
                    project, files=files, note=note, imports=imports, imports_read=read
                )
    projects = tuple(again.get(p.project, p) if p.imports else p for p in scope.projects)
    chosen = tuple(sorted({path for project in projects for path in project.files}))
    outside = len(set(walk.sources).difference(chosen))
    return replace(scope, projects=projects, files=chosen, outside=outside)


def _scope(ws: Workspace, walk: Walk) -> GateScope:
    sources = list(walk.sources)
    configs = defaultdict(list, {name: list(found) for name, found in walk.configs.items()})
    projects: list[ProjectScope] = []
    # Every configuration file found, read or not: a pyproject.toml given a [tool.pyright]
    # table later is an edit, not a file that came, and must make the scope again too.
    read: list[Path] = [path for found in configs.values() for path in found]
    # a nested pyproject.toml that is no TOML is a fixture, no configuration (`is_toml`)
    configs[PYPROJECT] = [p for p in configs[PYPROJECT] if p.parent == ws.root or is_toml(p)]
    by_language: dict[str, list[Path]] = defaultdict(list)
    solution = Solution({}, {}, {})
    for path in sources:
        definition = ws.handler(path)
        assert definition is not None
        by_language[definition.language].append(path)
    for language, files in sorted(by_language.items()):
        name = _server(ws, files[0])
        if language == "python" and name in PYRIGHT_SERVERS:
            projects += _python(ws, files, configs, read, walk.hidden)
        elif language == "typescript":
            python = "python" in by_language
            projects += typescript_projects(ws, files, configs, read, solution, python)
        elif name == TY:  # lspd.toml's choice: its configuration's files
            homes = [p.parent for p in configs[PYPROJECT] + configs[TY_CONFIG]]
            ty = ty_projects([*files, *walk.hidden], homes, read, chosen=True)
            loose = [p for p in files if not under(p, {s.project for s in ty}, ws.root)]
            note = f"{name} reads no configuration of which files to check: every file"
            projects += ty + fallback(ws, loose, language, note)
        elif name in BUILT:
            note = f"{name} reads no configuration of which files to check: every file"
            projects += built_projects(ws, files, language, note, "python" in by_language, read)
        else:
            note = f"{name} reads no configuration of which files to check: every file"
            projects += fallback(ws, files, language, note)
    chosen = sorted({path for project in projects for path in project.files})
    outside = len(set(sources).difference(chosen))
    stamps = tuple((path, stamp(path)) for path in dict.fromkeys(read))
    chose = _chose(ws, by_language, projects, configs[PYPROJECT])
    # script files holding tsc commands: watched, no configuration (untyped's src/cli.ts)
    ts = [p.project / PACKAGE for p in projects if p.language == "typescript"]
    ran = [f for p in dict.fromkeys([ws.root / PACKAGE, *ts]) for f in script_sources(p)]
    chose += tuple((path, stamp(path)) for path in ran)
    return GateScope(ws.root, tuple(projects), tuple(chosen), outside, stamps, solution, chose)


def _chose(
    ws: Workspace,
    by_language: dict[str, list[Path]],
    projects: list[ProjectScope],
    pyprojects: list[Path],
) -> tuple[tuple[Path, tuple[int, int] | None], ...]:
    """What chooses the checker of a root holding Python that configures none (a justfile
    running mypy written later makes it mypy's), of each package below judged by mypy's
    defaults (`unconfigured_gate`), and of each package below that may come to be judged
    so (its folder's listing: `may_run_paths`), as it is now."""
    files = by_language.get("python", [])
    if not files or _server(ws, files[0]) not in PYRIGHT_SERVERS:
        return ()
    chosen = [p.project for p in projects if p.project != ws.root and _unconfigured(p)]
    own = not configures_checker(ws.root)  # else no package below is mypy's defaults'
    chosen = [ws.root, *chosen] if own else chosen
    found = dict.fromkeys(path for folder in chosen for path in runner_paths(folder))
    if own and ws.config.python_checker == "project" and not ws.restricted:
        for folder in dict.fromkeys(p.parent for p in pyprojects):
            if folder != ws.root and folder not in chosen:  # saying mypy: what else runs
                paths = runner_paths(folder) if may_run_mypy(folder) else may_run_paths(folder)
                found.update(dict.fromkeys(paths))
    stamped = set(pyprojects)  # stamped as configurations (`GateScope.read`)
    return tuple((path, stamp(path)) for path in found if path not in stamped)


def _unconfigured(project: ProjectScope) -> bool:
    """Whether mypy's defaults judge `project` (no configuration of its own)."""
    return project.config is not None and project.config.endswith(UNCONFIGURED)


def _server(ws: Workspace, path: Path) -> str:
    definition = ws.handler(path)
    return definition.name if definition is not None else "?"


def _python(
    ws: Workspace,
    files: list[Path],
    configs: dict[str, list[Path]],
    read: list[Path],
    hidden: tuple[Path, ...] = (),
) -> list[ProjectScope]:
    """The Python projects' files: each configuration's, ty's of a ty gate with those of
    the hidden folders ty walks (`hidden`: lspd's walk leaves them out), else every one."""
    directories = {p.parent for p in configs[CONFIG_JSON] + configs[PYPROJECT]}
    # a pyright configuration where the gate runs ty alone is left over (fastmcp's): ty's files
    found = {d: _config_in(ws, d) for d in sorted(directories) if not gated_ty(d)}
    # mypy-gated projects: mypy's files (`mypy_scope`); one judged by both, pyright's.
    mypy_dirs = [ws.root, *(p.parent for name in MYPY_FILES for p in configs[name])]
    mypys = gate_mypy_scopes(ws, mypy_dirs, files)
    projects = [_mypy_project(ws, s, files) for s in mypys]
    for scope in mypys:
        found.pop(scope.directory, None)
    for directory, config in found.items():
        if config is None:
            continue
        read += config.read
        chosen = tuple(p for p in files_of(config) if ours(ws, p, "python"))
        prefix = "" if directory == ws.root else f"{ws.display(directory)}/"
        label, note = prefix + config.label, None
        imports: Imports = ((), ())
        if (mypy := _also_mypy(ws, directory)) is not None:  # both judge it: both named
            label += f" + {prefix}{mypy}"
            chosen, note, imports = _both(ws, directory, config, chosen, files, read)
        else:  # what the gate's own pyright runs are given, in place of its `include`
            read += given_paths(directory)
            if (given := pyright_given(directory)) is not None:
                run_on = given_files(config, given, files)  # a hook's: of the walk's files
                chosen = tuple(p for p in run_on if ours(ws, p, "python"))
                note = f"basedpyright: {given.note}"
        if (unrun := unrun_note(directory, "pyright")) is not None:  # svcs's ty, pyrefly
            note = f"{note}; {unrun}" if note else unrun
        projects.append(ProjectScope("python", directory, label, chosen, note, (), *imports))
    governed = {d for d, config in found.items() if config is not None}
    governed |= {s.directory for s in mypys}
    homes = [p.parent for p in configs[PYPROJECT] + configs[TY_CONFIG]]
    ty = ty_projects([*files, *hidden], homes, read)
    projects += [p for p in ty if p.project not in governed]  # ty's alone: none configures both
    governed |= {p.project for p in ty}
    loose = [p for p in files if not under(p, governed, ws.root)]
    projects += verified_said([ws.root, *governed], read)  # `pyright --verifytypes`: not run
    projects += typing_tests_said(ws.root, read)  # a pytest plugin's typing cases: not run
    note = "no pyrightconfig.json, [tool.basedpyright] or [tool.pyright]: every Python file"
    read += given_paths(ws.root)
    if (given := pyright_given(ws.root)) is not None and not given.configured and loose:
        taken = tuple(p for p in loose if given.takes(p))  # pyright's defaults on its runs'
        return [*projects, ProjectScope("python", ws.root, "pyright's defaults", taken, given.note)]
    return projects + fallback(ws, loose, "python", note)


def _both(
    ws: Workspace,
    directory: Path,
    config: PyrightConfig,
    chosen: tuple[Path, ...],
    files: list[Path],
    read: list[Path],
) -> tuple[tuple[Path, ...], str | None, Imports]:
    """The gate of a project both checkers judge: basedpyright's files (`chosen`) where they
    are the configuration's whole reach, else those of its part (its `include`, or what its
    scripts run pyright on: `pyright_part`) with the files mypy checks (`mypy_scope`); the
    note saying which, and the files whose imports chose mypy's, stamped, and what was read
    of them (`ProjectScope.imports`, `imports_read`).
    The scripts read are added to `read`."""
    read += part_paths(directory)
    part = pyright_part(directory)
    if part is None:
        return chosen, None, ((), ())
    if part.given is not None:  # its runs' files, not its `include`'s
        run_on = given_files(config, part.given, files)  # a hook's: of the walk's files
        chosen = tuple(p for p in run_on if ours(ws, p, "python"))
    mypys = gate_mypy_scopes(ws, [directory], files, alone=False)
    if not mypys or mypys[0].note == EVERY:  # nothing chose mypy's: the configuration's
        mypy_note = "the same" if part.include else "the configuration's files"
        return (
            chosen,
            f"basedpyright: {part.note}; mypy: {mypy_note} (nothing chose its own)",
            ((), ()),
        )
    mypy = [p for p in mypys[0].every_file if ours(ws, p, "python")]
    union = tuple(sorted({*(p for p in chosen if part.judges(p)), *mypy}))
    return (
        union,
        f"basedpyright: {part.note}; mypy: {mypys[0].note}",
        (mypys[0].read, mypys[0].imports),
    )


def _also_mypy(ws: Workspace, directory: Path) -> str | None:
    """The label of the mypy configuration of a project basedpyright's configuration scopes
    where mypy judges it too (`mypy_config.choose`), else None."""
    choice = choose(directory, ws.config.python_checker, ws.restricted)
    if MYPY not in choice.checkers or (config := mypy_config_in(directory)) is None:
        return None
    return config.label


def _mypy_project(ws: Workspace, scope: MypyScope, python: list[Path]) -> ProjectScope:
    """The gate's part of a mypy-gated project: mypy's files, and with ty beside it those
    ty checks too (fastapi-cli: `mypy src tests` less tests/assets/, `ty check src tests`:
    tests/assets/ is ty's), of `python` (the walk's Python files)."""
    label = ("" if scope.directory == ws.root else f"{ws.display(scope.directory)}/") + scope.label
    chosen, note = scope.every_file, scope.note
    if scope.ty_beside:
        inside = [p for p in python if scope.directory in p.parents]
        ty, ty_note = ty_files(scope.directory, inside)
        said = f"mypy: {note}; " if note else ""
        chosen, note = tuple(sorted({*chosen, *ty})), f"{said}ty: {ty_note}"
        if (unrun := unrun_note(scope.directory, TY)) is not None:
            note += f"; {unrun}"
    chosen = tuple(p for p in chosen if ours(ws, p, "python"))
    read = (scope.read, scope.imports)
    return ProjectScope("python", scope.directory, label, chosen, note, (), *read)


def _config_in(ws: Workspace, directory: Path) -> PyrightConfig | None:
    try:
        return config_in(directory)
    except InvalidInput as exc:  # named from the root, as every path lspd shows
        raise InvalidInput(str(exc).replace(f"{ws.root}/", "")) from None
