"""What a server asks of lspd: its requests answered, and the capabilities it registers.

lspd is a read-only client: it answers configuration from the server's settings, keeps the
registrations (file watchers, pull diagnostics), captures the edits a server sends back for
the caller that asked (`lspd.lsp.edits`: never applied) and refuses documents to show.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lspd.lsp.configuration import Configuration
from lspd.lsp.edits import Capture
from lspd.lsp.globs import WATCH_CHANGE, WATCH_CREATE, WATCH_DELETE, FileWatcher, file_watchers
from lspd.lsp.text import path_to_uri

WATCHED_FILES = "workspace/didChangeWatchedFiles"


class Registrations:
    """The capabilities a server registered, by id, and the file watchers among them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.by_id: dict[str, dict[str, Any]] = {}
        self.file_watchers: list[FileWatcher] = []  # what it asked to hear of
        self.edits = Capture()  # the edits it asks lspd to apply, kept for who listens

    def clear(self) -> None:
        self.by_id.clear()
        self.file_watchers = []

    def register(self, params: Any) -> None:
        for registration in (params or {}).get("registrations", []):
            self.by_id[registration["id"]] = _joined(
                self.by_id.get(registration["id"]), registration
            )
        self._update()

    def unregister(self, params: Any) -> None:
        for registration in (params or {}).get("unregisterations", []):
            self.by_id.pop(registration.get("id"), None)
        self._update()

    def watches(self, path: Path, change: int, folders: Iterable[Path] = ()) -> bool:
        """Whether the server asked to hear of this change (`FileChangeType` 1, 2 or 3); a
        plain glob's relative to each of `folders` (its workspace folders) too."""
        kind = {1: WATCH_CREATE, 2: WATCH_CHANGE, 3: WATCH_DELETE}.get(change, 0)
        bases = list(folders)
        return any(watcher.matches(path, kind, bases) for watcher in self.file_watchers)

    def _update(self) -> None:
        self.file_watchers = [
            watcher
            for registration in self.by_id.values()
            for watcher in file_watchers(registration, self.root)
        ]


def answer(
    method: str, params: Any, configuration: Configuration, registrations: Registrations
) -> Any:
    """The reply to one server-to-client request."""
    if method == "workspace/configuration":
        return configuration.answer(params)
    if method == "client/registerCapability":
        registrations.register(params)
        return None
    if method == "client/unregisterCapability":
        registrations.unregister(params)
        return None
    if method == "workspace/workspaceFolders":
        root = registrations.root
        return [{"uri": path_to_uri(root), "name": root.name}]
    if method == "workspace/applyEdit":
        return registrations.edits.receive(params)
    if method == "window/showDocument":
        return {"success": False}
    # window/workDoneProgress/create, workspace/diagnostic/refresh, */refresh,
    # window/showMessageRequest and anything newer: an empty success. An error reply makes
    # some servers exit (basedpyright).
    return None


def _joined(earlier: dict[str, Any] | None, registration: dict[str, Any]) -> dict[str, Any]:
    """A file-watcher registration reusing a live id adds its watchers, as VS Code does:
    pyrefly registers its workspace's globs, then its library globs, under one id."""
    if (
        earlier is None
        or earlier.get("method") != WATCHED_FILES
        or registration.get("method") != WATCHED_FILES
    ):
        return registration
    options = registration.get("registerOptions") or {}
    watchers = [*(earlier.get("registerOptions") or {}).get("watchers", [])]
    watchers += [w for w in options.get("watchers", []) if w not in watchers]
    return {**registration, "registerOptions": {**options, "watchers": watchers}}
