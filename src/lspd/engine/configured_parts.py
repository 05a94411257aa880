"""A commit's result under its own configuration where two checkers share the gate
(TypeScript's files and Python's, a configuration edited since, no result kept under the
commit's at hand): each checker's part made on its own, then merged into one result.

- a part whose checker's configuration was edited: that checker's files as
  `engine/configured.py` makes them for a gate it judges alone (TypeScript's by each
  project's tsc -p on a copy, basedpyright's by a server rooted at a copy, mypy's in its
  copy), under the rules that make it sound there;
- a part whose checker's configuration was not: the dirty tree's way (`overlaid_state`
  with the part's changed files at the commit's texts, the work tree's check for the rest):
  its checker reads the same configuration at the commit and now.

Sound because no checker reads another's configuration (tsc no pyright table, basedpyright
and mypy no tsconfig): a part's result is its checker's alone. Where one part cannot be
made soundly (a pyright `include` edited, a TypeScript file no tsconfig holds beside a
tsconfig edit), the other part is made and compared all the same, and a stop says that
part's files were not compared at the commit (`Stop.why`): what they say now is not known
new there, save what no text of the commit can have said (`ops/changes._unseen`). Before,
the whole question was refused: the stop gate then let the other part's new errors
through. A result without that part's files and no stop, read back by every later
question (the hooks, the stop gate), would call their errors introduced; the work tree's
would call them unchanged. Such a result stands only while the configurations stay as
edited (`committed.py`: never saved). Where no part can be made, or a configuration is no
part's, the question is refused, naming why.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from lspd.engine.check_state import CheckState
from lspd.engine.committed_notes import configured
from lspd.engine.configured import (
    Unconfigured,
    configured_how,
    configured_state,
    pyright_configs,
    script_sources,
    unbuilt_reason,
)
from lspd.engine.kept import StateKey
from lspd.engine.mypy_configured import mypy_configured
from lspd.engine.overlaid_state import Held, overlaid_state
from lspd.engine.program_data import DataNotChecked, data_changed, data_state, data_then
from lspd.engine.python_affected import PYTHON
from lspd.engine.python_mirror import CONFIGS
from lspd.engine.python_sides import python_sides
from lspd.engine.results import FileResult
from lspd.engine.revisions import Delta
from lspd.engine.stops import MYPY, PYTHON_PART, TSC, TYPESCRIPT_PART, Stop
from lspd.workspace import Workspace
from lspd.workspace.mypy_files import CONFIG_FILES
from lspd.workspace.pyright_baseline import is_baseline
from lspd.workspace.pyright_scope import CONFIG_JSON
from lspd.workspace.scope import GateScope

R = TypeVar("R", bound=FileResult)
Texts = Mapping[Path, str | None]


class Unmade(Exception):
    """A part of the commit's state that cannot be made soundly here: why."""


@dataclass(frozen=True)
class Disk:
    """The work tree's check as a part not configured anew keeps it: each file's result
    (by its path as shown; files the commit's gate lacks left out), its checkers' stops,
    and the files it checked."""

    files: Mapping[str, FileResult]
    stops: Sequence[Stop]
    checked: Collection[Path]


@dataclass
class Made:
    """The commit's state: the results made at it (`made`), every file's (`files`, by its
    path as shown: made, or the work tree's where nothing differs), its checkers' stops,
    and the files a held part asked the project's servers, in order (`asked`: the disk's
    second sample asks again those that differ, `second_sample.disk_again`)."""

    made: dict[Path, FileResult] = field(default_factory=dict)
    files: dict[str, FileResult] = field(default_factory=dict)
    stops: list[Stop] = field(default_factory=list)
    asked: list[Path] = field(default_factory=list)


@dataclass(frozen=True)
class _Part:
    """One checker's files of the gate (`files`), its changed files' texts at the commit
    (`texts`, deleted ones among them), its configurations edited since, at the commit."""

    name: str  # what the refusal calls it
    files: frozenset[Path]
    texts: Texts
    then: Mapping[Path, str | None]
    # Another side's changed files' texts at the commit, held for this one's importers
    # (basedpyright's script importing a module of mypy's project): not this part's files.
    beside: Texts = field(default_factory=dict)

    def all(self) -> set[Path]:
        return set(self.files) | set(self.texts)


