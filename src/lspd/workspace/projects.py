"""Which server answers a file, its project root, and the projects present under the root."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.servers.registry import ServerDefinition, definition_for_path
from lspd.workspace import files, paths
from lspd.workspace.ignore import Ignore, RulesStamp
from lspd.workspace.pyright_home import configuration_home

LANGUAGE_SCAN_LIMIT = 20_000  # files looked at to find which languages a workspace has
LANGUAGES_TTL_S = 30.0
ROOTS_KEPT = 10_000  # directories whose project root is kept (all forgotten past that)
Stamp = tuple[int, int, int]  # a directory's mtime_ns, inode and device (its lstat)
# A kept project root: it, its directories' stamps, whether the ignore rules were asked (a
# marked directory was found) and the stamp of the rules then.
Kept = tuple[Path, list[Stamp | None], bool, RulesStamp]


@dataclass(frozen=True)
class Project:
    """A server's project under the root: where its session is rooted, and one of its files
    (a server such as tsserver answers workspace-wide questions only once a file is open)."""

    definition: ServerDefinition
    root: Path
    sample: Path


class Projects:
    """The servers of one workspace (lspd.toml applied) and the projects they serve."""

    def __init__(
        self,
        root: Path,
        definitions: Mapping[str, ServerDefinition],
        servers_by_language: Mapping[str, str],
        ignore: Ignore,
    ) -> None:
        self.root = root
        self.definitions = definitions
        self.servers_by_language = servers_by_language  # lspd.toml's: language -> server
        self.ignore = ignore
        self._present: tuple[float, list[Project]] | None = None  # (when, which)
        self.generation = 0  # how often files came or went (`forget`): scans made since are stale
        # `project_root`'s answers per (markers, directory), with the stamps they hold for:
        # the directories', and the ignore rules' when they were asked (`Ignore.rules`).
        self._roots: dict[tuple[tuple[str, ...], str], Kept] = {}

    def handler(self, path: Path) -> ServerDefinition | None:
        """The server for `path` as this workspace runs it (lspd.toml's choice), or None."""
        definition = definition_for_path(path, self.servers_by_language)
        return None if definition is None else self.definitions[definition.name]

    def project_root(
        self, path: Path, definition: ServerDefinition, above: paths.Walked | None = None
    ) -> Path:
        """The nearest directory above `path`, up to the root, holding one of the server's
        project markers (`roots` in servers.toml); the workspace root when none does.

        Ignored directories (node_modules, ...) are passed over: a library's own
        package.json must not start a server for it.

        Kept per directory while every directory from it up to the root is as it was (its
        lstat's inode and mtime: a marker, a `pyvenv.cfg` or a directory coming or going
        changes its directory's mtime), one lstat a level instead of one stat per marker a
        level (a warm hover's 26-111 us at 1-4 levels, 5.5 us a syscall here), and while
        the `.gitignore` is as it was when its rules were asked about a marked directory
        (its stat, then: an edit in place changes no directory; none where no directory
        above the file holds a marker). Not kept while a directory's mtime or the
        `.gitignore`'s is too recent to tell two changes apart (`files.RACY_NS`), nor when
        a marker is a symlink (its target may come or go).
        `above`: the lstat of each directory above `path` below the root, nearest first,
        when the caller took them (`paths.confined`), before it asked.
        """
        if not definition.roots:
            return self.root
        # As strings: pathlib's objects cost more than the stats (hover).
        inside, top = paths.below(self.root), str(self.root)
        chain = []  # the directories above `path`, below the root, nearest first
        directory = os.path.dirname(path)
        while directory.startswith(inside) and directory != top:  # `/` is below `/`
            chain.append(directory)
            directory = os.path.dirname(directory)
        key = (definition.roots, chain[0] if chain else top)
        now = time.time_ns()
        stamps: list[Stamp | None]
        if above is not None and len(above) == len(chain):
            stamps = [(s.st_mtime_ns, s.st_ino, s.st_dev) for s in above]
        else:  # before the markers are looked at
            stamps = [_stamp(d) for d in chain]
        known = self._roots.get(key)
        # Kept: the same directories, and the same .gitignore if its rules were asked (a stat).
        if known and known[1] == stamps and (not known[2] or self.ignore.rules() == known[3]):
            return self._home(known[0], definition)
        found, cacheable = self.root, None not in stamps
        asked, rules = False, None  # whether the ignore rules were asked, and their stamp
        for directory in chain:
            marked, plain = _marked(directory, definition.roots)
            cacheable = cacheable and plain
            if not marked:
                continue
            if not asked:  # the rules only where a marker is (read again if they changed)
                asked, rules = True, self.ignore.rules()
                cacheable = cacheable and self.ignore.settled
            if not self.ignore.directory(Path(directory), fresh=False):  # (`dist/` too)
                found = Path(directory)
                break
        if cacheable and all(now - s[0] > files.RACY_NS for s in stamps if s is not None):
            if len(self._roots) >= ROOTS_KEPT:
                self._roots.clear()
            self._roots[key] = (found, stamps, asked, rules)
        return self._home(found, definition)

    def _home(self, found: Path, definition: ServerDefinition) -> Path:
        """`found`, or the directory above it whose configuration its server reads there
        (`config_above`: a pyproject.toml without a pyright table; read each time, the
        directories' stamps do not follow an edit of it)."""
        if not definition.config_above or found == self.root:
            return found
        return configuration_home(found, self.root) or found

    def forget(self) -> None:
        """Files came or went: the next `present` scans again."""
        self._present = None
        self.generation += 1

    def present(self) -> list[Project]:
        """Each (server, project root) that files under the root need (a bounded scan).

        A file's project is its nearest directory holding one of its server's markers, as
        in `project_root`. Workspace-wide questions ask this on every call; the scan is
        redone only when it is older than `LANGUAGES_TTL_S` (or files came or went).
        """
        now = time.monotonic()
        if self._present is None or now - self._present[0] > LANGUAGES_TTL_S:
            found: dict[tuple[str, Path], Project] = {}
            homes: dict[Path, dict[str, Path]] = {}  # directory -> server -> project root
            read: dict[tuple[str, Path], Path] = {}  # a marked root -> its project (`_home`)
            for directory, names in self.ignore.walk(LANGUAGE_SCAN_LIMIT):
                above = homes.get(directory.parent, {})
                here = set(names)
                home = homes[directory] = {
                    name: directory
                    if here.intersection(definition.roots)
                    else above.get(name, self.root)
                    for name, definition in self.definitions.items()
                }
                for name in names:
                    definition = self.handler(directory / name)
                    if definition is not None:
                        marked = home[definition.name]
                        if (definition.name, marked) not in read:
                            read[definition.name, marked] = self._home(marked, definition)
                        project = read[definition.name, marked]
                        found.setdefault(
                            (definition.name, project),
                            Project(definition, project, directory / name),
                        )
            self._present = (now, list(found.values()))
        return self._present[1]

    def source_files(self, limit: int = 200_000) -> Iterable[Path]:
        """Every file under the root that `ignore` keeps and a server handles, at most
        `limit` looked at."""
        for directory, names in self.ignore.walk(limit):
            for name in names:
                if self.handler(directory / name) is not None:
                    yield directory / name


def _stamp(directory: str) -> Stamp | None:
    """What tells whether `directory`'s entries changed (None: it cannot be lstat'ed)."""
    try:
        status = os.lstat(directory)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_ino, status.st_dev


def _marked(directory: str, markers: tuple[str, ...]) -> tuple[bool, bool]:
    """Whether `directory` holds one of `markers` as a file, and whether that answer holds
    while the directory's entries stay: no marker looked at is a symlink (its target may
    come or go without the directory changing)."""
    marked, plain = False, True
    for marker in markers:
        candidate = os.path.join(directory, marker)
        try:
            status = os.lstat(candidate)
        except OSError:
            continue
        if not stat.S_ISLNK(status.st_mode):
            if stat.S_ISREG(status.st_mode):
                return True, plain  # marked whatever the other markers are
            continue
        plain = False
        marked = marked or os.path.isfile(candidate)
    return marked, plain
