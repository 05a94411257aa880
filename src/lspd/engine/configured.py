"""A commit's result under its own checker configuration, where the disk's was edited since
and no result kept under the commit's is at hand (a daemon started after the edit, a fresh
state directory): the commit's texts and configuration checked where the disk's
configuration is not read, by the checker that judges the gate's files.

- mypy alone: lspd's copy of the project for dmypy holds the configuration's text as a
  source file's (`engine/mypy_configured.py`).
- TypeScript alone (every file of the gate in a tsconfig's project, every configuration
  edited a tsconfig or a JSON file one extends): each project's own `tsc -p` on a copy
  holding the commit's texts and configurations (`engine/program_data.data_state`,
  `workspace/tsc_copy.py`), TypeScript 5 and 7 alike. Its files are the program's at the
  commit (`--listFiles`): a file the edit left out of `include` keeps its errors there and
  is fixed now (`ops/since_kept.left_gate`), one it took in had none there.
- basedpyright alone (every file of the gate answered by a basedpyright reading imports from
  the disk, every configuration edited a pyrightconfig.json or a pyproject.toml with a
  pyright table naming at the commit the files the disk's names: `include`, `exclude`,
  `extends`; or its baseline, `.basedpyright/baseline.json`, any text or none): a server
  of the same definition rooted at a copy holding the commit's texts and configuration
  (`engine/python_mirror.py`), asked every file of the gate.

Two checkers sharing the gate (TypeScript's files and Python's): each one's part by these
rules, or with the commit's texts held where its configuration was not edited
(`engine/configured_parts.py`). Otherwise (a configuration choosing other files, the
session baseline) `Unconfigured`: the caller refuses, saying what to do
(`committed_notes.configured`).
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from lspd.engine.committed_notes import configured
from lspd.engine.kept import StateKey
from lspd.engine.mypy_configured import mypy_configured
from lspd.engine.mypy_project import by_project
from lspd.engine.overlaid_state import Held
from lspd.engine.program_data import DataNotChecked, data_changed, data_state
from lspd.engine.python_mirror import CONFIGS
from lspd.engine.results import FileResult
from lspd.engine.revisions import Delta, is_manifest
from lspd.engine.stops import Stop
from lspd.errors import InvalidInput, LspdError
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.pyright_baseline import is_baseline
from lspd.workspace.pyright_scope import CONFIG_JSON, _plain_json
from lspd.workspace.scope import PYRIGHT_SERVERS, GateScope
from lspd.workspace.tsc_copy_layout import COPIED, SKIPPED

R = TypeVar("R", bound=FileResult)
MYPY, TSC, PYRIGHT = "mypy", "tsc", "basedpyright"  # the checkers `Configured` names
FILES_KEYS = ("include", "exclude", "extends")  # what chooses a pyright project's files


class Unconfigured(LspdError):
    """No result of the commit under its own configuration can be made here."""


@dataclass(frozen=True)
class Configured:
    """How a commit's state is checked under its own configuration: by which checker
    (`MYPY`: its copy; `TSC`: tsc -p on a copy; `PYRIGHT` or "pyright", the project's own:
    a server rooted at a copy), and
    the configurations to hold at their text there."""

    checker: str
    configs: dict[Path, str | None]


def configured_how(
    ws: Workspace, scope: GateScope, then: Mapping[Path, str | None]
) -> Configured | None:
    """How the commit's state is checked under its configuration (`then`: the
    configurations differing from the disk's, at the commit), or None where it cannot be
    soundly here (`configured_state`'s rules)."""
    gate = sorted(scope.files)
    if (configs := mypy_configured(ws, gate, dict(then))) is not None:
        return Configured(MYPY, dict(configs))
    if _typescript_alone(scope, then):
        return Configured(TSC, dict(then))
    if (held := pyright_configs(ws, gate, then)) is not None:
        # named as the server answering: basedpyright, or the project's own pyright
        return Configured(ws.session_for(gate[0]).definition.name, held)
    return None


async def configured_state(
    ws: Workspace,
    key: StateKey,
    scope: GateScope,
    then: Mapping[Path, str | None],
    delta: Delta,
    held: Held[R],
) -> tuple[dict[Path, R], list[Stop]]:
    """The results of the commit's state (`delta`: the files differing from it, their texts
    there; `then`: the configurations differing from the disk's, at the commit) under the
    commit's configuration, and the stops of its checker there. Raises `Unconfigured` where
    none can be made soundly here."""
    gate = set(scope.files)
    gone = {p for p, t in delta.after.items() if t is None}  # deleted since: they come back
    texts = {p: t for p, t in delta.before.items() if p in gate or p in gone}
    asked = sorted(p for p in gate | gone if texts.get(p, "") is not None)
    how = None if key.commit == "session" else configured_how(ws, scope, then)
    if how is None:  # the session's configurations' texts are lspd's first reads: none here
        raise Unconfigured(configured(ws, key))
    if how.checker == TSC:
        if (why := unbuilt_reason(ws, scope, then)) is not None:
            raise Unconfigured(f"{configured(ws, key)} ({why})")
        # The program's files at the commit are tsc's listing: every source of the root may be.
        wanted = gate | gone | script_sources(ws.root)
        stopped: list[Stop] = []  # tsc's at the commit: a JSON module's, its options errors
        try:
            data = {p: delta.before[p] for p in data_changed(ws, delta.before)}
            found = await data_state(ws, {**texts, **data, **how.configs}, wanted, held, stopped)
        except DataNotChecked as error:
            raise Unconfigured(f"{configured(ws, key)} ({error})") from error
        return found, stopped
    stops: list[Stop] = []  # the commit's run's own, under its configuration (mypy's)
    results = await held.asked(asked, {**texts, **how.configs}, stops)
    return {ws.resolve(r.path): r for r in results}, stops


def _typescript_alone(scope: GateScope, then: Mapping[Path, str | None]) -> bool:
    """Whether every file of the gate is a tsconfig project's and every configuration edited
    is TypeScript's (a tsconfig, a JSON configuration it extends)."""
    if not then or any(p.suffix != ".json" or p.name == CONFIG_JSON for p in then):
        return False
    projects = [p for p in scope.projects if p.language == "typescript" and p.config is not None]
    covered = {path for project in projects for path in project.files}
    return bool(scope.files) and set(scope.files) <= covered


def unbuilt_reason(ws: Workspace, scope: GateScope, then: Mapping[Path, str | None]) -> str | None:
    """Why a commit's package.json (a workspace package's manifest, `revisions.is_manifest`)
    is not checked on a copy here, or None: where a tsconfig references projects, tsc -p
    reads a referenced package through its built outputs (`"types": "./dist/index.d.ts"`),
    which a copy of the sources lacks (tsc -b builds them first; the servers read their
    sources), so a copy's tsc -p said `Cannot find module '@demo/core'` at the commit, a
    phantom fix."""
    edited = [p for p in then if p.name == "package.json"]
    configs = [ws.resolve(p.config) for p in scope.projects if p.config is not None]
    if not edited or not any(_references(config) for config in configs):
        return None
    return (
        f"{ws.display(edited[0])} is read by module resolution, and its programs reference "
        "projects whose outputs a copy does not build"
    )


def manifest_held(ws: Workspace, scope: GateScope, path: Path) -> str | None:
    """Why a preview cannot hold `path`, a workspace package's package.json whose fields
    module resolution reads changed, at its proposed text on tsc's copy (None: it can, and
    each TypeScript project's own `tsc -p` on a copy holding it answers the proposal,
    `program_data.data_state`): every file of the gate must be a tsconfig project's, and no
    tsconfig may reference projects (a copy lacks their built outputs: `unbuilt_reason`)."""
    if not is_manifest(path) or not _typescript_alone(scope, {path: None}):
        return f"{ws.display(path)} is no package.json of a gate TypeScript alone judges"
    return unbuilt_reason(ws, scope, {path: None})


def _references(config: Path) -> bool:
    """Whether the tsconfig at `config` references other projects."""
    try:
        data = json.loads(_plain_json(read_text(config) or "{}"))
    except ValueError:
        return True  # not read: not known to reference none
    return isinstance(data, dict) and bool(data.get("references"))


def script_sources(root: Path) -> set[Path]:
    """The TypeScript and JavaScript files under `root` (node_modules and the like left out)."""
    found: set[Path] = set()
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED and d != "node_modules"]
        found.update(Path(top, n) for n in files if n.endswith(COPIED) and not n.endswith(".json"))
    return found


