"""The files a ty gate checks (`ty_gate`): those the command running ty names (sqlmodel's
lint script and hook run `ty check sqlmodel tests/test_select_typing.py`: lspd said 204
errors and 17 warnings of tests/ and docs_src/, which its gate never checks), else its
configuration's `src.include` (pipx: `hatch_build.py`, `scripts`, `src`, `tests`), less its
`src.exclude`; every Python file of the project without either. An entry that is a pattern
(`*`, `?`, `[`, a `!` negation) is ty's gitignore-like syntax, which lspd does not match:
every file then, said so.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from lspd.workspace.checker_runs import run_paths
from lspd.workspace.files import read_text
from lspd.workspace.mypy_scripts import script_paths, script_targets
from lspd.workspace.project_scope import ProjectScope
from lspd.workspace.pyright_scope import PYPROJECT
from lspd.workspace.ty_gate import CONFIG, TY, configures_ty, gated_ty

EVERY = "every Python file"


def ty_projects(
    files: list[Path], directories: list[Path], read: list[Path], chosen: bool = False
) -> list[ProjectScope]:
    """A scope for each of `directories` (holding a pyproject.toml or ty.toml) whose gate is
    ty's alone (or configuring ty, where lspd.toml `chosen` ty), of `files` (the walk's
    Python files) under it; the paths whose change can change that are added to `read`."""
    found = []
    for directory in sorted(set(directories)):
        read += [directory / PYPROJECT, directory / CONFIG]
        if not configures_ty(directory):
            continue
        read += [*script_paths(directory), *run_paths(directory)]
        if not chosen and not gated_ty(directory):
            continue
        inside = [p for p in files if directory in p.parents]
        picked, note = _chosen(directory, inside)
        label = CONFIG if (directory / CONFIG).is_file() else f"{PYPROJECT} [tool.ty]"
        found.append(ProjectScope("python", directory, label, tuple(picked), note))
    return found


def _chosen(directory: Path, inside: list[Path]) -> tuple[list[Path], str]:
    """Of `inside`, the files the gate's ty checks, and why."""
    script = script_targets(directory, (TY,))
    if script is not None and script.paths:  # given paths: ty checks those alone
        note = f"what {script.named} runs ty on: {', '.join(script.paths)}"
        return [p for p in inside if _named(directory, p, script.paths)], note
    src = _src(directory)
    include, exclude = _entries(src.get("include")), _entries(src.get("exclude"))
    if any(_pattern(entry) for entry in [*include, *exclude]):
        pattern = "ty's src.include or src.exclude holds a pattern lspd does not match"
        return inside, f"{pattern}: {EVERY}"
    chosen = [p for p in inside if not include or _named(directory, p, include)]
    chosen = [p for p in chosen if not _named(directory, p, exclude)]
    given = (("include", include), ("exclude", exclude))
    said = [f"src.{key} = {', '.join(value)}" for key, value in given if value]
    return chosen, "; ".join(said) or f"ty's configuration names no files: {EVERY}"


def _pattern(entry: str) -> bool:
    """Whether `entry` is a pattern of ty's gitignore-like syntax, not a path."""
    return entry.startswith("!") or any(c in entry for c in "*?[")


def _src(directory: Path) -> dict[str, Any]:
    """The `src` table of ty's configuration: ty.toml's, else pyproject.toml's `[tool.ty]`."""
    config = directory / CONFIG
    path = config if config.is_file() else directory / PYPROJECT
    try:
        data = tomllib.loads(read_text(path) or "")
    except tomllib.TOMLDecodeError:
        return {}
    table = data if path == config else data.get("tool", {}).get(TY, {})
    src = table.get("src") if isinstance(table, dict) else None
    return src if isinstance(src, dict) else {}


def _entries(value: object) -> list[str]:
    """A list of paths as written, `./` and a trailing `/` dropped."""
    if not isinstance(value, list):
        return []
    return [str(v).removeprefix("./").rstrip("/") for v in value if str(v).strip()]


def _named(directory: Path, path: Path, names: list[str] | tuple[str, ...]) -> bool:
    """Whether `path` is one of `names` (relative to `directory`) or below one."""
    relative = path.relative_to(directory).as_posix()
    return any(
        name in (".", "") or relative == name or relative.startswith(f"{name}/") for name in names
    )
