"""The workspace folders a session serves, and which of their projects its server loaded."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lspd.lsp.text import path_to_uri

log = logging.getLogger(__name__)


class Folders:
    """Project roots served by one server (several when their toolchain is shared).

    Per folder, an event set once the server has published diagnostics of a file in it:
    tsserver loads a tsconfig's project when a file of it opens, and answers before that
    are partial (`import Settings`).
    """

    def __init__(self, root: Path) -> None:
        self.paths: list[Path] = [root]
        self._loaded: dict[Path, asyncio.Event] = {root: asyncio.Event()}

    def add(
        self, folder: Path, running: dict[str, Any] | None, notify: Callable[[str, Any], None]
    ) -> None:
        """Serve `folder` too: told at once to a running server (`running`: its
        capabilities) that takes folder changes (the pyright family, gopls), else at its
        next start."""
        if folder in self.paths:
            return
        self.paths.append(folder)
        self._loaded[folder] = asyncio.Event()
        changes = (running or {}).get("workspace", {}).get("workspaceFolders", {})
        if isinstance(changes, dict) and changes.get("changeNotifications"):
            event = {"added": [workspace_folder(folder)], "removed": []}
            notify("workspace/didChangeWorkspaceFolders", {"event": event})

    def reset(self) -> None:
        """A new server process has loaded nothing yet."""
        self._loaded = {folder: asyncio.Event() for folder in self.paths}

    def holding(self, path: Path) -> Path | None:
        """The innermost folder holding `path`."""
        holding = [folder for folder in self.paths if path.is_relative_to(folder)]
        return max(holding, key=lambda folder: len(folder.parts)) if holding else None

    def published(self, path: Path | None) -> None:
        """The server published diagnostics of `path`: it has loaded that file's project."""
        folder = None if path is None else self.holding(path)
        if folder is not None:
            self._loaded[folder].set()

    async def wait_loaded(self, path: Path, timeout: float, server: str) -> None:
        """Until the server has loaded the project of `path` (at most `timeout`)."""
        folder = self.holding(path)
        if folder is None or self._loaded[folder].is_set():
            return
        try:
            await asyncio.wait_for(self._loaded[folder].wait(), timeout)
        except TimeoutError:
            log.warning("%s did not load %s in time; going on", server, folder)
            self._loaded[folder].set()


def workspace_folder(path: Path) -> dict[str, str]:
    """The LSP `WorkspaceFolder` of a directory."""
    return {"uri": path_to_uri(path), "name": path.name}
