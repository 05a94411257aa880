"""mypy's answers for the files of mypy-gated projects (which project judges a file:
`mypy_project`): its warm daemon, the files it checks, and mypy's errors by file (read to
the error: `mypy_errors`).

The daemon checks the project's targets as its CI does (`files` of its configuration, else
the packages its sections name, else every Python file: `mypy_scope`), so one file's answer
is the whole project's run filtered; the same texts again are answered at once, and a run
dmypy finds nothing new in costs ~0.15 s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from lspd.dirs import state_dir
from lspd.engine.mypy_blocked import blocked, blocking
from lspd.engine.mypy_errors import MypyError, parse
from lspd.engine.mypy_layout import refuse_layout
from lspd.engine.mypy_project import MypyProject
from lspd.workspace.dmypy import Dmypy, MypyMissing
from lspd.workspace.mypy_files import CONFIG_FILES
from lspd.workspace.mypy_imports import ImportsRead, Stamped, held_unmoved, unmoved
from lspd.workspace.mypy_installed import pth_stamps
from lspd.workspace.mypy_mirror import (
    FOLDER,
    LINK,
    PYTHON,
    Sees,
    config_text,
    mypy_sees,
    package_base,
)
from lspd.workspace.mypy_reach import mypy_python
from lspd.workspace.mypy_said import MypyFailed
from lspd.workspace.mypy_scope import MypyScope, mypy_scopes
from lspd.workspace.python_links import copy_link, linked, named_through
from lspd.workspace.toolchain import find_python

if TYPE_CHECKING:
    from lspd.workspace import Workspace

log = logging.getLogger(__name__)


@dataclass
class MypyRun:
    """One project's errors by file, from one run."""

    project: MypyProject
    files: list[Path]  # the files it checked (`project_files`)
    errors: dict[Path, list[MypyError]] = field(default_factory=dict)
    once: bool = False  # mypy's own run (`mypy_once`) answered, not dmypy
    stopped: bool = False  # at a blocking error, its errors said (`engine/stops.py`)
    python: list[Path] = field(default_factory=list)  # the workspace's Python files then
    blocking: set[Path] = field(default_factory=set)  # stopped: whose errors stopped it
    failed: list[str] = field(default_factory=list)  # other runs of the gate mypy failed in
    _files: frozenset[Path] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._files = frozenset(self.files)

    def checked(self, path: Path) -> bool:
        """Whether the run checked `path` (one of `files`): asked for each of a project's
        files, a look through the list was 70,000 comparisons on poetry's 374."""
        return path in self._files


def daemon_of(ws: Workspace, project: MypyProject, run: int = 0) -> Dmypy:
    """The project's dmypy, one per project, environment and run of the gate's mypy (`run`:
    0 the first, each other with other options: `mypy_runs`), kept by the pool, which stops
    it with the servers. lspd.toml's `python` is its path from the root, anywhere (as
    `retool.settings_of` reads it: a venv's `bin/python`, a symlink, or `../shared-env`)."""
    found = find_python(project.directory, ws.root, configured_python(ws))
    if found is None:
        raise MypyMissing(
            "mypy",
            f"mypy judges {ws.display(project.directory)}, but no Python was found: "
            "create the project's .venv with mypy in it, or set python in lspd.toml",
        )
    key = (project.directory, found[0], run)
    daemons: dict[tuple[Path, Path, int], Dmypy] = ws.pool.mypy
    if key not in daemons:
        base = package_base(project.directory, project.config)
        daemons[key] = Dmypy(project.directory, found[0], state_dir(ws.root), base, run)
        # mypy's forking holder (`mypy_fork`) only where questions follow: a daemon's
        # workspace follows the files; a one-shot call's asks once.
        daemons[key].forks.lasting = lambda: ws.watching
        ws.toolchains.stamps.moved([], [found[0]])  # its environment as first found
    daemons[key].reason = project.why
    return daemons[key]


