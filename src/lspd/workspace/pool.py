"""The sessions of one workspace root: one per server and toolchain, or per project for
servers that take one project only, made on first need and kept (a crashed one restarts
at its next request). `session_for` is the way to the session answering a path."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.servers.install import install_on_need
from lspd.servers.registry import ServerDefinition, definitions, known_extensions
from lspd.workspace import paths
from lspd.workspace.config import Config, merge
from lspd.workspace.dmypy import Dmypy
from lspd.workspace.ignore import Ignore
from lspd.workspace.left_out import LeftOut
from lspd.workspace.paths import Walked
from lspd.workspace.projects import Projects
from lspd.workspace.retool import Key, Toolchains
from lspd.workspace.toolchain import Toolchain, settler

# The key's mark of a session for files over the size limits (`session(heavy=True)`).
HEAVY = " heavy"


class SessionPool:
    """The servers of one root as it runs them (lspd.toml's arguments and settings applied,
    none of them in restricted mode) and their sessions.

    `handler` and `definition_for` say which server answers a path; `session_for` gives its
    session; `session` the session of a project (prewarm starts those); `key` and `adapted`
    say which session and which server (as the project's toolchain runs it) without one.
    """

    def __init__(
        self,
        root: Path,
        config: Config,
        restricted: bool,
        ignore: Ignore,
        left_out: LeftOut,
        log_dir: Path,
        request_timeout: float,
        watching: Callable[[], bool],
    ) -> None:
        self.root = root
        self.log_dir = log_dir
        self.request_timeout = request_timeout
        self.left_out = left_out
        self._watching = watching  # then servers leave file watching to lspd
        apply = (lambda d: d) if restricted else config.apply
        self.definitions = {name: apply(d) for name, d in definitions().items()}
        # lspd.toml's server per language (language -> server name).
        self.servers_by_language = {} if restricted else config.chosen
        # One session per (server, project root): nested projects each get their own.
        # By (server, toolchain) for servers taking several projects, else (server, project).
        self.sessions: dict[Key, Session] = {}
        self.toolchains = Toolchains(root, config, restricted, self.definitions, self.sessions)
        self.projects = Projects(root, self.definitions, self.servers_by_language, ignore)
        # The dmypy daemons of mypy-gated projects, by (project, interpreter, run): stopped with
        # the servers (`engine.mypy_check`).
        self.mypy: dict[tuple[Path, Path, int], Dmypy] = {}

    def display(self, path: Path) -> str:
        """`path` as answers show it: relative to the root when inside it."""
        return paths.display(self.root, path)

    def handler(self, path: Path) -> ServerDefinition | None:
        """The server for `path` as this workspace runs it (lspd.toml's choice), or None."""
        return self.projects.handler(path)

    def definition_for(self, path: Path) -> ServerDefinition:
        """The server for `path`; a file no server handles is an error saying which do."""
        definition = self.handler(path)
        if definition is None:
            suffix = path.suffix or "no extension"
            raise InvalidInput(
                f"no language server handles {self.display(path)} ({suffix}); "
                f"lspd knows these extensions: {', '.join(known_extensions())}"
            )
        return definition

    def project_root(
        self, path: Path, definition: ServerDefinition, above: Walked | None = None
    ) -> Path:
        """The nearest directory above `path` holding one of the server's project markers
        (`above`: the lstat of each directory above it, nearest first, when taken)."""
        return self.projects.project_root(path, definition, above)

    def session_for(self, path: Path) -> Session:
        """The session answering `path` (made, not started, on first need)."""
        definition = self.definition_for(path)
        return self.session(definition, self.project_root(path, definition))

    def session(
        self, definition: ServerDefinition, project: Path | None = None, heavy: bool = False
    ) -> Session:
        """The session answering `project` (default: the workspace root) for `definition`.

        A server that takes several projects (`shared` in servers.toml: workspace folders, or
        its own project discovery as tsserver's) runs once per toolchain: projects with the
        same TypeScript or interpreter share its process. Others run once per project.
        `heavy`: a second one of its own, for the files over the size limits that are asked
        about: a server works on one file at a time, and such a file keeps it busy for up to
        minutes (design.md, "A server stuck on one file").
        """
        project = project or self.root
        key, adapted, toolchain = self._adapted(definition, project)
        key = (key[0], key[1] + HEAVY) if heavy else key
        session = self.sessions.get(key)
        if session is None:
            logs = self.log_dir / "heavy" if heavy else self.log_dir
            if project != self.root:
                logs = logs / "projects" / project.relative_to(self.root)
            if self._watching() and adapted.watching_options:
                options = merge(adapted.initialization_options, adapted.watching_options)
                adapted = dataclasses.replace(adapted, initialization_options=options)
            session = Session(
                adapted,
                project,
                logs,
                request_timeout=self.request_timeout,
                toolchain=None if toolchain is None else toolchain.label(),
                prepare=install_on_need,
                settle=settler(adapted, toolchain, project),
                watch=self.left_out.watch(adapted.name),
            )
            session.stall.reason = self.toolchains.announced.pop(key, None)
            self.sessions[key] = session
        else:
            session.add_folder(project)
        return session

    def _adapted(
        self, definition: ServerDefinition, project: Path
    ) -> tuple[Key, ServerDefinition, Toolchain | None]:
        """The key of the session answering `project`, and the server as it runs there."""
        # Looked up again now and then: a new .venv restarts the server (`retool`). Its
        # TypeScript 7 may run another server (`tsc --lsp`).
        return self.toolchains.key(definition, project)

    def regular(self) -> list[Session]:
        """The sessions but the ones for heavy files."""
        return [s for key, s in self.sessions.items() if not key[1].endswith(HEAVY)]

    def adapted(
        self, definition: ServerDefinition, project: Path
    ) -> tuple[ServerDefinition, Toolchain | None]:
        """The server as it runs for `project`, and the project's TypeScript or Python."""
        return self._adapted(definition, project)[1:]

    def key(self, definition: ServerDefinition, project: Path) -> Key:
        """Which session answers `project` for `definition` (see `session`)."""
        return self._adapted(definition, project)[0]

    def document(self, path: Path) -> Document | None:
        """The open document of `path` (the text its server holds), if any."""
        uri = path_to_uri(path)
        for session in self.sessions.values():
            if (document := session.documents.get(uri)) is not None:
                return document
        return None

    async def stop(self, polite: bool = True) -> None:
        """Stop every server (`polite`: each asked to shut down first)."""
        await asyncio.gather(
            *(session.stop(polite) for session in self.sessions.values()),
            *(daemon.stop() for daemon in self.mypy.values()),
        )
