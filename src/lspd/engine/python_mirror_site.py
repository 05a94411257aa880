"""The server definition a copy of a Python project is asked with (`engine/python_mirror`):
its interpreter, and that interpreter's `sys.path` made the copy's.

basedpyright takes its import search paths from the interpreter's `sys.path`, asked of it
at its start without `-I` (only its version probe isolates it), so the interpreter reads
`PYTHONPATH` and runs a `sitecustomize`. A project installed editable into its own
environment (`pip install -e .`: a `.pth` in site-packages naming the project's `src/`)
has the project's folder on that `sys.path`, the disk's one: a copy holding a module
deleted still resolved it there. A preview of `src/pkg/helper.py`'s deletion said 2 new
(`Stub file not found for "pkg.helper"`: the disk's file, taken for an installed
package's) where the CLI on the applied patch says 7 (reportMissingImports at both
importers, and their unknown types); trio 0.35: 14 where the CLI says 21. So the copy's
server runs with the `sitecustomize` lspd's mypy copy runs with (`workspace/mypy_site`)
first on its `PYTHONPATH`: every `sys.path` entry under the project becomes the copy's,
in its place. An editable install by an import hook (setuptools' `__editable__.*_finder`)
puts no folder on `sys.path`; basedpyright, which runs no hook, never read the disk's
through it.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

from lspd.servers.registry import ServerDefinition
from lspd.workspace.kept_copy import Wanted
from lspd.workspace.mypy_site import written

SITES = "python-site"  # beside the copies: one `sitecustomize` folder per copy


def site_of(copy: Path) -> Path:
    """The folder of the `sitecustomize` of the server of `copy`: beside it, outside it
    (a file in the copy would be one of the project's)."""
    return copy.parent / SITES / copy.name


def site_gone(copy: Path) -> None:
    """A one-shot copy's `sitecustomize` removed with it."""
    shutil.rmtree(site_of(copy), ignore_errors=True)


def copy_definition(
    definition: ServerDefinition, root: Path, copy: Path, want: Wanted
) -> ServerDefinition:
    """`definition` as the server of `root`'s copy `copy` (holding `want`) runs: the
    `sitecustomize` making `root`'s folders on its interpreter's `sys.path` the copy's
    first on its `PYTHONPATH` (a `PYTHONPATH` of its own, or lspd's, after it), and its
    interpreter the copy's where the copy makes its environment (`_interpreter`)."""
    site = site_of(copy)
    written(site, root, copy)
    own = definition.env.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    path = os.pathsep.join([str(site), own]) if own else str(site)
    definition = dataclasses.replace(definition, env={**definition.env, "PYTHONPATH": path})
    return _interpreter(definition, root, copy, want)


def _interpreter(
    definition: ServerDefinition, root: Path, copy: Path, want: Wanted
) -> ServerDefinition:
    """`definition` with its interpreter (`python.pythonPath`) the copy's where its
    environment is one the copy makes of folders (`python_mirror._environment`: a held
    text in it), so the server's import paths are the copy's site-packages."""
    python = definition.settings.get("python", {})
    interpreter = python.get("pythonPath") if isinstance(python, dict) else None
    if not isinstance(interpreter, str) or not Path(interpreter).is_relative_to(root):
        return definition
    rel = Path(interpreter).relative_to(root)
    if rel.parent.parent not in want.folders:  # linked: the project's own
        return definition
    settings = {**definition.settings, "python": {**python, "pythonPath": str(copy / rel)}}
    return dataclasses.replace(definition, settings=settings)