def project_files(
    ws: Workspace,
    project: MypyProject,
    python: list[Path] | None = None,
    texts: Mapping[Path, str | None] | None = None,
) -> tuple[list[Path], list[str] | None]:
    """The files mypy checks in the project (the gate's scope of it, `mypy_scope`: its
    `files` less `exclude` and the project's modules they import, else the packages its
    sections name and theirs, else every Python file of the project) and the arguments its
    CI gives mypy: None for the configuration's `files` (mypy reads them itself), else
    those packages, else the files, after a lint script's options changing what mypy reports
    (`mypy --strict app`). They are the same for every run, so a question
    about one file never restarts the daemon. `python`: the workspace's Python files, when
    the caller has them; `texts`: the state's texts standing in for the disk's, whose
    imports say which modules mypy follows into."""
    known = _scope(ws, project, python_files(ws) if python is None else python, texts)
    return list(known.files), None if known.targets is None else list(known.targets)


def _scope(
    ws: Workspace, project: MypyProject, python: list[Path], texts: Mapping[Path, str | None] | None
) -> _Scoped:
    """The project's scope in the state `texts` holds, kept while nothing it read moved."""
    chosen = (ws.config.python_checker, ws.restricted, ws.root, configured_python(ws))
    reach = pth_stamps(mypy_python(project.directory, ws.root, chosen[3]))  # its `.pth` files
    held = tuple(sorted((texts or {}).items(), key=lambda item: item[0]))
    links = tuple(sorted(linked(project.directory).items()))  # its files' other names
    disk = _kept((project, *chosen, frozenset(python), reach, (), links)) if held else None
    key = (project, *chosen, frozenset(python), reach, held, links)
    known = _kept(key)
    if disk is not None and held_unmoved(texts or {}, disk.read, disk.imports):
        return disk  # the held texts import what the disk's do (a preview of a body edit)
    if known is None:
        known = _SCOPES[key] = _scoped(project, chosen, python, texts or {})
        while len(_SCOPES) > KEPT_SCOPES:
            del _SCOPES[next(iter(_SCOPES))]
    return known


def _kept(key: _Key) -> _Scoped | None:
    """The scope kept for `key` where the files whose imports it read import as they did
    (`mypy_imports.unmoved`: a body's or a comment's edit, stamped now); None otherwise."""
    known = _SCOPES.get(key)
    read = None if known is None else unmoved(known.read, known.imports)
    if known is None or read is None:  # none, or an import edited
        return None
    if read != known.read:
        known = _SCOPES[key] = known._replace(read=read)
    return known


def configured_python(ws: Workspace) -> Path | None:
    """lspd.toml's `python` as docs/configuration.md says it: its path from the root."""
    return None if ws.config.python is None else ws.root / ws.config.python


def _scoped(
    project: MypyProject, chosen: _Chosen, python: list[Path], texts: Mapping[Path, str | None]
) -> _Scoped:
    configured, restricted, root, interpreter = chosen  # its `.pth` files: what mypy reaches
    for scope in mypy_scopes(
        [project.directory], python, configured, restricted, False, root, interpreter, texts
    ):
        read = tuple((p, was) for p, was in scope.read if p not in texts)  # the disk's, read
        imports, note = dict(scope.imports), scope.note or ""
        more = [_targets(project, run, python) for run in scope.more]
        files = list(scope.every_file)
        return _Scoped(files, _targets(project, scope, python), read, imports, note, (*more,))
    inside = sorted(p for p in python if project.directory in p.parents)  # lspd.toml chose it
    return _Scoped(inside, [p.relative_to(project.directory).as_posix() for p in inside], (), {})


def _targets(project: MypyProject, scope: MypyScope, python: list[Path]) -> list[str] | None:
    """The arguments one run of the gate's mypy is given (`scope`'s): None for its
    configuration's `files` alone (mypy reads them itself), else its options and targets."""
    if scope.configured:  # mypy as its configuration's `files` say, with the gate's options
        return list(scope.options) or None
    walked = set(python)  # not a module git ignores mypy follows into: no target
    targeted = [p for p in scope.files if p in walked]
    # by their names through symlinked folders too, as `mypy .` walks into them
    targeted += named_through(project.directory, targeted)
    # followed into under another name than its file's as a source (`scripts.tool`, not
    # `tool`): no target, mypy reaches it through its importer (`follow_imports` normal)
    renamed = dict(scope.renamed)
    relative = [p.relative_to(project.directory).as_posix() for p in targeted if p not in renamed]
    return [*scope.options, *(list(scope.packages) or relative)]


