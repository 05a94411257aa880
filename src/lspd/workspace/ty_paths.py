"""The files a ty gate checks (`ty_gate`, `ty_scope`): those the command running ty names
(sqlmodel's `ty check sqlmodel tests/test_select_typing.py`) in a script, else in a
pre-commit hook passing no file names (`pass_filenames: false`), else its configuration's
`src.include` (pipx: `hatch_build.py`, `scripts`, `src`, `tests`; every Python file
without it), less its `src.exclude`, the command's `--exclude` (gradio's `ty check
--exclude test`) and ty's own default excludes; and what its server is told so that it
judges the same files (`server_src`).

Both lists are ty's gitignore-like patterns, read as ty 1.0.0 reads them (measured): each
is anchored at the project (`gen` is the project's `gen`, not `a/gen`: `**/gen` is both),
`*`, `?`, `[...]` and `**` match as in a .gitignore, a leading `/` is an absolute path, and
an exclude's `!` takes a file back, a default exclude too (`!dist`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lspd.workspace.ty_config import configures_ty, ran_on, ty_table
from lspd.workspace.ty_options import ty_options

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


def ty_files(directory: Path, inside: list[Path]) -> tuple[list[Path], str]:
    """Of `inside`, the files the gate's ty checks, and why. Measured on ty 1.0.0: a path
    the command names as a file is checked whatever the configuration says; below a folder
    it names (the project without one), the files `src.include` takes (every one without
    it) less those `src.exclude` and the default excludes leave out (`ty check src tests`
    with `exclude = ["tests/assets"]` leaves tests/assets out, `ty check tests/assets`
    checks it: an exclude is not applied to the folder named itself)."""
    include, exclude, excluded, taken, left = _rules(directory)
    command = f"; --exclude {', '.join(excluded)}" if excluded else ""
    if (given := ran_on(directory)) is not None:  # given paths: ty checks those alone
        named, paths = given
        note = f"what {named} runs ty on: {', '.join(paths)}{command}"
        return [p for p in inside if _given(directory, p, paths, taken, left)], note
    chosen = []
    for path in inside:
        relative = path.relative_to(directory).as_posix()
        if (taken is None or taken.match_file(relative)) and not left.match_file(relative):
            chosen.append(path)
    lists = (("include", include), ("exclude", exclude))
    said = [f"src.{key} = {', '.join(value)}" for key, value in lists if value]
    said += [command.removeprefix("; ")] if command else []
    unnamed = (
        "ty's configuration names no files" if configures_ty(directory) else "no ty configuration"
    )
    return chosen, "; ".join(said) or f"{unnamed}: {EVERY}"


def server_src(directory: Path) -> dict[str, list[str]]:
    """What ty's server at `directory` is told beyond its configuration's `src`, so that it
    judges each file the command checks (it says nothing of a file its configuration leaves
    out): the command's `--exclude`, each file it names that `src.include` does not take,
    and a `!` for each path it names that an exclude leaves out. The server's inline
    `configuration` lists follow the configuration file's (measured on ty 1.0.0: an inline
    `exclude = ["!docs"]` takes back `src.exclude = ["docs"]`)."""
    _, _, excluded, taken, left = _rules(directory)
    more_include, more_exclude = [], list(excluded)
    given = ran_on(directory)
    for name in given[1] if given is not None else ():
        path = directory / name
        if name in (".", "") or not path.exists():
            continue
        if path.is_file() and taken is not None and not taken.match_file(name):
            more_include.append(name)
        if left.match_file(f"{name}/" if path.is_dir() else name):
            more_exclude.append(f"!{name}")
    lists = (("include", more_include), ("exclude", more_exclude))
    return {key: value for key, value in lists if value}


def _rules(
    directory: Path,
) -> tuple[list[str], list[str], list[str], pathspec.GitIgnoreSpec | None, pathspec.GitIgnoreSpec]:
    """The configuration's `src.include` and `src.exclude`, the command's `--exclude`, and
    as patterns what `src.include` takes (None: every file) and what the excludes and ty's
    default excludes leave out."""
    src = ty_table(directory).get("src")
    src = src if isinstance(src, dict) else {}
    include, exclude = _entries(src.get("include")), _entries(src.get("exclude"))
    excluded = _entries(list(ty_options(directory).exclude))
    taken = _patterns(directory, include) if include else None
    left = _patterns(directory, [*DEFAULT_EXCLUDES, *exclude, *excluded])
    return include, exclude, excluded, taken, left


def _given(
    directory: Path,
    path: Path,
    names: tuple[str, ...],
    taken: pathspec.GitIgnoreSpec | None,
    left: pathspec.GitIgnoreSpec,
) -> bool:
    """Whether ty run on `names` (relative to `directory`) checks `path`: named itself, or
    below a folder named, taken by `src.include` and not left out below that folder."""
    relative = path.relative_to(directory).as_posix()
    for name in names:
        name = "" if name in (".", "") else name
        if relative == name:
            return True
        if name and not relative.startswith(f"{name}/"):
            continue
        if taken is not None and not taken.match_file(relative):
            continue
        # the folder named left out itself: ty walks it all the same (an exclude of a folder
        # below it cannot be told apart here from its own, which a match of a file inherits)
        if (name and left.match_file(f"{name}/")) or not left.match_file(relative):
            return True
    return False


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
