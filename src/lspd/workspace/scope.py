"""Which files a whole-workspace check checks: the files the project's own gate checks.

- Python (basedpyright, pyright): each `pyrightconfig.json`, or `pyproject.toml` with
  `[tool.basedpyright]` / `[tool.pyright]`, chooses files as the checker's CLI does
  (`pyright_scope`).
- TypeScript / JavaScript: each `tsconfig.json` / `jsconfig.json` and every config it
  references chooses its root files, read by the project's own TypeScript (`tsconfig_scope`),
  and the files its program holds under the root outside node_modules with them: the .d.ts
  `include` does not list (a `/// <reference path>`'s shim, a typeRoots package) are checked
  as `tsc -p` checks them, but those git ignores where skipLibCheck leaves their errors unsaid.
- A file no configuration governs (none in its directory or above it, up to the root), and
  every file of a language whose gate lspd does not read (Go, C, ty, pyrefly ...): as
  before, every source file lspd's own walk keeps, said so per project. But JavaScript that
  no tsconfig / jsconfig governs is left out: TypeScript checks JavaScript only when a
  configuration asks it to.

A file under a configuration that the configuration leaves out (SQLAlchemy's tests, ky's
`test/`) is not checked: no gate the project runs checks it. `--all` checks every file.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.errors import InvalidInput, ServerNotInstalled
from lspd.servers.install import install
from lspd.workspace import question
from lspd.workspace.files import stamp
from lspd.workspace.mypy_config import CONFIG_FILES as MYPY_FILES
from lspd.workspace.mypy_scope import MypyScope, gate_mypy_scopes
from lspd.workspace.pyright_scope import (
    CONFIG_JSON,
    PYPROJECT,
    PyrightConfig,
    config_in,
    files_of,
)
from lspd.workspace.toolchain import find_typescript, package_version
from lspd.workspace.tsconfig_scope import (
    CONFIG_NAMES,
    NoTypeScriptApi,
    Solution,
    TsConfig,
    read_tsconfigs,
    solutions,
)

if TYPE_CHECKING:
    from lspd.workspace.workspace import Workspace

PYRIGHT_SERVERS = {"basedpyright", "pyright"}
CONFIG = "tsconfig.json"  # the one TypeScript's server and lspd's builders look up for a file
TYPESCRIPT_SERVER = "typescript-language-server"  # its npm prefix holds lspd's TypeScript 5
WALK_LIMIT = 10_000_000
# TypeScript checks JavaScript only where a tsconfig / jsconfig says so (`allowJs`,
# `checkJs`): a .js file no config governs has no gate (SQLAlchemy's Sphinx output).
JAVASCRIPT = {".js", ".jsx", ".mjs", ".cjs"}


@dataclass(frozen=True)
class ProjectScope:
    """The files one configuration chose, or one project's files where none chooses."""

    language: str
    project: Path  # the configuration's directory (the project root without one)
    config: str | None  # `pyrightconfig.json`, `pyproject.toml [tool.basedpyright]`, ...
    files: tuple[Path, ...]
    note: str | None = None
    data: tuple[Path, ...] = ()  # a TypeScript program's JSON modules, as its reading resolves
    imports: tuple[tuple[Path, tuple[int, int] | None], ...] = ()  # mypy's `MypyScope.read`


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


# Per workspace: the `projects.generation` it was made at, the walk it was made of, the scope,
# when its walk began (`time.monotonic`).
_cache: weakref.WeakKeyDictionary[Workspace, tuple[int, Walk, GateScope, float]] = (
    weakref.WeakKeyDictionary()
)


@dataclass(frozen=True)
class Walk:
    """What lspd's walk finds under the root: the source files, each configuration by name."""

    sources: tuple[Path, ...]  # in the walk's order
    configs: dict[str, list[Path]]

    def same(self, other: Walk) -> bool:
        """Whether `other` found the same files (in any order)."""
        mine = {name: set(paths) for name, paths in self.configs.items()}
        theirs = {name: set(paths) for name, paths in other.configs.items()}
        return set(self.sources) == set(other.sources) and mine == theirs


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
    walk = await asyncio.to_thread(_walk, ws)
    if watched and cached is not None and cached[1].same(walk) and _unchanged(cached[2]):
        scope = cached[2]
    elif watched and cached is not None and cached[1].same(walk) and _unchanged(cached[2], False):
        scope = await asyncio.to_thread(_refollowed, ws, walk, cached[2])  # an import edited
    else:
        scope = await asyncio.to_thread(_scope, ws, walk)
    _cache[ws] = (generation, walk, scope, made)
    return scope


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
    """Whether every configuration `scope` read is as it was then (and each file `imports`)."""
    found = (i for project in scope.projects for i in project.imports) if imports else ()
    return all(stamp(path) == was for path, was in (*scope.read, *found))


