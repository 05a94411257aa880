"""The files mypy checks in a mypy-gated project: its configuration's `files` (paths or
globs relative to the project, directories walked for `.py` / `.pyi`), less its `exclude`
regex; without `files`, those its pre-commit mypy hook passes mypy (`mypy_precommit`), else
the paths its own lint script runs mypy on (`mypy_scripts`), else the project's own
packages its per-module sections name where it keeps them apart (`mypy_path`, `src/`:
SQLAlchemy's lib/sqlalchemy), else every Python file of the project (what `mypy .`
checks), less `exclude`. The answer names the configuration that chose them.

Where `files` (or the hook, the script, the packages) choose part of the project, the
project's modules mypy follows into from them are the project's gate too
(`mypy_follow`): mypy reports their errors (`files = ["app/main.py"]` importing
`app.helper`: app/helper.py's `return "x"` is mypy's error, where lspd said "0 errors"),
found where mypy looks (`mypy_path`, its directory, a source's base folder, a folder the
environment's `.pth` files name: an editable install, svcs' tox running `mypy
tests/typing` with `src/svcs` reached through it). Their edits are changes of the
project (the gate's listing, its kept result's key, the texts a baseline's state holds);
a module nothing imports is none: mypy never checks it. The files whose imports were
read are kept (`MypyScope.read`): an edit of one can add or drop a module. A module git
ignores (a generated `_version.py`) is followed into as any other (mypy reads no
.gitignore), with or without `files`; an ignored file nothing imports (a `build/` copy)
is none."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.errors import InvalidInput
from lspd.workspace.files import stamp
from lspd.workspace.mypy_config import (
    MYPY,
    PYRIGHT,
    MypyConfig,
    choose,
    configures_checker,
    mypy_config_in,
    unconfigured,
    unconfigured_gate,
)
from lspd.workspace.mypy_config_read import names_found
from lspd.workspace.mypy_follow import module_of
from lspd.workspace.mypy_imports import ImportsRead
from lspd.workspace.mypy_nested import run_elsewhere
from lspd.workspace.mypy_packages import sections_packages
from lspd.workspace.mypy_precommit import PrecommitMypy, precommit_mypy, precommit_paths
from lspd.workspace.mypy_reach import reach, reach_note
from lspd.workspace.mypy_runs import Choice, also_note, configured_more, hooked_more, scripted_more
from lspd.workspace.mypy_scripts import script_configured, script_paths, script_targets
from lspd.workspace.mypy_walk import named_by, named_files, walked
from lspd.workspace.ty_config import label as ty_label

if TYPE_CHECKING:
    from lspd.workspace.workspace import Workspace

Stamp = tuple[int, int] | None  # `files.stamp`'s
EVERY = "no `files`: every Python file of the project"
IGNORING = "--ignore-missing-imports"  # the scope's note: nothing chose


@dataclass(frozen=True)
class MypyScope:
    """The files one mypy configuration chose."""

    directory: Path
    label: str
    files: tuple[Path, ...]
    note: str | None
    packages: tuple[str, ...] = ()  # without `files`: the packages mypy is pointed at
    read: tuple[tuple[Path, Stamp], ...] = ()  # the files whose imports chose what it follows
    options: tuple[str, ...] = ()  # the gate's mypy options changing what it reports
    configured: bool = False  # mypy run as its configuration's `files` say: given no targets
    imports: tuple[tuple[Path, ImportsRead], ...] = ()  # what was read of `read`'s imports
    ty_beside: bool = False  # ty judges beside mypy: the gate's files are ty's too
    # followed into under another module name than the file's as a source: given mypy by it
    renamed: tuple[tuple[Path, str], ...] = ()
    more: tuple[MypyScope, ...] = ()  # the gate's other runs of mypy (`mypy_runs`)

    @property
    def every_file(self) -> tuple[Path, ...]:
        """The files every run of the gate's mypy checks: the gate's."""
        if not self.more:
            return self.files
        return tuple(sorted({*self.files, *(p for run in self.more for p in run.files)}))


def mypy_scopes(
    directories: list[Path],
    files: list[Path],
    configured: str,
    restricted: bool,
    alone: bool = True,
    root: Path | None = None,
    python: Path | None = None,
    texts: Mapping[Path, str | None] | None = None,
) -> list[MypyScope]:
    """Of the `directories` holding a mypy configuration (`root` too where it holds none:
    mypy's defaults, where lspd.toml or the project's scripts choose mypy all the same:
    `mypy_config.unconfigured`), those mypy judges (with `alone`,
    those it judges alone: where both judge, the gate's scope is pyright's, but where ty is
    the other, whose files are taken to be mypy's), with the files
    of `files` (the walk's Python files) each configuration chose. `root` and `python` (the
    workspace's root and lspd.toml's `python`, its path from the root, not resolved) find
    the interpreter lspd runs mypy with (`mypy_python`), whose `.pth` files say where mypy
    finds modules; `texts`: a state's texts standing in for the disk's (HEAD's, a
    preview's), whose imports say which modules mypy follows into."""
    scopes = []
    for directory in sorted(set(directories)):
        config = mypy_config_in(directory)
        # mypy at the top all the same, or in a package below (`unconfigured_gate`)
        defaults = config is None and (
            directory == root or unconfigured_gate(directory, root, configured, restricted)
        )
        if config is None and not defaults:
            continue
        if config is not None and root is not None and run_elsewhere(directory, config, root):
            continue  # a mypyc build's configuration, say: no run of the gate reads it
        choice = choose(directory, configured, restricted)
        config = unconfigured(directory) if config is None else config
        if MYPY not in choice.checkers:
            continue
        if alone and PYRIGHT in choice.checkers and not (choice.ty_beside or choice.pyright_beside):
            continue
        inside = [p for p in files if directory in p.parents]
        if defaults:  # (a package below judged by its own script's mypy: its own)
            inside = _not_nested(directory, inside, root, configured, restricted)
        if not inside:  # pip's tests/typing/pyproject.toml, for a `--config-file`: no project
            continue
        picked = _chosen_by(directory, config, inside)
        label = config.label + (f" + {ty_label(directory)}" if choice.ty_beside else "")
        place = (directory, label, config, inside, root, python, texts, choice.ty_beside)
        more = tuple(_scope_of(*place, c) for c in picked.more)
        scope = _scope_of(*place, picked._replace(note=picked.note + also_note(picked.more)))
        read = (*scope.read, *(r for m in more for r in m.read))
        imports = (*scope.imports, *(i for m in more for i in m.imports))
        scopes.append(replace(scope, read=read, imports=imports, more=more))
    return scopes


def _scope_of(
    directory: Path,
    label: str,
    config: MypyConfig,
    inside: list[Path],
    root: Path | None,
    python: Path | None,
    texts: Mapping[Path, str | None] | None,
    ty_beside: bool,
    picked: Choice,
) -> MypyScope:
    """The scope of one run of mypy pointed at what `picked` chose of `inside`: what it
    walks of it (`mypy_walk`) and follows into from there (`mypy_reach`)."""
    chosen, note, packages, read_too, options, as_configured, named, _ = picked
    part = note != EVERY  # part of the project: mypy follows into the rest from them
    chosen = walked(directory, chosen, config.exclude, config.path, options, named)
    found, read, imports, renamed = reach(
        directory, config, chosen, inside, part, root, python, texts
    )
    note += "".join(f"; {line}" for line in reach_note(directory, found, chosen))
    read = (*read, *((path, stamp(path)) for path in read_too))
    kept = (packages, read, options, as_configured, imports)
    return MypyScope(directory, label, found, note, *kept, ty_beside, renamed)


def _not_nested(
    directory: Path, inside: list[Path], root: Path | None, configured: str, restricted: bool
) -> list[Path]:
    """Of `inside`, the files of no folder below `directory` configuring a checker (or a
    package below whose own script runs mypy: `unconfigured_gate`): mypy's defaults at a
    folder configuring none judge what nothing nearer judges (backend/'s own mypy.ini
    judges backend/, as `mypy_project.project_of` finds)."""
    configures: dict[Path, bool] = {directory: False}

    def nested(folder: Path) -> bool:
        if folder not in configures:
            gate = unconfigured_gate(folder, root, configured, restricted)
            own = configures_checker(folder) or gate
            configures[folder] = own or nested(folder.parent)
        return configures[folder]

    return [p for p in inside if not nested(p.parent)]


def _chosen_by(directory: Path, config: MypyConfig, inside: list[Path]) -> Choice:
    """What mypy is pointed at of `inside`: `files` (with those the pre-commit mypy hooks
    pass it), else the pre-commit mypy hooks, the lint script (and its options), the
    packages, all."""
    hook = precommit_mypy(directory)
    read = precommit_paths(directory)  # a hook written, or the CI running its stage, later
    if config.files:
        return _with_hooks(directory, config, hook, inside, read)
    taken = [] if hook is None else [p for p in inside if hook.takes(p)]
    if hook is not None and taken:  # (none: its hooks are another project's of the repository)
        note = f"no `files`: those {hook.label} passes mypy" + _with(hook.options)
        read += script_paths(directory)  # a script running mypy beside it, written later
        more, beside = _scripted_beside(directory, config, hook.options, inside, taken)
        chosen = [*taken, *more]
        found = Choice(chosen, note + beside, (), read, hook.options, named=frozenset(chosen))
        return hooked_more(hook, found, inside, directory)
    ran = () if hook is None or hook.path.parent != directory else hook.runs
    if hook is not None and ran and (chosen := named_by(directory, inside, ran)):
        note = f"no `files`: what {hook.label} runs mypy on: " + ", ".join(ran)
        note += _with(hook.runs_options)
        named = named_files(directory, chosen, ran)
        found = Choice(chosen, note, ran, read, hook.runs_options, named=named)
        return hooked_more(hook, found, inside, directory)
    read += script_paths(directory)  # a script running mypy, written later
    if (script := script_targets(directory)) is not None:
        note = f"no `files`: what {script.named} runs mypy on: " + ", ".join(script.paths)
        note += _with(script.options)
        chosen = named_by(directory, inside, script.paths)
        named = named_files(directory, chosen, script.paths)
        found = Choice(chosen, note, script.paths, read, script.options, named=named)
        return scripted_more(found, inside, directory)
    if packages := sections_packages(directory, config.mypy_path, config.modules, inside):
        note = "no `files`: the project's packages its sections name: " + ", ".join(packages)
        return Choice(named_by(directory, inside, packages), note, packages, read)
    return Choice(inside, EVERY, (), read)


def _with_hooks(
    directory: Path,
    config: MypyConfig,
    hook: PrecommitMypy | None,
    inside: list[Path],
    read: list[Path],
) -> Choice:
    """The configuration's `files`, and the files its pre-commit mypy hooks pass mypy
    beyond them (the hook's run ignores `files`: packaging's hook checks benchmarks/ and
    tasks/, its `files` name src, tests and noxfile.py, and an error there failed its CI
    where lspd said 0). Only where one run can stand for both: a hook of the project's own
    folder, giving mypy no option of its own, not ignoring missing imports (mirrors-mypy's
    default), and of those files the ones naming a module no other names (two examples'
    `main.py`: "Duplicate module named", where `files` alone are checked). A hook of its
    folder running mypy as the configuration says (`pass_filenames: false`, no path named)
    gives mypy its options (yarl's `--python-version=3.11`: its `distutils` import is no
    error there, and one under the 3.12 running mypy)."""
    chosen = named_by(directory, inside, config.files)
    named = named_files(directory, chosen, config.files)
    note = "files = " + ", ".join(config.files)
    taken = set(chosen)
    own = hook is not None and hook.path.parent == directory
    given = hook.configured if hook is not None and own else None
    read += script_paths(directory)  # a script running mypy as configured, written later
    script = None
    if given is None and (script := script_configured(directory)) is not None:
        own_file = script.config is None or names_found(directory, script.config)
        given = script.options if own_file else None  # (another configuration: not read)
        script = script if own_file else None
    given = given or ()  # the gate's run as configured gives options: so does lspd's
    note += _with(given)
    found = Choice(chosen, note, (), read, given, True, named)
    if hook is None or not own:
        return configured_more(hook, script, found, directory)
    ignoring = hook.ignores_missing and IGNORING not in config.flags
    if _beyond(hook.options, config) or ignoring:
        return configured_more(hook, script, found, directory)
    more = [p for p in inside if hook.takes(p) and p not in taken]
    names = Counter(module_of(p, config, directory) for p in [*chosen, *more])
    more = [p for p in more if names[module_of(p, config, directory)] == 1]
    if not more or given:  # (one run: the hooks' options differ)
        return configured_more(hook, script, found, directory)
    note += f", and the {len(more)} more {hook.label} passes mypy"
    return Choice([*chosen, *more], note, (), read, named=named.union(more))


def _scripted_beside(
    directory: Path,
    config: MypyConfig,
    options: tuple[str, ...],
    inside: list[Path],
    taken: list[Path],
) -> tuple[list[Path], str]:
    """The files a lint script's mypy command checks that the pre-commit hooks (passing
    `taken` mypy with `options`) leave out, where one run stands for both: the script gives
    mypy no option beyond the hooks' but those the configuration sets itself, and no file
    of them names a module another does. marshmallow's hook excludes tests/mypy_test_cases/,
    which its tox.ini checks with `mypy --warn-unused-ignores` (its `warn_unused_ignores =
    true`): an error there failed its CI where lspd listed the file as no gate's. With
    the scope's note's words for them."""
    script = script_targets(directory)
    if script is None or _beyond(script.options, config) != _beyond(options, config):
        return [], ""
    hooked = set(taken)
    more = [p for p in named_by(directory, inside, script.paths) if p not in hooked]
    names = Counter(module_of(p, config, directory) for p in [*taken, *more])
    more = [p for p in more if names[module_of(p, config, directory)] == 1]
    return more, f", and the {len(more)} more {script.named} runs mypy on" if more else ""


def _beyond(options: tuple[str, ...], config: MypyConfig) -> frozenset[str]:
    """A command's `options` other than those its configuration sets itself (`flags`)."""
    return frozenset(options) - config.flags


def _with(options: tuple[str, ...]) -> str:
    """The options a scope's mypy is given, as its note says them."""
    return f" (with {' '.join(options)})" if options else ""


def gate_mypy_scopes(
    ws: Workspace, directories: list[Path], files: list[Path], alone: bool = True
) -> list[MypyScope]:
    """`mypy_scopes` of the gate (those mypy judges `alone`) in the workspace `ws`: the `.pth`
    files read in the environment lspd runs mypy in, lspd.toml's `python` as
    docs/configuration.md says it (relative to the root, anywhere: `retool.settings_of`);
    a configuration's error named from the root, as every path lspd shows."""
    python = None if ws.config.python is None else ws.root / ws.config.python
    try:
        configured = ws.config.python_checker
        return mypy_scopes(directories, files, configured, ws.restricted, alone, ws.root, python)
    except InvalidInput as exc:
        raise InvalidInput(str(exc).replace(f"{ws.root}/", "")) from None
