"""A Python project's own language server: which one it installs, and the Node it runs on.

The project's choice of checker wins over lspd's (spec section 7): an environment holding
`pyright-langserver` and no `basedpyright-langserver` gates on pyright (mcp 1.9.0: `uv run
pyright`, 27 errors and 1 warning, where lspd's basedpyright in its "recommended" mode said
117 errors and 2,196 warnings). Which server stands in for which is data: `stands_in_for` in
servers.toml.

pip's pyright bundles its JavaScript but not Node: its wrapper runs the `node` on PATH, else
downloads one (which fails offline, and is never lspd's to start). lspd's own Node is put
last on that PATH, so a Node the user has still wins.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from lspd.servers.registry import ServerDefinition, node_executable
from lspd.workspace.pyrefly_gate import LSPDS, gate_pyrefly
from lspd.workspace.pyright_gate import gate_pyright
from lspd.workspace.ty_gate import gate_ty, lspd_ty


class Chosen(NamedTuple):
    """The server judging a Python project, as its environment and gate choose it."""

    definition: ServerDefinition
    own: Path | None = None  # the environment's executable of it, where it runs that one
    label: str | None = None  # what answers say of a server lspd runs for the gate


def python_server(
    definition: ServerDefinition,
    project: Path,
    bin_dir: Path,
    servers: Mapping[str, ServerDefinition],
    environment: bool = True,
) -> Chosen:
    """The server for the project at `project` of the interpreter in `bin_dir`, where
    lspd.toml chose `definition` (lspd's basedpyright by default): ty where the gate runs
    ty (`ty_gate`: the environment's ty, else lspd's), pyrefly where it runs pyrefly alone
    (`pyrefly_gate`: the same way), else the one the environment holds
    (`stand_in`), else lspd's pyright where it runs pyright (`pyright_gate`), else
    `definition`. A pyright the environment holds is no gate's where the gate runs ty
    (tox's `pyright` environment installing it beside `ty check`: every file was pyright's,
    said as ty's). Not `environment` (a `python3` found on PATH, no project's own): what its
    folder holds is no choice of the project's, and the gate's checker is lspd's."""
    if (ty := gate_ty(definition, project, servers)) is not None:
        held = bin_dir / ty.command[0]
        if environment and os.access(held, os.X_OK):
            return Chosen(ty, held)
        lspds, label = lspd_ty(ty, project)
        return Chosen(lspds, None, label)
    if (pyrefly := gate_pyrefly(definition, project, servers)) is not None:
        held = bin_dir / pyrefly.command[0]
        if environment and os.access(held, os.X_OK):
            return Chosen(pyrefly, held)
        return Chosen(pyrefly, None, LSPDS)
    if environment:
        definition = stand_in(definition, bin_dir, servers)
        if os.access(own := bin_dir / definition.command[0], os.X_OK):
            return Chosen(definition, own)
    if (gate := gate_pyright(definition, project, servers)) is not None:
        return Chosen(gate[0], None, gate[1])
    return Chosen(definition)


def stand_in(
    definition: ServerDefinition, bin_dir: Path, servers: Mapping[str, ServerDefinition]
) -> ServerDefinition:
    """The server of `servers` standing in for `definition` (`stands_in_for`) whose command
    the environment `bin_dir` holds, when it holds none of `definition`'s; else `definition`."""
    if os.access(bin_dir / definition.command[0], os.X_OK):
        return definition
    for server in servers.values():
        if server.stands_in_for == definition.name and os.access(
            bin_dir / server.command[0], os.X_OK
        ):
            return server
    return definition


def node_last(definition: ServerDefinition, path: str) -> str:
    """`path` (a PATH value) with lspd's Node's folder last when `definition` is a Node
    program (`node_script`) and no `node` is found on `path`."""
    if definition.node_script is None or shutil.which("node", path=path) is not None:
        return path
    node = Path(node_executable())
    return f"{path}{os.pathsep}{node.parent}" if node.is_absolute() else path
