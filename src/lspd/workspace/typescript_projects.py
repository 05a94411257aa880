"""The gate's TypeScript projects (`workspace/scope.py`): each `tsconfig.json` /
`jsconfig.json`, each config a package.json script type-checks (`tsc_scripts`), and every
config they reference chooses its root files, read by the
project's own TypeScript (`tsconfig_scope`), and the files its program holds under the root
outside node_modules with them: the .d.ts `include` does not list (a `/// <reference path>`'s
shim, a typeRoots package) are checked as `tsc -p` checks them, but those git ignores where
skipLibCheck leaves their errors unsaid. JavaScript no configuration governs is left out:
TypeScript checks JavaScript only when a configuration asks it to. Apart from the scope's
walk and cache: reading tsconfigs is a Node run with rules of its own (solution-style
layouts, the declarations a program holds).
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.errors import InvalidInput, ServerNotInstalled
from lspd.servers.install import install
from lspd.workspace.dtslint_tests import dtslint_noted
from lspd.workspace.npm_installed import PACKAGE, deciding, uninstalled
from lspd.workspace.project_scope import ProjectScope, fallback, ours, under
from lspd.workspace.tsc_other import other_typescript
from lspd.workspace.tsc_scripts import TSD_TESTS, scripted_configs, tsd_folders
from lspd.workspace.tsconfig_scope import (
    CONFIG_NAMES,
    NoTypeScriptApi,
    Solution,
    TsConfig,
    read_tsconfigs,
    solutions,
)
from lspd.workspace.typescript_gated import editors_note, gate_configs
from lspd.workspace.typescript_package import find_typescript, names_typescript, package_version

if TYPE_CHECKING:
    from lspd.workspace.workspace import Workspace

TYPESCRIPT_SERVER = "typescript-language-server"  # its npm prefix holds lspd's TypeScript 5
# TypeScript checks JavaScript only where a tsconfig / jsconfig says so (`allowJs`,
# `checkJs`): a .js file no config governs has no gate (SQLAlchemy's Sphinx output).
JAVASCRIPT = {".js", ".jsx", ".mjs", ".cjs"}
DENO_CONFIGS = ("deno.json", "deno.jsonc")


def typescript_projects(
    ws: Workspace,
    files: list[Path],
    configs: dict[str, list[Path]],
    read: list[Path],
    solution: Solution,
    python: bool = False,
) -> list[ProjectScope]:
    """TypeScript's projects (`solution`: its layouts' files, filled in; `python`: Python too)."""
    if (deno := _deno(ws, read)) is not None:
        return [deno]
    found = sorted(p for name in CONFIG_NAMES for p in configs[name])
    scripted = _scripted(ws, found, read)
    found += scripted
    unready = {c: at for c in found if (at := uninstalled(c, ws.root, python)) is not None}
    if _plug_n_play(ws.root):  # no node_modules: no import resolves as `yarn tsc` resolves it
        unready = dict.fromkeys(found, ws.root)
        read += [ws.root / ".pnp.cjs", ws.root / "node_modules"]  # a linker changed: again
    read += [p for c in found for p in deciding(c, ws.root)]  # installed or not, watched
    packages = [ws.root / PACKAGE, *(c.parent / PACKAGE for c in found)]
    other = other_typescript(packages)  # configurations only another TypeScript checks
    tsconfigs = _tsconfigs(ws, [c for c in found if c not in unready and c not in other])
    if tsconfigs is None:
        missing = "no TypeScript 5 to read tsconfig.json with (lspd servers install typescript)"
        return fallback(ws, files, "typescript", missing)
    gated = gate_configs(ws.root, tsconfigs, found, scripted)
    made, projects, taken = solutions(tsconfigs, set(gated)), [], {}  # taken: each file's program
    held = {p for t in gated.values() for p in t.files}  # by the gate's programs
    homes = _homes(tsconfigs, gated, held, made.owners)
    tsd = tsd_folders(list(dict.fromkeys(packages)))  # its tests are tsd's to check
    for tsconfig in sorted(tsconfigs.values(), key=lambda t: t.config):
        read += [tsconfig.config, *tsconfig.extended]
        config = tsconfig.config
        apart = _unchecked(ws, tsconfig) | _tsd_tests(tsconfig.files, tsd)
        chosen = tuple(
            p
            for p in tsconfig.files
            if p not in taken
            and p not in apart
            and made.owners.get(p, config) == config
            and homes.get(p, config) == config
            and ours(ws, p, "typescript")
        )
        note, chosen = _noted(tsconfig, chosen, config in gated, held)
        taken.update(dict.fromkeys(chosen, config))
        solution.held.update(_held(tsconfig, chosen, tsconfigs))
        label, folder, data = ws.display(config), config.parent, tsconfig.data
        projects.append(
            ProjectScope("typescript", folder, label, chosen, note, data, gated=config in gated)
        )
    _filled(solution, made, _shared(gated, taken, made.owners), tsconfigs)
    projects = dtslint_noted(projects, packages) + _tsd_said(tsd, files)
    projects += _not_installed(ws, unready, read) + _others(ws, other)
    # a program's file outside every configuration's folder (typeRoots'): that program's
    governed = {p.parent for p in found}
    loose = [p for p in files if p not in taken and not under(p, governed, ws.root)]
    known = len(gated) < len(tsconfigs)  # the scripts say which configurations they check
    loose = [p for p in loose if p.suffix not in JAVASCRIPT]
    return projects + _loose(ws, loose, python, read, known, tsd)


def _others(ws: Workspace, other: dict[Path, str]) -> list[ProjectScope]:
    """A line per configuration only another TypeScript checks, said by its name (no
    configuration of the gate)."""
    return [
        ProjectScope("typescript", c.parent, None, (), f"not checked: {ws.display(c)}, which {w}")
        for c, w in other.items()
    ]


def _loose(
    ws: Workspace, loose: list[Path], python: bool, read: list[Path], known: bool, tsd: set[Path]
) -> list[ProjectScope]:
    """The TypeScript files no configuration governs: every one, as before; but in a project
    holding Python (`python`), those in no npm package naming TypeScript either (no
    package.json above them depends on it or runs tsc) are no project's: nothing the project
    runs checks them (textual's stray tools/gen_easings_tests.ts: 5 errors its gate, mypy,
    never sees; jsonschema's vendored Deno script). So are all of them
    where the scripts say which configurations they check (`known`: some are editors'):
    vue-router's scripts/release.ts, run by tsx, was checked with TypeScript's defaults (a
    TS7016 its gate never says). Said per top folder, and each package.json that would make
    them a package's watched (`read`). tsd's tests are tsd's (p-map's root index.test-d.ts),
    and where tsd runs, so is what no package naming TypeScript claims (emittery)."""
    apart = _tsd_tests(loose, tsd)
    loose = [p for p in loose if p not in apart]
    stray: dict[Path, list[Path]] = defaultdict(list)
    if python or known or tsd:  # (tsd's: a package's types are checked through its tests)
        for path in loose:
            if known or not names_typescript(path.parent, ws.root):  # said per top folder
                parts = path.relative_to(ws.root).parts
                stray[ws.root / parts[0] if len(parts) > 1 else ws.root].append(path)
                read += [d / PACKAGE for d in path.parents if ws.root in d.parents]
        read.append(ws.root / PACKAGE)
    left = {p for found in stray.values() for p in found}
    kept = [p for p in loose if p not in left]
    note = (
        "not checked: TypeScript in a Python project that no tsconfig.json, nor package.json "
        "naming TypeScript, claims, so nothing the project runs checks it "
        "(`lspd check --all` does)"
    )
    if tsd and not python and not known:  # emittery: its index.d.ts said 5 errors tsd never
        note = "not checked: TypeScript no tsconfig.json, nor package.json naming TypeScript, "
        note += "claims; tsd checks the package's types through its tests, which lspd does not run"
    if known:
        note = (
            "not checked: TypeScript no tsconfig.json claims, where the scripts name the "
            "configurations they check, so nothing the project runs checks it "
            "(`lspd check --all` does)"
        )
    strays = [ProjectScope("typescript", d, None, (), note) for d in sorted(stray)]
    return fallback(ws, kept, "typescript", "no tsconfig.json: every file") + strays


def _deno(ws: Workspace, read: list[Path]) -> ProjectScope | None:
    """A Deno project's scope (a deno.json or deno.jsonc at the root, no package.json there
    naming TypeScript): no file checked, and said. Its gate is `deno check` (Deno's globals,
    `npm:` and import-map specifiers, its own compiler options), which lspd does not run:
    checked with TypeScript's rules by its editor's tsconfig.json, typebox's clean tree had
    899 errors where `deno test` says none."""
    read += [ws.root / name for name in (*DENO_CONFIGS, PACKAGE)]  # one naming TypeScript
    config = next((n for n in DENO_CONFIGS if (ws.root / n).is_file()), None)
    if config is None or names_typescript(ws.root, ws.root):
        return None
    note = (
        f"not checked: a Deno project ({config}), whose checker is `deno check`, which lspd "
        "does not run (`lspd check --all` checks its files with TypeScript's rules)"
    )
    return ProjectScope("typescript", ws.root, None, (), note)  # (its note names the file)


def _scripted(ws: Workspace, found: list[Path], read: list[Path]) -> list[Path]:
    """The configurations the scripts of the root's package.json, and of those beside
    `found`, type-check that are not among `found` (`tsc_scripts`); those read, watched."""
    packages = list(dict.fromkeys([ws.root / PACKAGE, *(c.parent / PACKAGE for c in found)]))
    scripted, missing = scripted_configs(packages, ws.root)
    read += packages + missing
    return [c for c in scripted if c not in found and not ws.ignore(c)]


def _plug_n_play(root: Path) -> bool:
    """Whether Yarn's Plug'n'Play installs the project at `root` (its .pnp.cjs), with no
    node_modules beside it."""
    return (root / ".pnp.cjs").is_file() and not (root / "node_modules").is_dir()


def _not_installed(
    ws: Workspace, unready: dict[Path, Path], read: list[Path]
) -> list[ProjectScope]:
    """A project line for each tsconfig of a package whose dependencies are not installed
    (`npm_installed`), none of its files checked (what can install it is watched: `deciding`)."""
    projects = []
    for config, package in sorted(unready.items()):
        where = ws.display(package)
        note = (
            f"not checked: {where}/package.json's dependencies are not installed (no "
            f"{where}/node_modules, and no workspace above hoists them into its own); "
            "install them there to check it"
        )
        if package == ws.root and _plug_n_play(package):
            note = (
                "not checked: Yarn Plug'n'Play installs no node_modules, and lspd's TypeScript "
                "resolves imports from node_modules (es-toolkit: 906 errors its `yarn tsc` "
                "never says); `nodeLinker: node-modules` in .yarnrc.yml and `yarn install` "
                "make it checked"
            )
        projects.append(ProjectScope("typescript", config.parent, None, (), note))
    return projects


def _filled(
    solution: Solution,
    made: Solution,
    shared: dict[Path, tuple[Path, ...]],
    tsconfigs: dict[Path, TsConfig],
) -> None:
    """`solution` filled in: `made` (the solution-style layouts'), the files two programs
    hold outside them (`shared`: `also`, and `once`), and those a nearer configuration
    holds too than the one whose program checks them (`Solution.held`: scripts/x.js under
    scripts/jsconfig.json, the root tsconfig.json's by `_home`), whose answer is their
    own program's as an unbuilt file's is (`solution_check.unbuilt_checked`)."""
    solution.owners.update(made.owners)
    solution.also.update(made.also)
    solution.files.update(made.files)
    solution.unbuilt.update(made.unbuilt)
    solution.also.update(shared)
    solution.once.update(shared)
    solution.files.update((c, tsconfigs[c].files) for h in shared.values() for c in h)
    for path, config in solution.held.items():  # a nearer configuration holding it too
        nearest = _nearest(path, tsconfigs)
        if path not in made.owners and nearest is not None and path in tsconfigs[nearest].files:
            solution.owners[path] = config  # the server answers by the nearer one's program
            solution.unbuilt.add(path)  # (TypeScript 7's): its program's tsc -p stands for it
            solution.files[config] = tsconfigs[config].files


def _shared(
    tsconfigs: dict[Path, TsConfig], owner: dict[Path, Path], built: dict[Path, Path]
) -> dict[Path, tuple[Path, ...]]:
    """The files of `owner` (each file's program) other programs hold too, outside solution
    layouts, by those programs: `tsc -p` of each checks them under its own options (ts-pattern's
    tests/tsconfig.json, noUnusedLocals, including ../src: TS6133 in src/ said by `tsc -p
    tests` alone): TypeScript 5's builder checks each program whole, so its errors there are
    read, not checked again; TypeScript 7's are that program's `tsc -p`. A solution's files
    (`built`: their owners) are `tsconfig_scope.solutions`'."""
    shared: dict[Path, tuple[Path, ...]] = {}
    for config in sorted(tsconfigs):
        for path in tsconfigs[config].files:
            if path not in built and owner.get(path, config) != config:
                shared[path] = (*shared.get(path, ()), config)
    return shared


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
    """The files of `chosen` whose nearest configuration above (a folder's tsconfig.json,
    else its jsconfig.json: tsserver's order) is not `tsconfig` (none: `../../types/env/
    index.d.ts` of its typeRoots; one holding them not; a jsconfig.json nearer than the
    tsconfig.json holding them: `_home`), by `tsconfig`'s path: its program checks them
    (`builders.builder_for`), as `tsc -p` does. A jsconfig.json's as a
    tsconfig.json's: vscode-languageserver-node's .tsconfigrc.js, its root jsconfig.json's
    one file beside a solution tsconfig.json holding none, was asked of tsserver (5.4.5:
    no error where tsc -p jsconfig.json says its TS2322)."""
    held = {}
    for path in chosen:
        if _nearest(path, tsconfigs) != tsconfig.config:  # a jsconfig.json nearer too
            held[path] = tsconfig.config
    return held


def _noted(
    tsconfig: TsConfig, chosen: tuple[Path, ...], gated: bool, held: set[Path]
) -> tuple[str | None, tuple[Path, ...]]:
    """A configuration's note and the files its program checks of those `chosen`: none
    where it is an editor's (not `gated`: what the gate's programs, `held`, hold of it is
    theirs). One TypeScript cannot read stops the check where it is the gate's (its files
    cannot be known), and nothing where it is an editor's."""
    note: str | None = "; ".join(tsconfig.notes) or None
    if tsconfig.references and not tsconfig.files:
        note = f"references {len(tsconfig.references)} project(s)"
    if tsconfig.unreadable is not None:
        if gated:
            raise InvalidInput(tsconfig.unreadable)
        return editors_note(0, tsconfig.unreadable), ()
    if not gated:
        return editors_note(len([p for p in chosen if p not in held])), ()
    return note, chosen


def _homes(
    tsconfigs: dict[Path, TsConfig],
    gated: dict[Path, TsConfig],
    held: set[Path],
    owners: dict[Path, Path],
) -> dict[Path, Path]:
    """Each file's home (`_home`) among the gate's programs (`gated`, else any), whatever
    the order (before, site/jsconfig.json, sorted first, took the root tsconfig's src/a.ts
    its page.js imports); a solution's files (`owners`) are its owners'. A file a gate
    program of another name holds (`held`: tsconfig.test.json's) is no editor's
    tsconfig.json's: none here, the first such program takes it."""
    return {
        p: c
        for c, t in tsconfigs.items()
        for p in t.files
        if p not in owners and (_home(p, gated) or (p not in held and _home(p, tsconfigs))) == c
    }


def _home(path: Path, tsconfigs: dict[Path, TsConfig]) -> Path | None:
    """The configuration whose program checks `path`: the nearest tsconfig.json above it
    that holds it, else the nearest jsconfig.json that does. A jsconfig.json beside a
    tsconfig.json's files is an editor's aid, the tsconfig.json the gate (`tsc -p .`):
    scripts/x.js under scripts/jsconfig.json (no checkJs) and the root tsconfig.json
    (checkJs, include scripts) was the jsconfig's after 90f5a8d, its TS2322 not said."""
    holding = [c for d in path.parents for n in CONFIG_NAMES if (c := d / n) in tsconfigs]
    holding = [c for c in holding if path in tsconfigs[c].files]
    return next((c for c in holding if c.name == "tsconfig.json"), next(iter(holding), None))


def _nearest(path: Path, tsconfigs: dict[Path, TsConfig]) -> Path | None:
    """The configuration of `tsconfigs` nearest above `path` (a folder's tsconfig.json, else
    its jsconfig.json: tsserver's order)."""
    return next((c for d in path.parents for n in CONFIG_NAMES if (c := d / n) in tsconfigs), None)


def _unchecked(ws: Workspace, tsconfig: TsConfig) -> set[Path]:
    """The declaration files of `tsconfig`'s program outside its root files that its gate
    leaves out: git ignores them or they are build output (`dist/index.d.ts`), and tsc
    reports no error in them (skipLibCheck). Every other one is checked, as `tsc -p` checks
    it: a `/// <reference path>`'s `extra/shim.d.ts`, a typeRoots package's `index.d.ts`
    (their errors said, their edits the files changed that break their users)."""
    if not tsconfig.skip_lib_check:
        return set()
    return {p for p in tsconfig.declarations if ws.ignore(p)}


def _tsd_said(folders: set[Path], files: list[Path]) -> list[ProjectScope]:
    """A line of the scope per folder of tsd's tests among `files`, saying why they are not
    checked (execa's 565 were counted outside the gate, with no word of tsd)."""
    note = (
        "not checked: tsd's tests, which tsd checks with its own assertions (`expectError`, "
        "`expectType`) that lspd does not run (`lspd check --all` checks them with "
        "TypeScript's rules)"
    )
    tests = _tsd_tests(files, folders)
    said = {max(folders & {*p.parents}, key=lambda d: len(d.parts)) for p in tests}
    return [ProjectScope("typescript", f, None, (), note, unrun=True) for f in sorted(said)]


def _tsd_tests(files: Iterable[Path], folders: set[Path]) -> set[Path]:
    """Of `files` (a program's, or those no tsconfig claims: p-map's root index.test-d.ts),
    tsd's tests (`tsc_scripts.tsd_folders`): tsd checks them, its `expectError` holding
    their errors, not tsc."""
    tests = (p for p in files if p.name.endswith(TSD_TESTS))
    return {p for p in tests if not folders.isdisjoint(p.parents)}


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