def _refollowed(ws: Workspace, walk: Walk, scope: GateScope) -> GateScope:
    """`scope` with mypy's projects that follow imports made again (an import edited), the
    rest kept (no tsconfig read again: a Node run)."""
    python = [p for p in walk.sources if _ours(ws, p, "python")]
    mypys = gate_mypy_scopes(ws, [p.project for p in scope.projects if p.imports], python)
    again = {s.directory: _mypy_project(ws, s) for s in mypys}
    projects = tuple(again.get(p.project, p) if p.imports else p for p in scope.projects)
    chosen = tuple(sorted({path for project in projects for path in project.files}))
    outside = len(set(walk.sources).difference(chosen))
    return replace(scope, projects=projects, files=chosen, outside=outside)


def _walk(ws: Workspace) -> Walk:
    sources: list[Path] = []
    configs: dict[str, list[Path]] = defaultdict(list)  # file name -> paths found
    for directory, names in ws.ignore.walk(WALK_LIMIT):
        for name in names:
            path = directory / name
            if name in (CONFIG_JSON, PYPROJECT, *CONFIG_NAMES, *MYPY_FILES):
                configs[name].append(path)
            if ws.handler(path) is not None:
                sources.append(path)
    return Walk(tuple(sources), dict(configs))


def _scope(ws: Workspace, walk: Walk) -> GateScope:
    sources = list(walk.sources)
    configs = defaultdict(list, {name: list(found) for name, found in walk.configs.items()})
    projects: list[ProjectScope] = []
    # Every configuration file found, read or not: a pyproject.toml given a [tool.pyright]
    # table later is an edit, not a file that came, and must make the scope again too.
    read: list[Path] = [path for found in configs.values() for path in found]
    by_language: dict[str, list[Path]] = defaultdict(list)
    solution = Solution({}, {}, {})
    for path in sources:
        definition = ws.handler(path)
        assert definition is not None
        by_language[definition.language].append(path)
    for language, files in sorted(by_language.items()):
        name = _server(ws, files[0])
        if language == "python" and name in PYRIGHT_SERVERS:
            projects += _python(ws, files, configs, read)
        elif language == "typescript":
            projects += _typescript(ws, files, configs, read, solution)
        else:
            note = f"{name} reads no configuration of which files to check: every file"
            projects += _fallback(ws, files, language, note)
    chosen = sorted({path for project in projects for path in project.files})
    outside = len(set(sources).difference(chosen))
    stamps = tuple((path, stamp(path)) for path in dict.fromkeys(read))
    return GateScope(ws.root, tuple(projects), tuple(chosen), outside, stamps, solution)


def _server(ws: Workspace, path: Path) -> str:
    definition = ws.handler(path)
    return definition.name if definition is not None else "?"


def _python(
    ws: Workspace, files: list[Path], configs: dict[str, list[Path]], read: list[Path]
) -> list[ProjectScope]:
    directories = {p.parent for p in configs[CONFIG_JSON] + configs[PYPROJECT]}
    found = {d: _config_in(ws, d) for d in sorted(directories)}
    # mypy-gated projects: mypy's files (`mypy_scope`); one judged by both, pyright's.
    mypy_dirs = [p.parent for name in MYPY_FILES for p in configs[name]]
    mypys = gate_mypy_scopes(ws, mypy_dirs, files)
    projects = [_mypy_project(ws, s) for s in mypys]
    for scope in mypys:
        found.pop(scope.directory, None)
    for directory, config in found.items():
        if config is None:
            continue
        read += config.read
        chosen = tuple(p for p in files_of(config) if _ours(ws, p, "python"))
        label = ("" if directory == ws.root else f"{ws.display(directory)}/") + config.label
        projects.append(ProjectScope("python", directory, label, chosen))
    governed = {d for d, config in found.items() if config is not None}
    governed |= {s.directory for s in mypys}
    loose = [p for p in files if not _under(p, governed, ws.root)]
    note = "no pyrightconfig.json, [tool.basedpyright] or [tool.pyright]: every Python file"
    return projects + _fallback(ws, loose, "python", note)


def _mypy_project(ws: Workspace, scope: MypyScope) -> ProjectScope:
    label = ("" if scope.directory == ws.root else f"{ws.display(scope.directory)}/") + scope.label
    chosen = tuple(p for p in scope.files if _ours(ws, p, "python"))
    return ProjectScope("python", scope.directory, label, chosen, scope.note, (), scope.read)


def _config_in(ws: Workspace, directory: Path) -> PyrightConfig | None:
    try:
        return config_in(directory)
    except InvalidInput as exc:  # named from the root, as every path lspd shows
        raise InvalidInput(str(exc).replace(f"{ws.root}/", "")) from None