async def parts_state(
    ws: Workspace,
    key: StateKey,
    scope: GateScope,
    then: Mapping[Path, str | None],
    delta: Delta,
    disk: Disk,
    held: Held[R],
    memory: CheckState[R],
) -> Made:
    """The commit's state under its configuration (`then`: the configurations differing
    from the disk's, at the commit; `delta`: the files differing, their texts there): one
    checker judging the gate, `configured_state`'s; two, each one's part (the module's
    rules). Raises `Unconfigured` where none can be made soundly here."""
    if key.commit == "session" or configured_how(ws, scope, then) is not None:
        found, stops = await configured_state(ws, key, scope, then, delta, held)
        return Made(dict(found), {r.path: r for r in found.values()}, stops)
    try:
        python, typescript = _parts(ws, scope, then, delta)
    except Unmade as why:
        raise Unconfigured(f"{configured(ws, key)} ({why})") from why
    made, unmade = Made(), []
    try:
        await _python(ws, python, held, memory, disk, made)
    except Unmade as why:
        unmade.append(_not_made(ws, made, python, str(why)))
    try:
        await _typescript(ws, typescript, scope, delta, held, memory, disk, made)
    except (Unmade, DataNotChecked) as why:
        unmade.append(_not_made(ws, made, typescript, str(why)))
    if len(unmade) == sum(bool(part.all()) for part in (python, typescript)):
        raise Unconfigured(f"{configured(ws, key)} ({'; '.join(unmade)})")  # nothing made
    return made


def _not_made(ws: Workspace, made: Made, part: _Part, why: str) -> str:
    """`part` of the commit's state not made (`why`): none of its files' results are the
    commit's (a held part's, merged before its JSON modules failed, left out too), and a
    stop says they were not compared there. Before, the whole question was refused, the
    other part's errors not compared either: a stop gate then let 5 new errors through."""
    files = part.all()
    shown = {ws.display(p) for p in files}
    made.made = {path: r for path, r in made.made.items() if path not in files}
    made.files = {path: r for path, r in made.files.items() if path not in shown}
    made.stops = [s for s in made.stops if not s.files & shown]
    made.stops.append(Stop(part.name, (), frozenset(shown), frozenset(), why))
    return why


def _parts(
    ws: Workspace, scope: GateScope, then: Mapping[Path, str | None], delta: Delta
) -> tuple[_Part, _Part]:
    """The gate's Python part and its other (TypeScript's) part, each with its changed
    files' texts at the commit and its configurations edited; `Unmade` for a configuration
    neither checker's."""
    gate = set(scope.files)
    gone = {p for p, t in delta.after.items() if t is None}  # deleted since: they come back
    texts = {p: t for p, t in delta.before.items() if p in gate or p in gone}
    py_then = {p: t for p, t in then.items() if _python_config(p)}
    ts_then = {p: t for p, t in then.items() if not _python_config(p)}
    if others := sorted(p for p in ts_then if p.suffix != ".json"):
        raise Unmade(f"{ws.display(others[0])} is no configuration of one checker lspd knows")
    python = frozenset(p for p in gate if p.suffix in PYTHON)
    py_texts = {p: t for p, t in texts.items() if p.suffix in PYTHON}
    ts_texts = {p: t for p, t in texts.items() if p.suffix not in PYTHON}
    return (
        _Part(PYTHON_PART, python, py_texts, py_then),
        _Part(TYPESCRIPT_PART, frozenset(gate - python), ts_texts, ts_then),
    )


def _python_config(path: Path) -> bool:
    """Whether `path` is the Python part's configuration by its name (the others: a
    tsconfig, a JSON file one extends, a package.json; any other is neither's)."""
    return is_baseline(path) or path.name in (*CONFIGS, *CONFIG_FILES)


