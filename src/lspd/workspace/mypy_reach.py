"""What mypy reaches of a project from the files it is pointed at: the modules it follows
into (`mypy_follow`) where part of the project is chosen, found where mypy looks (its
directory, `mypy_path`, the folders the environment's `.pth` files name), and the modules
git ignores that it follows into from every file (a generated `_version.py`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from lspd.workspace.files import stamp
from lspd.workspace.mypy_config import MypyConfig
from lspd.workspace.mypy_follow import Reached, followed, unwalked
from lspd.workspace.mypy_installed import pth_folders
from lspd.workspace.mypy_mirror import PYTHON, Sees
from lspd.workspace.python_links import linked, real_place
from lspd.workspace.toolchain import find_python


def reach(
    directory: Path,
    config: MypyConfig,
    chosen: list[Path],
    inside: list[Path],
    part: bool,
    root: Path | None,
    python: Path | None,
    texts: Mapping[Path, str | None] | None,
) -> Reached:
    """The files mypy reports of the project pointed at `chosen` (of `inside`, the walk's
    Python files of it), the files whose imports chose that, with their stamps, what was
    read of those imports (the disk's: a state's `texts` aside), and the modules followed
    into under another name than their file's as a source (`Followed.renamed`): where
    `files`, the packages or a pre-commit hook choose (`part`), what mypy follows into from
    them (`exclude` aside);
    from every file, the modules git ignores it follows into (the others are every file's
    already)."""
    ignored = _ignored(directory, inside, texts or {})
    if not (config.files or part or ignored):
        return Reached(tuple(sorted(chosen)), (), (), ())
    folders = _folders(directory, mypy_python(directory, root, python))
    renamed: dict[Path, str] = {}
    if config.files or part:
        seen = [*inside, *ignored]
        reached, was, renamed = followed(directory, config, chosen, seen, folders, texts)
        imports = list(was)
    else:
        more, imports, was = unwalked(directory, config, chosen, ignored, folders, texts)
        reached = [*chosen, *more]
    # an import added or dropped: made again (`mypy_imports.unmoved`)
    stamped = tuple((p, stamp(p)) for p in imports)
    return Reached(
        tuple(sorted(reached)),
        stamped,
        tuple((p, i) for p, i in was.items() if p not in (texts or {})),
        tuple(sorted(renamed.items())),
    )


def _ignored(directory: Path, inside: list[Path], texts: Mapping[Path, str | None]) -> list[Path]:
    """The Python files under the project `directory` mypy reads that lspd's walk (`inside`)
    left out: those git ignores (setuptools-scm's generated `_version.py`), which mypy
    follows into as any other module (it reads no .gitignore), less those the state's
    `texts` say are gone. Walked as the daemon's copy is (`mypy_mirror.Sees`: environments
    and caches aside), again only when a directory of it changed."""
    sees = _SEES.get(directory)
    if sees is None:
        sees = _SEES[directory] = Sees(directory)
        while len(_SEES) > KEPT_SEES:
            del _SEES[next(iter(_SEES))]
    known = set(inside)
    return [
        p
        for p in sees.files()
        if p.suffix in PYTHON and p not in known and texts.get(p, "") is not None
    ]


# `_ignored`'s walk of each project (its `Sees`), the last few asked for.
KEPT_SEES = 8
_SEES: dict[Path, Sees] = {}


def mypy_python(directory: Path, root: Path | None, python: Path | None) -> Path | None:
    """The interpreter lspd runs the mypy of the project at `directory` with, as
    `mypy_check.daemon_of` finds it: lspd.toml's `python` (its path from the root), else an
    environment in the project or the workspace's `root` (without one: the repository's top
    holding the project), else `python3` on PATH; None when there is none."""
    found = find_python(directory, root or _top(directory), python)
    return None if found is None else found[0]


def _folders(directory: Path, interpreter: Path | None) -> list[Path]:
    """The folders inside the project the environment of `interpreter` (`mypy_python`'s)
    puts on its `sys.path` through its `.pth` files (an editable install's `src/`): mypy
    finds the project's modules there too."""
    real = Path(os.path.realpath(directory))
    found = []
    for folder in pth_folders(interpreter) if interpreter is not None else []:
        if folder == real or real in folder.parents:
            found.append(directory / folder.relative_to(real))
    return found


def _top(directory: Path) -> Path:
    """The top of the repository holding `directory` (where an environment of the
    workspace's is looked for), else `directory`."""
    for folder in (directory, *directory.parents):
        if (folder / ".git").exists():
            return folder
    return directory


def reach_note(directory: Path, reached: Iterable[Path], chosen: list[Path]) -> list[str]:
    """What the scope's note says of the files `followed` added."""
    links = linked(directory)
    added = len(
        set(reached) - {directory / real_place(p.relative_to(directory), links) for p in chosen}
    )
    return [f"{added} more mypy follows into from them (their imports)"] if added else []