def _typescript(
    ws: Workspace,
    files: list[Path],
    configs: dict[str, list[Path]],
    read: list[Path],
    solution: Solution,
) -> list[ProjectScope]:
    """The projects of TypeScript's configurations (`solution`: their solution-style
    layouts' files, filled in)."""
    found = sorted(p for name in CONFIG_NAMES for p in configs[name])
    tsconfigs = _tsconfigs(ws, found)
    if tsconfigs is None:
        missing = "no TypeScript 5 to read tsconfig.json with (lspd servers install typescript)"
        return _fallback(ws, files, "typescript", missing)
    made = solutions(tsconfigs)
    solution.owners.update(made.owners)
    solution.also.update(made.also)
    solution.files.update(made.files)
    solution.unbuilt.update(made.unbuilt)
    projects = []
    taken: set[Path] = set()
    for tsconfig in sorted(tsconfigs.values(), key=lambda t: t.config):
        read += [tsconfig.config, *tsconfig.extended]
        config = tsconfig.config
        apart = _unchecked(ws, tsconfig)
        chosen = tuple(
            p
            for p in tsconfig.files
            if p not in taken
            and p not in apart
            and made.owners.get(p, config) == config
            and _ours(ws, p, "typescript")
        )
        taken.update(chosen)
        solution.held.update(_held(tsconfig, chosen, tsconfigs))
        note: str | None = "; ".join(tsconfig.notes) or None
        if tsconfig.references and not tsconfig.files:
            note = f"references {len(tsconfig.references)} project(s)"
        label = ws.display(tsconfig.config)
        projects.append(
            ProjectScope("typescript", tsconfig.config.parent, label, chosen, note, tsconfig.data)
        )
    governed = {p.parent for p in found}
    # a program's file outside every configuration's folder (`../../types/env/index.d.ts`
    # of its typeRoots) is that program's, not one no configuration governs
    loose = [
        p
        for p in files
        if p.suffix not in JAVASCRIPT and p not in taken and not _under(p, governed, ws.root)
    ]
    return projects + _fallback(ws, loose, "typescript", "no tsconfig.json: every file")


def _tsconfigs(ws: Workspace, found: list[Path]) -> dict[Path, TsConfig] | None:
    """`found` and the configurations they reference, each read by its project's own
    TypeScript, else lspd's; None: no TypeScript could read them."""
    groups: dict[Path | None, list[Path]] = defaultdict(list)
    for config in found:
        groups[find_typescript(config.parent, ws.root)].append(config)
    tsconfigs: dict[Path, TsConfig] = {}
    for package, members in groups.items():
        for candidate in _typescripts(ws, package):
            try:
                tsconfigs.update(
                    (t.config, t) for t in read_tsconfigs(members, candidate, ws.display)
                )
                break
            except NoTypeScriptApi:
                continue
        else:
            return None
    return tsconfigs


def _held(
    tsconfig: TsConfig, chosen: tuple[Path, ...], tsconfigs: dict[Path, TsConfig]
) -> dict[Path, Path]:
    """The declaration files of `chosen` outside its root files whose nearest tsconfig.json
    above holds them not (or that have none: `../../types/env/index.d.ts` of its typeRoots),
    by `tsconfig`'s path: its program checks them (`builders.builder_for`)."""
    if tsconfig.config.name == "jsconfig.json":  # its defaults are the server's to apply
        return {}
    held = {}
    for path in set(chosen).intersection(tsconfig.declarations):
        near = next((d / CONFIG for d in path.parents if d / CONFIG in tsconfigs), None)
        if near is None or (near != tsconfig.config and path not in tsconfigs[near].files):
            held[path] = tsconfig.config
    return held


def _unchecked(ws: Workspace, tsconfig: TsConfig) -> set[Path]:
    """The declaration files of `tsconfig`'s program outside its root files that its gate
    leaves out: git ignores them or they are build output (`dist/index.d.ts`), and tsc
    reports no error in them (skipLibCheck). Every other one is checked, as `tsc -p` checks
    it: a `/// <reference path>`'s `extra/shim.d.ts`, a typeRoots package's `index.d.ts`
    (their errors said, their edits the files changed that break their users)."""
    if not tsconfig.skip_lib_check:
        return set()
    return {p for p in tsconfig.declarations if ws.ignore(p)}


def _typescripts(ws: Workspace, project: Path | None) -> Iterator[Path]:
    """The TypeScript packages to read a project's tsconfigs with, tried in turn: its own,
    then lspd's (installed on first need, as its server would be)."""
    if project is not None and package_version(project) is not None:
        yield project
    definition = ws.definitions.get(TYPESCRIPT_SERVER)
    if definition is None:
        return
    lspd = definition.npm_root() / "typescript"
    if package_version(lspd) is None:
        with contextlib.suppress(ServerNotInstalled):  # then said: the files fall back
            install(definition)
    if package_version(lspd) is not None and lspd != project:
        yield lspd


def _fallback(ws: Workspace, files: list[Path], language: str, note: str) -> list[ProjectScope]:
    """Today's rule for files no configuration governs: every one, per project."""
    by_project: dict[Path, list[Path]] = defaultdict(list)
    for path in files:
        definition = ws.handler(path)
        if definition is not None:
            by_project[ws.project_root(path, definition)].append(path)
    return [
        ProjectScope(language, project, None, tuple(chosen), note)
        for project, chosen in sorted(by_project.items())
    ]


def _ours(ws: Workspace, path: Path, language: str) -> bool:
    """A file of the language, under the root (a config may name files outside it)."""
    definition = ws.handler(path)
    return definition is not None and definition.language == language and ws.root in path.parents


def _under(path: Path, directories: set[Path], root: Path) -> bool:
    """Whether one of `directories` holds `path` (looking up to `root`)."""
    for directory in path.parents:
        if directory in directories:
            return True
        if directory == root:
            return False
    return False
