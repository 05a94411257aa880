"""What mypy's walk of its targets keeps of the files they name (its `find_sources` and
`modulefinder.matches_exclude`): not a file or folder an `exclude` regex finds in its path
from where mypy runs (a folder's path ending in `/`: `^build/$` leaves the whole folder),
the configuration's and the command's (`mypy --exclude docs_src .`) both; never a file its
arguments name themselves (`mypy --exclude '^b/' b/m2.py`, `files = b/*.py`, each file a
pre-commit hook passes: `named_files`); of a module written both ways, the stub alone
(alembic's `op.pyi` beside `op.py`: 54 files said where its mypy checks 52); and of a
folder of sources and a module of its name beside it (`foo/` and `foo.py`), the folder. A
module left out is still followed into from the others' imports (`mypy_follow`)."""

from __future__ import annotations

import glob
import os
import re
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace.command_options import option_values
from lspd.workspace.python_links import aliases, linked

_EXCLUDE = "--exclude"


def walked(
    directory: Path,
    chosen: list[Path],
    exclude: str | None,
    where: Path,
    options: tuple[str, ...],
    named: frozenset[Path] = frozenset(),
) -> list[Path]:
    """Of `chosen`, the files mypy run at `directory` keeps: `exclude` is the configuration's
    (at `where`), `options` the command's, each `--exclude` among them, and leaves none of
    the files its arguments name themselves (`named`: `named_files`)."""
    patterns = [_compiled(exclude, f"{where}: exclude")] if exclude else []
    patterns += [_compiled(p, f"the gate's `{_EXCLUDE} {p}`") for p in excludes(options)]
    kept = [p for p in chosen if p in named or not _excluded(directory, p, patterns)]
    stubs = {p for p in kept if p.suffix == ".pyi"}
    kept = [p for p in kept if p.suffix != ".py" or p.with_suffix(".pyi") not in stubs]
    # a folder of sources comes before the module of its name (mypy's `keyfunc`)
    holding = {folder for p in kept for folder in p.parents}
    return [p for p in kept if p in named or p.with_suffix("") not in holding]


def named_by(directory: Path, inside: list[Path], entries: tuple[str, ...]) -> list[Path]:
    """The files of `inside` one of `entries` names, each by the name it names: its own, or
    its name through a symlinked folder (mypy walks `app/` into `app/vendor ->
    ../shared/vendor` and names its modules from there: `app.vendor.util`; `followed`
    takes such a name for its file)."""
    links, named = linked(directory), _expanded(directory, entries)
    chosen = []
    for path in inside:
        names = [path, *aliases(directory, path, links)]
        chosen += [name for name in names if _names(directory, name, named)][:1]
    return chosen


def named_files(directory: Path, chosen: list[Path], entries: tuple[str, ...]) -> frozenset[Path]:
    """Of `chosen`, the files an entry names itself, not a folder holding them (`b/m2.py`,
    or `b/*.py` as mypy expands it): mypy checks them whatever `exclude` says."""
    named = set(_expanded(directory, entries))
    return frozenset(path for path in chosen if path.relative_to(directory) in named)


def _expanded(directory: Path, entries: tuple[str, ...]) -> list[Path]:
    """`entries` as mypy reads them (`split_and_match_files_list`): a glob expanded from
    `directory` (`**` recursive; `*.py` the top's files alone, not every folder's), one
    matching nothing kept as written; each path normalized (`./src/` is `src`)."""
    found = []
    for entry in (e.strip() for e in entries):
        if any(ch in entry for ch in "*?["):
            matched = sorted(glob.glob(entry, root_dir=directory, recursive=True))
            found += [Path(os.path.normpath(m)) for m in matched] or [Path(entry)]
        elif entry:
            found.append(Path(os.path.normpath(entry)))
    return found


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


def _names(directory: Path, path: Path, named: list[Path]) -> bool:
    """Whether `path` is one of the paths `named` (`_expanded`) or in a folder one is."""
    relative = path.relative_to(directory)
    return any(n == Path(".") or relative == n or n in relative.parents for n in named)
