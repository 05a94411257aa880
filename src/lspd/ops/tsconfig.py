"""The configuration errors of TypeScript 7 projects, as their `tsc -p` reports them.

A `tsconfig.json` holding options TypeScript 7 removed (`baseUrl`, `target: es5`,
`moduleResolution: node`, ...) fails the project's `tsc` before any file is checked, while
TypeScript 7's LSP reports nothing of it (7.0.2: no diagnostics for tsconfig.json, and the
files checked anyway). So the whole-workspace check asks `tsc` itself, once per
configuration and while the file is unchanged, and lists its errors under the file they
are in: `lspd check` then fails as `tsc` does.
"""

from __future__ import annotations

import weakref
from pathlib import Path

from lspd.engine.native_program import configuration
from lspd.ops.models import Diagnostic, DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.toolchain import NATIVE
from lspd.workspace.tsc_native import ConfigError
from lspd.workspace.tsconfig_extends import Stamps, configured_stamps

CONFIGS = ("tsconfig.json", "jsconfig.json")

# Per workspace: each configuration's (mtime_ns, size), with those of the configurations it
# extends (settings.json, whatever its name), and what tsc said of it then.
_said: weakref.WeakKeyDictionary[Workspace, dict[Path, tuple[Stamps, list[ConfigError]]]] = (
    weakref.WeakKeyDictionary()
)


async def config_results(ws: Workspace) -> list[DiagnosticsResult]:
    """The configuration errors of each project a TypeScript 7 session serves, one result
    per file holding some (a tsconfig.json, or a configuration it extends)."""
    said = _said.setdefault(ws, {})
    by_file: dict[Path, list[Diagnostic]] = {}
    answered: dict[Path, tuple[str, str | None]] = {}
    for session in list(ws.sessions.values()):
        command = session.definition.resolved_command()
        if session.name != NATIVE or session.definition.unavailable or "--lsp" not in command:
            continue
        tsc = command[: command.index("--lsp")]
        for folder in session.folders:
            config = next((folder / n for n in CONFIGS if (folder / n).is_file()), None)
            stamp = configured_stamps(config) if config is not None else None
            if config is None or stamp is None:
                continue
            if config not in said or said[config][0] != stamp:
                said[config] = (stamp, list(await configuration(ws, tsc, config)))
            for error in said[config][1]:
                if error.file.suffix != ".json":
                    continue  # a source file's syntax error: its own check says it, while fresh
                found = by_file.setdefault(error.file, [])
                if (diagnostic := _diagnostic(error)) not in found:  # an `extends` shared
                    found.append(diagnostic)
                answered[error.file] = (session.name, session.toolchain)
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


def _diagnostic(error: ConfigError) -> Diagnostic:
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