def pyright_configs(
    ws: Workspace, gate: Collection[Path], then: Mapping[Path, str | None]
) -> dict[Path, str | None] | None:
    """The configurations to hold at their commit's text for a basedpyright rooted at a copy,
    where that is sound: every file of the gate answered by such a server (none by mypy),
    each configuration edited a pyright configuration there and here, naming the same files
    and no path leaving for the copy's parent; else None."""
    if not then or not gate:
        return None
    for path in gate:
        definition = ws.handler(path)
        if definition is None or definition.name not in PYRIGHT_SERVERS:
            return None
        if not definition.disk_imports:
            return None
    try:
        if by_project(ws, list(gate)):
            return None  # mypy judges some: it reads the disk's configuration
    except InvalidInput:
        return None
    held: dict[Path, str | None] = {}
    for path, text in then.items():
        if is_baseline(path):  # what it silences, wherever: the commit's held (None: none)
            held[path] = text
            continue
        now = read_text(path)
        if text is None or now is None or path.name not in CONFIGS or ".." in text:
            return None
        was, is_ = _pyright_table(path, text), _pyright_table(path, now)
        if was is None or is_ is None or any(was.get(k) != is_.get(k) for k in FILES_KEYS):
            return None
        held[path] = text
    return held


def _pyright_table(path: Path, text: str) -> dict[str, Any] | None:
    """The pyright settings of a configuration's text (None: none, or unreadable)."""
    try:
        if path.name == CONFIG_JSON:
            data = json.loads(_plain_json(text))
            return data if isinstance(data, dict) else None
        tool = tomllib.loads(text).get("tool")
    except (ValueError, tomllib.TOMLDecodeError):
        return None
    if not isinstance(tool, dict):
        return None
    table = tool.get("basedpyright", tool.get("pyright"))
    return table if isinstance(table, dict) else None
