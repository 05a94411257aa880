"""`diagnostics` of a TypeScript configuration no server holds: a tsconfig.json, a
configuration one extends under any name, a workspace package's package.json (issue 40).

No language server answers a `.json` file, so `diagnostics tsconfig.json --baseline HEAD`
was refused ("no language server handles tsconfig.json (.json)") while `check --baseline
HEAD` said the TS5108 its edit put there. Now its errors are tsc's own in it: the errors
`tsc -p --listFilesOnly` says in that file for each program of the gate reading it (the
listing `lspd check` reads a TypeScript 7 configuration's errors from, `ops/tsconfig.py`;
TypeScript 5's too). tsc says no error in a package.json no program imports (module
resolution's errors are its importers'): none, and the answer's note says where its edit's
errors are (`check --baseline`).

With a baseline, its errors then: none where no configuration differs from it and no file
came or went since (the same listing, so the same errors); else each program's own `tsc -p`
on a copy holding the baseline's texts and configurations (`program_data.configs_then`):
the configuration errors it says there; where it could not say, the question is refused,
saying what answers (`check --baseline`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.committed import NotKept
from lspd.engine.kept_memory import configs_at
from lspd.engine.named import Named, named
from lspd.engine.native_program import configuration
from lspd.engine.program_data import configs_then
from lspd.engine.revisions import differences, is_configuration, is_manifest, listing
from lspd.ops.changes import compare
from lspd.ops.changes_page import Kept, introduced_page
from lspd.ops.kept_found import found_in
from lspd.ops.models import Diagnostic, DiagnosticsResult
from lspd.ops.tsconfig import config_diagnostic
from lspd.servers.registry import node_executable
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope
from lspd.workspace.toolchain import NATIVE
from lspd.workspace.tsc_native import ConfigError, listed, tsc_script
from lspd.workspace.tsconfig_extends import extended
from lspd.workspace.typescript_package import find_typescript


@dataclass(frozen=True)
class ConfigFile:
    """A configuration the gate's TypeScript reads: the tsconfigs reading it (none: a
    package.json, which module resolution reads), and the server and toolchain of the first
    program's files (the answer names them)."""

    path: Path
    configs: tuple[Path, ...]
    server: str
    toolchain: str | None
    native: bool


async def config_file(ws: Workspace, path: Path) -> ConfigFile | None:
    """`path` as a configuration of the gate's TypeScript programs; None where it is none
    (a server's file, another checker's configuration, no TypeScript program in the gate)."""
    if path.suffix != ".json" or ws.handler(path) is not None:
        return None  # a TypeScript configuration is JSON (the gate's scope is not read)
    scope = await gate_scope(ws)
    if not is_configuration(path, [p for p, _ in scope.read]):
        return None
    projects = [p for p in scope.projects if p.language == "typescript" and p.config and p.files]
    configs = [ws.resolve(p.config) for p in projects if p.config is not None]
    reading = [c for c in configs if c == path or path in extended(c, read_text)]
    if not projects or (not reading and not is_manifest(path)):
        return None
    first = projects[configs.index(reading[0])] if reading else projects[0]
    source = first.files[0]
    handler = ws.definition_for(source)
    definition, toolchain = ws.pool.adapted(handler, ws.project_root(source, handler))
    label = None if toolchain is None else toolchain.label()
    native = definition.name == NATIVE
    return ConfigFile(path, tuple(dict.fromkeys(reading)), definition.name, label, native)


async def errors_now(ws: Workspace, found: ConfigFile) -> list[Diagnostic]:
    """tsc's errors in the configuration now, from each program reading it (`tsc -p
    --listFilesOnly`: TypeScript 7's the check's own kept listing)."""
    items: list[Diagnostic] = []
    for config in found.configs:
        if (tsc := _tsc(ws, config)) is None:
            continue
        if found.native:
            errors = await configuration(ws, tsc, config)
        else:
            errors = tuple((await asyncio.to_thread(listed, tsc, config))[1])
        for error in errors:
            if error.file == found.path and (d := config_diagnostic(error)) not in items:
                items.append(d)
    return items


async def config_page(
    ws: Workspace,
    found: ConfigFile,
    now: DiagnosticsResult,
    baseline: str,
    offset: int,
    limit: int,
) -> DiagnosticsResult:
    """`diagnostics CONFIG --baseline`: `now` (every error of the configuration) against its
    errors at the baseline, a page of what is new; `NotKept` where those cannot be said."""
    asked = await named(ws, baseline)
    before, note, changed, then = await _then(ws, found, now, asked)
    was = now.model_copy(update={"diagnostics": before, "errors": len(before)})
    changes = compare(
        found_in(was, then), found_in(now, read_text(found.path)), baseline, changed, note
    )
    return introduced_page(now, Kept(changes, 1), offset, limit)


async def _then(
    ws: Workspace, found: ConfigFile, now: DiagnosticsResult, asked: Named
) -> tuple[list[Diagnostic], str, list[str], str | None]:
    """The configuration's errors at the baseline `asked` names, the note saying how they
    were found, the files changed since (as shown) and its text then."""
    top = asked.top
    listed_ = None if top is None else await asyncio.to_thread(listing, ws, asked.commit, top)
    delta = await asyncio.to_thread(differences, ws, asked.baseline, listed_)
    configs = [p for p, _ in (await gate_scope(ws)).read]
    then = await asyncio.to_thread(configs_at, ws, asked.commit, configs, listed_)
    changed = sorted(ws.display(p) for p in {*delta.before, *delta.after, *then})
    text = then[found.path] if found.path in then else read_text(found.path)
    where = f"this configuration, against its errors at {asked.baseline}"
    if not found.configs:  # a package.json no program imports: tsc says none in it
        note = (
            f"{where}: tsc says no error in a package.json (module resolution's are its "
            f"importers'; `lspd check --baseline {asked.baseline}` says them)"
        )
        return [], note, changed, text
    came = any(t is None for t in (*delta.before.values(), *delta.after.values()))
    if not then and not came:
        note = f"{where}: no configuration differs and no file came or went (the same)"
        return list(now.diagnostics), note, changed, text
    texts = {**delta.before, **then}
    if (said := await configs_then(ws, texts, found.configs)) is None:
        raise NotKept(
            f"tsc on a copy holding {asked.baseline}'s texts could not say "
            f"{ws.display(found.path)}'s errors there; `lspd check --baseline "
            f"{asked.baseline}` compares the whole gate"
        )
    before: list[Diagnostic] = []
    for e in (e for e in said if e.file == found.path):
        message = "\n".join(line.strip() for line in e.message.split("\n"))  # as the listing's
        error = ConfigError(e.file, e.line, e.column, e.code, message)
        if (diagnostic := config_diagnostic(error)) not in before:
            before.append(diagnostic)
    note = f"{where}, by its programs' own tsc -p on a copy holding the texts then"
    return before, note, changed, text


def _tsc(ws: Workspace, config: Path) -> list[str] | None:
    """The project's own tsc for `config` (None: no node_modules/typescript)."""
    package = find_typescript(config.parent, ws.root)
    return None if package is None else [node_executable(), str(tsc_script(package))]
