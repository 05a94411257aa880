"""Which server answers a file, its project root, and the projects present under the root."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.servers.registry import ServerDefinition, definition_for_path
from lspd.workspace import paths
from lspd.workspace.ignore import Ignore

LANGUAGE_SCAN_LIMIT = 20_000  # files looked at to find which languages a workspace has
LANGUAGES_TTL_S = 30.0


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

    def handler(self, path: Path) -> ServerDefinition | None:
        """The server for `path` as this workspace runs it (lspd.toml's choice), or None."""
        definition = definition_for_path(path, self.servers_by_language)
        return None if definition is None else self.definitions[definition.name]

    def project_root(self, path: Path, definition: ServerDefinition) -> Path:
        """The nearest directory above `path`, up to the root, holding one of the server's
        project markers (`roots` in servers.toml); the workspace root when none does.

        Ignored directories (node_modules, ...) are passed over: a library's own
        package.json must not start a server for it.
        """
        if definition.roots:  # as strings: pathlib's objects cost more than the stats (hover)
            inside, top = paths.below(self.root), str(self.root)
            directory = os.path.dirname(path)
            while directory.startswith(inside) and directory != top:  # `/` is below `/`
                marked = any(os.path.isfile(os.path.join(directory, m)) for m in definition.roots)
                if marked and not self.ignore(Path(directory)):  # rules only where a marker is
                    return Path(directory)
                directory = os.path.dirname(directory)
        return self.root

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
                        project = home[definition.name]
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
