"""Each project's toolchain, looked up again while the daemon runs: a new `.venv` / `venv`,
a changed `python` or `typescript` in lspd.toml, or another `node_modules/typescript` get
the server that runs it restarted (`status` says why), without `lspd stop`.

The watcher cannot tell: virtual environments and node_modules are not watched (they hold
tens of thousands of files), and `python -m venv` writes `pyvenv.cfg` after the directory.
So a question looks again, at most every `RECHECK_S` per server and project: a few `stat`
calls and lspd.toml's (mtime, size); an idle daemon does nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import ConfigError, InvalidInput
from lspd.lsp.session import Session
from lspd.servers.registry import ServerDefinition
from lspd.workspace import files
from lspd.workspace.config import CONFIG_NAME, Config, load_config
from lspd.workspace.pyright_scope import PYPROJECT, _json, _table, config_in
from lspd.workspace.tool_stamps import ToolStamps
from lspd.workspace.toolchain import Choice, Toolchain, adapt
from lspd.workspace.watcher import Change, FileEvent

log = logging.getLogger(__name__)

RECHECK_S = 2.0
Key = tuple[str, str]  # a session's: (server, "toolchain:PATH" or "project:PATH")


@dataclass(frozen=True)
class Found:
    """A server as it runs for one project, the toolchain it runs, and when it was found."""

    adapted: ServerDefinition
    toolchain: Toolchain | None
    at: float


def settings_of(config: Config, root: Path, restricted: bool) -> Choice:
    """lspd.toml's toolchain settings (`python`, `typescript`); restricted mode runs none of the
    project's."""
    python = None if config.python is None else root / config.python
    return Choice(typescript=config.typescript, python=python, restricted=restricted)


def label(toolchain: Toolchain | None) -> str:
    """How status names a toolchain (`none` when the server runs without one)."""
    return "none" if toolchain is None else toolchain.label()


def key_of(found: Found, project: Path) -> Key:
    """The session answering `project` with `found`: one per toolchain for a server that
    takes several projects (`shared`), else one per project."""
    if found.adapted.shared:
        return (found.adapted.name, f"toolchain:{found.toolchain.path if found.toolchain else ''}")
    return (found.adapted.name, f"project:{project}")


class Toolchains:
    """The toolchain of each (server, project), found again when it may have changed; a
    session running one no longer found is stopped (`sessions`: the workspace's)."""

    def __init__(
        self,
        root: Path,
        config: Config,
        restricted: bool,
        definitions: Mapping[str, ServerDefinition],
        sessions: dict[Key, Session],
    ) -> None:
        self.root = root
        self.restricted = restricted
        self.settings = settings_of(config, root, restricted)  # lspd.toml's, for toolchains
        self._definitions = definitions
        self._sessions = sessions
        self._config = files.stamp(root / CONFIG_NAME)
        self._found: dict[tuple[str, Path], Found] = {}
        self.announced: dict[Key, str] = {}  # why the next session of a key starts
        self._stopping: set[asyncio.Task[None]] = set()
        self.stamps = ToolStamps(root)  # each toolchain's on disk as first found (`moved`)

    def key(
        self, definition: ServerDefinition, project: Path
    ) -> tuple[Key, ServerDefinition, Toolchain | None]:
        """The key of the session answering `project`, and the server as it runs there."""
        found, before = self.adapted(definition, project)
        key = key_of(found, project)
        if before is not None:  # the session running the old toolchain goes
            was, now = label(before.toolchain), label(found.toolchain)
            why = f"({was} before, now {now})" if was != now else f"on disk ({now})"
            self.announced[key] = f"its toolchain changed {why}"
            self._stop(key_of(before, project))
        return key, found.adapted, found.toolchain

    def in_use(self) -> list[tuple[Path, Toolchain | None]]:
        """Each project's toolchain as last found (`tool_stamps` looks at them again)."""
        return [(project, found.toolchain) for (_, project), found in self._found.items()]

    def look_again(self) -> None:
        """Each toolchain found again at its next question, not `RECHECK_S` after it was
        last (one changed on disk, `tool_stamps`: basedpyright upgraded in the .venv is
        another label, so the server restarts and the kept results are made again)."""
        self._found = {k: dataclasses.replace(f, at=-math.inf) for k, f in self._found.items()}

    def restart(self, key: Key, why: str) -> None:
        """The session of `key` stopped, to start again at its next question (`why`: what
        status says of it)."""
        if key in self._sessions:
            log.info("%s restarts: %s", key[0], why)
            self.announced[key] = why
            self._stop(key)

    def _stop(self, key: Key) -> None:
        old = self._sessions.pop(key, None)
        if old is not None:
            task = asyncio.get_running_loop().create_task(old.stop())
            self._stopping.add(task)
            task.add_done_callback(self._stopping.discard)

    def adapted(self, definition: ServerDefinition, project: Path) -> tuple[Found, Found | None]:
        """How `definition` runs for `project`, and what it ran before when that changed
        since it was last looked up (then the server running that must go)."""
        now = time.monotonic()
        key = (definition.name, project)
        last = self._found.get(key)
        if last is not None and now - last.at < RECHECK_S:
            return last, None
        self._reread_config()
        adapted, toolchain = adapt(definition, project, self.root, self.settings, self._definitions)
        found = self._found[key] = Found(adapted, toolchain, now)
        if last is None:
            self.stamps.moved([(project, toolchain)], [])  # its stamp as first found
        renewed = last is not None and self.stamps.took(project, toolchain)  # same label
        if last is None or ((last.adapted, last.toolchain) == (adapted, toolchain) and not renewed):
            return found, None
        log.info(
            "%s for %s: %s, was %s",
            definition.name,
            project,
            label(toolchain),
            label(last.toolchain),
        )
        return found, last

    def _reread_config(self) -> None:
        """lspd.toml's `python` and `typescript`, again when the file changed (a mistake in
        it is logged and the last good settings kept: `lspd serve` checks it at start)."""
        stamp = files.stamp(self.root / CONFIG_NAME)
        if stamp == self._config:
            return
        self._config = stamp
        try:
            config = load_config(self.root)
        except ConfigError as exc:
            log.warning("lspd.toml changed but cannot be used (%s); keeping the last one", exc)
            return
        self.settings = settings_of(config, self.root, self.restricted)


def stubs_moved(folders: list[Path], events: list[FileEvent]) -> Path | None:
    """The stub folder (`stubPath`, `typings` by default) of one of `folders` (a pyright
    server's projects) in which a file or folder came or went, if any. basedpyright's
    running server follows no file there (its watchers are the `include` folders' and the
    environment's): it kept a deleted stub's types for good (the untyped library's errors
    unsaid: a `rm typings/lib/__init__.pyi` unseen), or read the folder left as a namespace
    package; only a new server resolves the import as its CLI does."""
    came = [e.path for e in events if e.change is not Change.changed]
    if not came:
        return None
    for folder in folders:
        stubs = stub_path(folder)
        if any(path == stubs or stubs in path.parents for path in came):
            return stubs
    return None


def stub_path(folder: Path) -> Path:
    """The `stubPath` of the pyright configuration of `folder` (of the file naming it in its
    `extends` chain), `folder`/typings when none names it."""
    try:
        config = config_in(folder)
    except InvalidInput:
        config = None
    for read in config.read if config is not None else ():
        try:
            table = _table(read) if read.name == PYPROJECT else _json(read)
            value = (table or {}).get("stubPath")
        except InvalidInput:
            continue
        if isinstance(value, str):
            return Path(read.parent, value).resolve()
    return folder / "typings"
