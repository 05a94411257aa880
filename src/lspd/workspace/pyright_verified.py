"""The gate's `pyright --verifytypes` runs, said as not checked.

`pyright --verifytypes PACKAGE` fails a build where a public symbol of the installed
package lacks a type (a function's return annotation, say): exceptiongroup's CI runs it
beside `pyright` and `mypy` on its type tests. It reports no file's errors of type
checking, and lspd does not run it, so a change failing it was answered "0 new errors" in
silence. Now the scope has a line for each such run.
"""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.checker_runs import run_paths, verified
from lspd.workspace.mypy_scripts import script_paths
from lspd.workspace.project_scope import ProjectScope


def verified_said(directories: list[Path], read: list[Path]) -> list[ProjectScope]:
    """A line of the scope per `--verifytypes` run of the projects at `directories`, at the
    first (shallowest) one naming it; what may name one added to `read`."""
    said: dict[str, Path] = {}
    for directory in sorted(set(directories), key=lambda d: len(d.parts)):
        read += [*run_paths(directory), *script_paths(directory)]
        for command in sorted(verified(directory)):
            said.setdefault(command, directory)
    return [
        ProjectScope("python", at, None, (), _note(command), unrun=True)
        for command, at in said.items()
    ]


def _note(command: str) -> str:
    return (
        f"not checked: `{command}`, the completeness of the package's public types (each "
        "exported name annotated), which lspd does not run"
    )