def file_part(
    ws: Workspace, scope: GateScope, then: Mapping[Path, str | None], path: Path
) -> tuple[GateScope, dict[Path, str | None]]:
    """The gate and the configurations edited that decide `path`'s state at the commit
    (`diagnostics FILE --baseline`): where two checkers share the gate, its own checker's
    part and that checker's configurations (none edited: its state is the held texts', as
    a dirty tree's), so `configured_how` answers for that part alone; where mypy and
    basedpyright share the Python part, its own checker's side (`python_sides`); else as
    given."""
    if configured_how(ws, scope, then) is not None:
        return scope, dict(then)
    if any(not _python_config(p) and p.suffix != ".json" for p in then):
        return scope, dict(then)  # a configuration of neither part: refused as before
    python = path.suffix in PYTHON
    files = tuple(p for p in scope.files if (p.suffix in PYTHON) == python)
    own = {p: t for p, t in then.items() if _python_config(p) == python}
    part = replace(scope, files=files)
    if python and own and configured_how(ws, part, own) is None:
        for side in python_sides(ws, {*files, path}, own) or ():
            if path in side.files:  # its own checker's files and configurations
                return replace(scope, files=tuple(f for f in files if f in side.files)), side.then
    return part, own


async def _python(
    ws: Workspace, part: _Part, held: Held[R], memory: CheckState[R], disk: Disk, made: Made
) -> None:
    """The Python part: under the commit's configuration (mypy's copy, a basedpyright
    rooted at a copy) where its configuration was edited, else with the texts held; where
    mypy and basedpyright share it, each one's side so (`engine/python_sides.py`)."""
    if not part.then:
        await _held(ws, part, held, memory, disk, made, MYPY)
        return
    gate, then = sorted(part.files), dict(part.then)
    configs: Mapping[Path, str | None] | None = mypy_configured(ws, gate, then)
    if configs is None:
        configs = pyright_configs(ws, gate, then)
    if configs is None and (sides := python_sides(ws, part.all(), then)) is not None:
        for side in sides:  # each checker's files on their own (`engine/python_sides.py`)
            texts = {p: t for p, t in part.texts.items() if p in side.files}
            # mypy's changed modules as the commit has them, for basedpyright's importers
            beside = {p: t for p, t in part.texts.items() if p not in texts}
            beside = beside if side.checker != MYPY else {}
            one = _Part(part.name, side.files & part.files, texts, side.then, beside)
            if side.then:
                await _python(ws, one, held, memory, disk, made)
            else:
                await _held(ws, one, held, memory, disk, made, side.checker)
        return
    if configs is None:
        raise Unmade(_python_unmade(ws, part.name, part.then))
    asked = sorted(p for p in part.all() if part.texts.get(p, "") is not None)
    stops: list[Stop] = []  # the commit's run's own (mypy's)
    results = await held.asked(asked, {**part.beside, **part.texts, **configs}, stops)
    found = {ws.resolve(r.path): r for r in results}
    found = {p: r for p, r in found.items() if not part.beside or p in part.all()}
    _merge(ws, made, found, _own_stops(part, stops))


def _python_unmade(ws: Workspace, name: str, then: Texts) -> str:
    """Why a Python part (or side) whose configurations `then` were edited is not made."""
    named = ", ".join(ws.display(p) for p in sorted(then))
    return (
        f"{named}, {name}' configuration, chooses other files at the commit, names "
        "paths outside the root, or is read by mypy and basedpyright both"
    )


def _uncovered(ws: Workspace, scope: GateScope, files: Collection[Path]) -> str | None:
    """Why the TypeScript part is not made where one of its `files` is no tsconfig's."""
    projects = [p for p in scope.projects if p.language == "typescript" and p.config is not None]
    if uncovered := sorted(set(files) - {p for project in projects for p in project.files}):
        return f"{ws.display(uncovered[0])} is in no tsconfig's project"
    return None