# `project_files` by the project (its configuration and checkers as read), lspd.toml's
# choice of checker and `python`, the root, the workspace's Python files, the `.pth`
# files of mypy's environment (an editable install added with no Python file coming or
# going: `pth_stamps`), the state's texts and the project's symlinked folders (`linked`):
# the same answer while none of them changed and no file whose imports it read from the
# disk did (its stamps, the third part) or one did with its imports the same (the fourth:
# what was read of them, `mypy_imports.unmoved`).
KEPT_SCOPES = 8


class _Scoped(NamedTuple):
    """A project's scope as `project_files` keeps it."""

    files: list[Path]  # the files mypy checks
    targets: list[str] | None  # its arguments: None for the configuration's `files`
    read: Stamped  # the disk's files whose imports were read, stamped
    imports: dict[Path, ImportsRead]  # what was read of them
    note: str = ""  # what chose the files (a refusal says it: `mypy_layout`)
    more: tuple[list[str] | None, ...] = ()  # the arguments of the gate's other runs (`mypy_runs`)


_Chosen = tuple[str, bool, Path, Path | None]  # checker choice, restricted, root, python
_Key = tuple[
    MypyProject,
    str,
    bool,
    Path,
    Path | None,
    frozenset[Path],
    tuple[object, ...],
    tuple[tuple[Path, str | None], ...],
    tuple[tuple[Path, Path], ...],
]
_SCOPES: dict[_Key, _Scoped] = {}


def python_files(ws: Workspace) -> list[Path]:
    return [p for p in ws.projects.source_files(limit=10_000_000) if p.suffix in PYTHON]


async def run_mypy(
    ws: Workspace, project: MypyProject, texts: Mapping[Path, str | None] | None = None
) -> MypyRun:
    """mypy's errors of the project, by file, with `texts` standing in for the disk's text
    of some files (None: the file is not there), warm (`Dmypy.check`)."""
    daemon = daemon_of(ws, project)
    # mypy's module names and imports reach the package the project is in (`package_base`):
    # the copy is of it, and made anew (by the check, under its lock) when it moved
    base = package_base(project.directory, project.config)
    sees = daemon.sees if daemon.sees.directory == base else Sees(base)
    python = held_python(await asyncio.to_thread(python_files, ws), texts or {}, ws.root)
    known = _scope(ws, project, python, texts)
    walked = set(python)  # a module git ignores mypy follows into: no watcher sees its edits
    ws.follow(p for p in known.files if p not in walked)
    run = MypyRun(project, list(known.files), python=python)
    held = await asyncio.to_thread(_held, project, sees, texts or {}, base)
    daemons = [daemon, *(daemon_of(ws, project, n) for n in range(1, len(known.more) + 1))]
    asked = [known.targets, *known.more]
    outside = _outside(ws, base)
    each_run = zip(daemons, asked, strict=True)
    made = await asyncio.gather(
        *(d.check(t or [], held, outside, sees) for d, t in each_run), return_exceptions=True
    )
    for n, (each, output) in enumerate(zip(daemons, made, strict=True)):
        if isinstance(output, BaseException):  # the gate's first run's failure is the answer's
            if each is daemon or not isinstance(output, MypyFailed):
                raise output
            log.warning("another run of %s's mypy failed: %s", project.directory, output)
            # (multidict's 3.11 hook, its environment not the project's): said, not hidden
            run.failed.append(_failed(ws, n, each, output))
            continue
        errors: dict[Path, list[MypyError]] = {}
        for error in parse(output, project.directory, each.mirror.directory, base):
            errors.setdefault(error.path, []).append(error)
        # mypy run once exits 2 at a blocker (exact); dmypy's update says nothing of it
        blocked_update = not output.once and await blocked(errors, held, base, each.interpreter)
        stopped = output.status == 2 or blocked_update
        if stopped:  # where: the files whose errors block it (not another's type: ignore)
            run.blocking |= await blocking(errors, held, base, each.interpreter)
        run.once, run.stopped = run.once or output.once, run.stopped or stopped
        _joined(run.errors, errors)
    if run.stopped:  # at two files of one module name: the configuration's to settle
        refuse_layout(ws, project.config, run.errors, lambda: _chose(ws, project, python, texts))
    return run


def _failed(ws: Workspace, n: int, daemon: Dmypy, failure: MypyFailed) -> str:
    """What the answer says of another run of the gate that mypy failed in."""
    said = f"mypy's run {n + 1} of the gate (its scope's note names it) failed with"
    said += f" {ws.display(daemon.interpreter)} ({failure.why}): its errors are not said;"
    return said + " a CI may run it in another environment"


