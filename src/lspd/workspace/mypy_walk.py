"""What mypy's walk of its targets keeps of the files they name (its `find_sources` and
`modulefinder.matches_exclude`): not a file or folder an `exclude` regex finds in its path
from where mypy runs (a folder's path ending in `/`: `^build/$` leaves the whole folder),
the configuration's and the command's (`mypy --exclude docs_src .`) both; and of a module
written both ways, the stub alone (alembic's `op.pyi` beside `op.py`: 54 files said where
its mypy checks 52). A module left out is still followed into from the others' imports
(`mypy_follow`)."""

from __future__ import annotations

import re
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace.command_options import option_values

_EXCLUDE = "--exclude"


def walked(
    directory: Path, chosen: list[Path], exclude: str | None, where: Path, options: tuple[str, ...]
) -> list[Path]:
    """Of `chosen`, the files mypy run at `directory` keeps: `exclude` is the configuration's
    (at `where`), `options` the command's, each `--exclude` among them."""
    patterns = [_compiled(exclude, f"{where}: exclude")] if exclude else []
    patterns += [_compiled(p, f"the gate's `{_EXCLUDE} {p}`") for p in excludes(options)]
    kept = [p for p in chosen if not _excluded(directory, p, patterns)] if patterns else chosen
    stubs = {p for p in kept if p.suffix == ".pyi"}
    return [p for p in kept if p.suffix != ".py" or p.with_suffix(".pyi") not in stubs]


def excludes(options: tuple[str, ...]) -> list[str]:
    """The regexes a command's `--exclude X` / `--exclude=X` options give."""
    return option_values(options, _EXCLUDE)[0]


def _compiled(pattern: str, said: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise InvalidInput(
            f"{said} {pattern!r} is not a regular expression ({exc}): fix it there "
            "(mypy cannot use it either)"
        ) from None


def _excluded(directory: Path, path: Path, patterns: list[re.Pattern[str]]) -> bool:
    """Whether a pattern finds `path`, or a folder holding it below `directory`, in its
    path from there (a folder's ending in `/`)."""
    relative = path.relative_to(directory).as_posix()
    names = [relative]
    parts = relative.split("/")[:-1]
    names += ["/".join(parts[: index + 1]) + "/" for index in range(len(parts))]
    return any(pattern.search(name) for pattern in patterns for name in names)
