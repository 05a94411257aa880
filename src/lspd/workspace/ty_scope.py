"""The files a ty gate checks (`ty_gate`): those the command running ty names (sqlmodel's
lint script and hook run `ty check sqlmodel tests/test_select_typing.py`: lspd said 204
errors and 17 warnings of tests/ and docs_src/, which its gate never checks) in a script,
else in a pre-commit hook passing no file names (`pass_filenames: false`), else its
configuration's `src.include` (pipx: `hatch_build.py`, `scripts`, `src`, `tests`; every
Python file without it), less its `src.exclude` and ty's own default excludes.

Both lists are ty's gitignore-like patterns, read as ty 1.0.0 reads them (measured): each
is anchored at the project (`gen` is the project's `gen`, not `a/gen`: `**/gen` is both),
`*`, `?`, `[...]` and `**` match as in a .gitignore, a leading `/` is an absolute path, and
an exclude's `!` takes a file back, a default exclude too (`!dist`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lspd.workspace.project_scope import ProjectScope
from lspd.workspace.pyright_scope import PYPROJECT
from lspd.workspace.ty_config import (
    CONFIG,
    configures_ty,
    gate_paths,
    gated_ty,
    label,
    ran_on,
    ty_table,
)

if TYPE_CHECKING:
    import pathspec

EVERY = "every Python file"
# The folders ty 1.0.0 leaves out of a project wherever they are, but where an exclude's `!`
# takes one back (measured: `build`, `env`, `site-packages` and `.cache` are checked).
DEFAULT_EXCLUDES = tuple(
    f"**/{name}/"
    for name in (
        ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".mypy_cache", ".nox",
        ".pants.d", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", "__pypackages__",
        "_build", "buck-out", "dist", "node_modules", "venv",
    )
)  # fmt: skip


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
        read += gate_paths(directory)
        if not chosen and not gated_ty(directory):
            continue
        inside = [p for p in files if directory in p.parents]
        picked, note = _chosen(directory, inside)
        found.append(ProjectScope("python", directory, label(directory), tuple(picked), note))
    return found


def _chosen(directory: Path, inside: list[Path]) -> tuple[list[Path], str]:
    """Of `inside`, the files the gate's ty checks, and why."""
    if (given := ran_on(directory)) is not None:  # given paths: ty checks those alone
        named, paths = given
        note = f"what {named} runs ty on: {', '.join(paths)}"
        return [p for p in inside if _named(directory, p, paths)], note
    src = ty_table(directory).get("src")
    src = src if isinstance(src, dict) else {}
    include, exclude = _entries(src.get("include")), _entries(src.get("exclude"))
    taken = _patterns(directory, include) if include else None
    left = _patterns(directory, [*DEFAULT_EXCLUDES, *exclude])
    chosen = []
    for path in inside:
        relative = path.relative_to(directory).as_posix()
        if (taken is None or taken.match_file(relative)) and not left.match_file(relative):
            chosen.append(path)
    lists = (("include", include), ("exclude", exclude))
    said = [f"src.{key} = {', '.join(value)}" for key, value in lists if value]
    return chosen, "; ".join(said) or f"ty's configuration names no files: {EVERY}"


def _patterns(directory: Path, entries: list[str]) -> pathspec.GitIgnoreSpec:
    """`entries` as ty reads them: each anchored at `directory`, a leading `/` an absolute
    path (one outside `directory` matches nothing here)."""
    import pathspec  # only for a ty gate: the walk of any other project never needs it

    lines = []
    for entry in entries:
        negation, body = ("!", entry[1:]) if entry.startswith("!") else ("", entry)
        if body.startswith("/"):
            if not Path(body).is_relative_to(directory):
                continue
            body = Path(body).relative_to(directory).as_posix()
        lines.append(f"{negation}/{body}")
    return pathspec.GitIgnoreSpec.from_lines(lines)


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