def _joined(errors: dict[Path, list[MypyError]], more: dict[Path, list[MypyError]]) -> None:
    """`more` (another run's errors) added to `errors`: each file's in order of place, an
    error both runs report said once."""
    for path, found in more.items():
        if path not in errors:
            errors[path] = found
            continue
        known = set(errors[path])
        errors[path] += [e for e in found if e not in known]
        errors[path].sort(key=lambda e: (e.line, e.column))


def _chose(
    ws: Workspace, project: MypyProject, python: list[Path], texts: Mapping[Path, str | None] | None
) -> str:
    """What chose the files the project's mypy was given: its scope's note (a refusal's)."""
    return _scope(ws, project, python, texts).note


def held_python(python: list[Path], texts: Mapping[Path, str | None], root: Path) -> list[Path]:
    """The workspace's Python files in the state `texts` holds: a file they say is gone is
    not, a new one is; mypy's targets and the files it checks are that state's, not the
    disk's (a deleted module's importers, a new module, a renamed one). One on disk that
    `python` lacks is none: git ignores it (mypy follows into it: `mypy_scope`)."""
    gone = {path for path, text in texts.items() if text is None}
    known = set(python)
    new = [
        path
        for path, text in texts.items()
        if text is not None and path.suffix in PYTHON and path not in known and root in path.parents
    ]
    new = [path for path in new if not path.exists()]
    return sorted(path for path in [*python, *new] if path not in gone) if texts else python


def _outside(ws: Workspace, directory: Path) -> int:
    """The watcher's batch that last changed a Python file outside the project (a sibling
    package mypy imports through `mypy_path` or an editable install): 0 when none did, or
    no watcher runs (a one-shot call)."""
    changed = ws.changed_at if ws.changes_seen is not None else {}
    outside = (n for p, n in changed.items() if p.suffix in PYTHON and directory not in p.parents)
    return max(outside, default=0)


def _held(
    project: MypyProject, sees: Sees, texts: Mapping[Path, str | None], base: Path
) -> dict[str, bytes]:
    """What the daemon's copy of `base` (the project, or the package it is in:
    `package_base`) holds, by path relative to it: every Python file the project's mypy
    can see (`sees`, those git ignores too) and its mypy configuration (paths leaving the
    copy made absolute), the disk's text unless `texts` gives another (or says it is gone);
    and the folders the disk keeps without such a file (a stub's folder a `rm` left: a
    namespace package to mypy), and its symlinked folders (`_links`)."""
    directory = project.directory
    files = sees.files()
    files += [directory / name for name in CONFIG_FILES if (directory / name).is_file()]
    files += [p for p in texts if p not in files and base in p.parents]  # a new file
    held: dict[str, bytes] = {}
    named = {path: path.relative_to(base).as_posix() for path in files}
    for path, relative in (named | _links(base, sees, texts, held)).items():
        if path in texts:
            text = texts[path]
            if text is not None:
                held[relative] = text.encode("utf-8")
            continue
        try:
            held[relative] = path.read_bytes()
        except OSError:
            continue  # gone meanwhile: as mypy would not find it
    held.update((p.relative_to(base).as_posix() + FOLDER, b"") for p in sees.folders())
    config = project.config
    if config is not None and (relative := config.path.relative_to(base).as_posix()) in held:
        held[relative] = config_text(config, directory, held[relative], base)
    return held


def _links(
    base: Path, sees: Sees, texts: Mapping[Path, str | None], held: dict[str, bytes]
) -> dict[Path, str]:
    """The symlinked folders of `base` in its copy: a link (into `held`, `LINK`), into the
    copy where it leads inside it (`copy_link`: a held text there read through both names),
    else to its real place; but one leading out of the copy to a folder where `texts` hold
    a file (HEAD's text, a preview's) is the folder its Python files make, each by its name
    through the link (returned: file -> that name), so the state's text is the one read."""
    out: dict[Path, str] = {}
    for link in sees.links():
        rel = link.relative_to(base)
        target = copy_link(base, rel)
        there = Path(target)
        if not there.is_absolute() or not any(there in p.parents for p in texts):
            held[rel.as_posix() + LINK] = target.encode()
            continue
        found = [*mypy_sees(there), *(p for p in texts if there in p.parents)]
        out.update((p, (rel / p.relative_to(there)).as_posix()) for p in found)
    return out
