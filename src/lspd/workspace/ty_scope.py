"""The projects whose gate is ty's, each with the files its ty checks (`ty_paths`).

sqlmodel's lint script and hook run `ty check sqlmodel tests/test_select_typing.py`: lspd
said 204 errors and 17 warnings of tests/ and docs_src/, which its gate never checks.
"""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.project_scope import ProjectScope
from lspd.workspace.pyright_scope import PYPROJECT
from lspd.workspace.ty_config import CONFIG, configures_ty, gate_paths, gated_ty, label, may_gate_ty
from lspd.workspace.ty_paths import ty_files


def ty_projects(
    files: list[Path], directories: list[Path], read: list[Path], chosen: bool = False
) -> list[ProjectScope]:
    """A scope for each of `directories` (holding a pyproject.toml or ty.toml) whose gate is
    ty's alone, configuring ty or not (`may_gate_ty`), or configuring ty where lspd.toml
    `chosen` ty, of `files` (the walk's Python files) under it; the paths whose change can
    change that are added to `read`."""
    found = []
    for directory in sorted(set(directories)):
        read += [directory / PYPROJECT, directory / CONFIG]
        if not may_gate_ty(directory):
            continue
        read += gate_paths(directory)
        if not (gated_ty(directory) or (chosen and configures_ty(directory))):
            continue
        inside = [p for p in files if directory in p.parents]
        picked, note = ty_files(directory, inside)
        found.append(ProjectScope("python", directory, label(directory), tuple(picked), note))
    return found
