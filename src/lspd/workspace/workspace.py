"""One workspace root: its sessions (one per server, started on demand), files and paths."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from lspd.dirs import state_dir
from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from lspd.servers.registry import ServerDefinition, definition_for_path, known_extensions
from lspd.workspace import files, paths

log = logging.getLogger(__name__)

# Directories never scanned for languages (nor, later, watched).
IGNORED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".tox",
        "dist",
        "build",
        "target",
        ".next",
        ".cache",
    }
)


class Workspace:
    """Language intelligence for the files under `root`.

    Sessions start on first need and stay warm; a crashed one is restarted by the next call.
    Every answer is about the file as it is on disk now: each call re-reads the file and
    sends the server the new text when it changed.
    """

    def __init__(
        self,
        root: Path,
        *,
        request_timeout: float = 30.0,
        diagnostics_timeout: float = 20.0,
        log_dir: Path | None = None,
    ) -> None:
        self.root = root.resolve()
        if not self.root.is_dir():
            raise InvalidInput(f"workspace root {root} is not a directory")
        self.request_timeout = request_timeout
        self.diagnostics_timeout = diagnostics_timeout
        self.log_dir = log_dir or state_dir(self.root) / "logs"
        self.started = time.monotonic()
        self.sessions: dict[str, Session] = {}
        self._file_locks: dict[Path, asyncio.Lock] = {}
        # (mtime_ns, size) of the disk text each open document was last synced from.
        self._stamps: dict[Path, tuple[int, int]] = {}
        self._languages: tuple[float, list[ServerDefinition]] | None = None  # (when, which)

    # -- paths -----------------------------------------------------------------------------

    def resolve(self, raw: str) -> Path:
        return paths.confine(self.root, raw)

    def display(self, path: Path) -> str:
        return paths.display(self.root, path)

    # -- sessions --------------------------------------------------------------------------

    def definition_for(self, path: Path) -> ServerDefinition:
        definition = definition_for_path(path)
        if definition is None:
            suffix = path.suffix or "no extension"
            raise InvalidInput(
                f"no language server handles {self.display(path)} ({suffix}); "
                f"lspd knows these extensions: {', '.join(known_extensions())}"
            )
        return definition

    def session(self, definition: ServerDefinition) -> Session:
        session = self.sessions.get(definition.name)
        if session is None:
            session = Session(
                definition, self.root, self.log_dir, request_timeout=self.request_timeout
            )
            self.sessions[definition.name] = session
        return session

    def session_for(self, path: Path) -> Session:
        return self.session(self.definition_for(path))

    async def open(self, raw_path: str, content: str | None = None) -> tuple[Session, Document]:
        """The session for `raw_path` holding the file's current text (or `content`)."""
        path = self.resolve(raw_path)
        shown = self.display(path)
        stamp = _stamp(path)
        on_disk = files.read_source(path, shown)  # missing file, directory, binary: clear errors
        definition = self.definition_for(path)
        session = self.session(definition)
        language_id = definition.extensions[path.suffix.lower()]
        if content is None:
            document = await session.sync_document(path, on_disk, language_id)
            if stamp is not None:
                self._stamps[path] = stamp
        else:
            document = await session.sync_document(path, content, language_id)
            self._stamps.pop(path, None)  # the server does not hold the disk text
        return session, document

    @contextlib.asynccontextmanager
    async def file_lock(self, path: Path) -> AsyncIterator[None]:
        """Serialize calls that temporarily replace a file's text (unsaved content)."""
        lock = self._file_locks.setdefault(path, asyncio.Lock())
        async with lock:
            yield

    async def refresh_open_documents(self) -> None:
        """Send every open document's current disk text, so cross-file answers are current.

        A `stat` per document; a file is read again only when its size or mtime changed, or
        when its mtime is too recent to tell two writes apart (see `_settled`).
        """
        for session in list(self.sessions.values()):
            for document in list(session.documents.values()):
                path = document.path
                stamp = _stamp(path)
                if stamp is not None and stamp == self._stamps.get(path) and _settled(stamp):
                    continue
                try:
                    text = files.read_source(path, self.display(path))
                except InvalidInput:
                    session.close_document(path)
                    self._stamps.pop(path, None)
                    continue
                if text != document.text:
                    await session.sync_document(path, text, document.language_id)
                if stamp is not None:
                    self._stamps[path] = stamp

    # -- lifecycle -------------------------------------------------------------------------

    def languages_present(self) -> list[ServerDefinition]:
        """The servers for the languages found under the root (a bounded scan).

        Workspace-wide questions ask this on every call; the scan is redone only when it
        is older than `LANGUAGES_TTL_S`, so a big tree is not walked per call.
        """
        now = time.monotonic()
        if self._languages is None or now - self._languages[0] > LANGUAGES_TTL_S:
            found: dict[str, ServerDefinition] = {}
            for path in walk(self.root, LANGUAGE_SCAN_LIMIT):
                definition = definition_for_path(path)
                if definition is not None:
                    found.setdefault(definition.name, definition)
            self._languages = (now, list(found.values()))
        return self._languages[1]

    async def prewarm(self) -> None:
        """Start the servers of the languages present; a missing server is only logged."""
        for definition in self.languages_present():
            try:
                await self.session(definition).start()
            except Exception as exc:
                log.warning("prewarm of %s failed: %s", definition.name, exc)

    async def stop_idle(self, idle_s: float) -> None:
        now = time.monotonic()
        for session in self.sessions.values():
            if session.state == "ready" and now - session.last_used > idle_s:
                log.info("stopping %s after %.0f s idle", session.name, now - session.last_used)
                await session.stop()

    async def close(self) -> None:
        await asyncio.gather(*(session.stop() for session in self.sessions.values()))


LANGUAGE_SCAN_LIMIT = 20_000  # files looked at to find which languages a workspace has
LANGUAGES_TTL_S = 30.0

# Two writes this close to each other can leave the same size and mtime (the file system's
# clock ticks coarsely), so a stamp this young proves nothing: read the file.
RACY_NS = 2_000_000_000


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size)


def _settled(stamp: tuple[int, int]) -> bool:
    return time.time_ns() - stamp[0] > RACY_NS


def walk(root: Path, limit: int = 200_000) -> Iterable[Path]:
    """Files under `root`, skipping ignored and hidden directories, at most `limit`."""
    count = 0
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in IGNORED_DIRS and not d.startswith(".")]
        for name in filenames:
            count += 1
            if count > limit:
                return
            yield Path(directory) / name