def file_stop(
    ws: Workspace, scope: GateScope, part: GateScope, own: Texts, path: Path
) -> Stop | None:
    """Where `path`'s part of a gate two checkers share (`part`, `own`: `file_part`'s) cannot
    be made at the commit, the stop `check --baseline` says for it (`parts_state`), of this
    file: its errors are not known new. None where the gate is one checker's (refused)."""
    if set(part.files) == set(scope.files):
        return None
    if path.suffix in PYTHON:
        why = _python_unmade(ws, PYTHON_PART, own)
        return Stop(PYTHON_PART, (), frozenset({ws.display(path)}), frozenset(), why)
    named = ", ".join(ws.display(p) for p in sorted(own))
    why = _uncovered(ws, part, part.files) or f"{named} cannot be checked on a copy here"
    return Stop(TYPESCRIPT_PART, (), frozenset({ws.display(path)}), frozenset(), why)


async def _typescript(
    ws: Workspace,
    part: _Part,
    scope: GateScope,
    delta: Delta,
    held: Held[R],
    memory: CheckState[R],
    disk: Disk,
    made: Made,
) -> None:
    """The other part: each tsconfig project's tsc -p on a copy holding the commit's texts
    and configurations where one was edited (every file of the part a tsconfig's), else
    with the texts held."""
    data = {p: delta.before[p] for p in data_changed(ws, delta.before)}
    if not part.then:
        await _held(ws, part, held, memory, disk, made, TSC)
        if data:  # a JSON module a program reads: tsc -p's answer on a copy, as `committed`
            texts = {**part.texts, **data}
            kept = [s for s in made.stops if s.checker == TSC]
            tsc, at = await data_then(ws, texts, list(data), part.files, held, kept)
            made.stops = [s for s in made.stops if s.checker != TSC]
            _merge(ws, made, tsc, at)
        return
    if any(p.name == CONFIG_JSON for p in part.then):
        raise Unmade(f"{CONFIG_JSON} is no TypeScript configuration")
    if (uncovered := _uncovered(ws, scope, part.files)) is not None:
        raise Unmade(uncovered)
    if (why := unbuilt_reason(ws, scope, part.then)) is not None:
        raise Unmade(why)
    # the program's files at the commit: tsc's listing
    wanted = part.all() | script_sources(ws.root)
    stops: list[Stop] = []
    found = await data_state(ws, {**part.texts, **data, **part.then}, wanted, held, stops)
    _merge(ws, made, dict(found), stops)


async def _held(
    ws: Workspace,
    part: _Part,
    held: Held[R],
    memory: CheckState[R],
    disk: Disk,
    made: Made,
    checker: str,
) -> None:
    """A part whose checker reads the same configuration at the commit: its changed files'
    commit texts overlaid on the work tree's check (`overlaid_state`, as a dirty tree's
    result is made), the work tree's result of every other file of the part, and its
    stops where the files held are none of theirs (`checker`: the part's, tsc or mypy)."""
    wanted = part.all()
    shown = {ws.display(p) for p in part.texts}
    for path, result in disk.files.items():
        if ws.resolve(path) in part.files and path not in shown:
            made.files[path] = result
    made.stops += [s for s in disk.stops if s.checker == checker and not s.files & shown]
    if not part.texts and not part.beside:
        return
    texts = {**part.beside, **part.texts}
    state = await overlaid_state(ws, texts, disk.checked, held, memory, only=wanted)
    found = {p: r for p, r in state.results.items() if p in wanted}
    _merge(ws, made, found, _own_stops(part, state.stopped))
    made.asked += state.asked  # with HEAD's texts held, as a dirty tree's: sampled again


def _own_stops(part: _Part, stops: Sequence[Stop]) -> list[Stop]:
    """`stops` but a mypy run's for the modules held beside a basedpyright side (mypy's
    side makes their state, its stops among it)."""
    return [s for s in stops if not (part.beside and s.checker == MYPY)]


def _merge(ws: Workspace, made: Made, results: Mapping[Path, R], stops: Sequence[Stop]) -> None:
    """`results` (made at the commit) and their checkers' `stops` into `made`."""
    for path, result in results.items():
        made.made[path] = result
        made.files[result.path] = result
    made.stops += stops
