"""The configuration errors of TypeScript projects, as their `tsc -p` reports them.

A `tsconfig.json` holding options TypeScript 7 removed (`baseUrl`, `target: es5`,
`moduleResolution: node`, ...) fails the project's `tsc` before any file is checked, while
TypeScript 7's LSP reports nothing of it (7.0.2: no diagnostics for tsconfig.json, and the
files checked anyway). TypeScript 5's tsserver says nothing of its tsconfig either, where
`tsc -p` fails on an option's wrong value (`"target": "es2099"`: TS6046, exit 2; lspd check
said 0 errors, exit 0). So the whole-workspace check asks the project's own `tsc` itself,
once per configuration and while the file is unchanged, and lists its errors under the
file they are in: `lspd check` then fails as `tsc` does. (A TypeScript 5 project checked by
lspd's own TypeScript, none in its node_modules, is not asked: no tsc of its own.)
"""

from __future__ import annotations

import asyncio
import tempfile
import weakref
from pathlib import Path

from lspd.engine.builders import listed
from lspd.engine.config_stops import global_stop, noted, parsing
from lspd.engine.native_program import configuration
from lspd.engine.ts_configs import asked
from lspd.ops.models import Diagnostic, DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import files_found
from lspd.workspace.toolchain import SERVER
from lspd.workspace.tsc_native import ConfigError
from lspd.workspace.tsc_native import listed as tsc_listed
from lspd.workspace.tsc_no_emit import WRITES, run_without_emit
from lspd.workspace.tsconfig_extends import Stamps, configured_stamps, extended

# Per workspace: each configuration's (mtime_ns, size), with those of the configurations it
# extends (settings.json, whatever its name) and which files are under the root (`scope.
# files_found`: a `files` entry gone is TS6053; not a `sed -i`), and what tsc said of it then.
_said: weakref.WeakKeyDictionary[Workspace, dict[Path, tuple[Stamps, list[ConfigError]]]] = (
    weakref.WeakKeyDictionary()
)


# Per workspace: a TypeScript 5 configuration's errors where its builder stopped at global
# diagnostics (`_globals`), tsc's answer, and the stamps it was made at.
_global: weakref.WeakKeyDictionary[Workspace, dict[Path, tuple[Stamps, list[ConfigError]]]] = (
    weakref.WeakKeyDictionary()
)


async def config_results(ws: Workspace) -> list[DiagnosticsResult]:
    """The configuration errors of each TypeScript project of the check, one result per
    file holding some (a tsconfig.json, or a configuration it extends)."""
    said = _said.setdefault(ws, {})
    by_file: dict[Path, list[Diagnostic]] = {}
    answered: dict[Path, tuple[str, str | None]] = {}
    listings: dict[Path, list[ConfigError]] = {}
    for config, tsc, server, toolchain in asked(ws):
        stamp = configured_stamps(config)
        if stamp is None:
            continue
        stamp = (*stamp, files_found(ws))  # its errors hang on files coming or going
        # TypeScript 5's builder's check says tsc's listing itself (no tsc run: ~2 s at load 8;
        # a tsc of each of vscode-languageserver-node's 37 composite projects: minutes), an
        # emitting program's too (TS5055: ky's root program, 1.1 s of a one-shot check's 6 s)
        if server == SERVER and (own := listed(ws, config)) is not None:
            said[config] = (stamp, own)
        elif config not in said or said[config][0] != stamp:
            said[config] = (stamp, list(await configuration(ws, tsc, config)))
        if server == SERVER:  # a stop the listing cannot say: tsc's own errors then
            said[config] = (stamp, await _globals(ws, tsc, config, stamp, said[config][1]))
        errors = said[config][1]
        if run_without_emit(config, ws.root):  # the gate's `tsc --noEmit`: no write checked
            errors = [e for e in errors if e.code not in WRITES]
        listings[config] = [e for e in errors if e.file.suffix == ".json"]
        configs = {config, *extended(config, read_text)}
        for error in errors:
            if error.file.suffix != ".json":
                continue  # a source file's syntax error: its own check says it, while fresh
            if error.file not in configs and parsing(error):
                continue  # a JSON module's (resolveJsonModule): its program's check says it
            found = by_file.setdefault(error.file, [])
            if (diagnostic := config_diagnostic(error)) not in found:  # an `extends` shared
                found.append(diagnostic)
            answered[error.file] = (server, toolchain)
    noted(ws, listings)  # which stop their programs' semantic check (`engine/config_stops`)
    return [
        DiagnosticsResult(
            path=ws.display(file),
            server=answered[file][0],
            toolchain=answered[file][1],
            errors=len(found),
            warnings=0,
            diagnostics=found,
            total=len(found),
        )
        for file, found in sorted(by_file.items())
    ]


async def _globals(
    ws: Workspace, tsc: list[str], config: Path, stamp: Stamps, own: list[ConfigError]
) -> list[ConfigError]:
    """The builder's listing `own`, or where the builder stopped at global diagnostics the
    listing cannot say (`config_stops.global_stop`: TS2318 of `"lib": []`), tsc's own
    answer, kept while the configuration is unchanged: `tsc -p` says the program's
    configuration and global errors then, and nothing of its files (no file checked)."""
    if not global_stop(ws, config, own):
        return own
    kept = _global.setdefault(ws, {}).get(config)
    if kept is None or kept[0] != stamp:
        kept = (stamp, await asyncio.to_thread(_checked, tsc, config, own))
        _global[ws][config] = kept
    return kept[1]


def _checked(tsc: list[str], config: Path, own: list[ConfigError]) -> list[ConfigError]:
    """`tsc -p config`'s errors of configuration files and without a place (`tsc_native.
    listed`'s reading; `own` where it could not run); its build info, were it composite or
    incremental, written to a folder of its own and removed (never the project's)."""
    with tempfile.TemporaryDirectory(prefix="lspd-tsc-") as scratch:
        info = ("--incremental", "--tsBuildInfoFile", str(Path(scratch) / "lspd.tsbuildinfo"))
        found = tsc_listed(tsc, config, ("--noEmit", *info))[1]
    if any(not e.code for e in found):
        return own
    return [e for e in found if e.file.suffix == ".json"]


def config_diagnostic(error: ConfigError) -> Diagnostic:
    """tsc's error in a configuration file as lspd's diagnostic (at its point)."""
    return Diagnostic(
        severity="error",
        message=error.message,
        code=error.code or None,
        source="ts",
        line=error.line,
        column=error.column,
        end_line=error.line,
        end_column=error.column,
    )
