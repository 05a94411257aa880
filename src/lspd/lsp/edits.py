"""Edits a server sends back (`workspace/applyEdit`): captured for whoever asked, never applied.

A code action may carry a command instead of its edit: the server computes the edit when
the command runs and sends it to the client to apply. lspd runs only the commands whose one
effect is that edit (`EDIT_ONLY_COMMANDS`), while a `Capture` listens: the edit is kept and
the server is told it was not applied, so no file, no document and no server view changes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

# Commands that do nothing but compute an edit and send it through `workspace/applyEdit`.
# Every other command may run a process or write files (tsserver's
# `_typescript.applyCodeActionCommand` installs packages, gopls's `gopls.tidy` runs go):
# lspd never runs those.
EDIT_ONLY_COMMANDS = frozenset(
    {
        "_typescript.organizeImports",  # typescript-language-server
        "gopls.apply_fix",  # gopls: the fix of an analyzer's diagnostic
        "gopls.add_import",
        "basedpyright.organizeimports",
        "pyright.organizeimports",  # the same command of a project's own pyright
    }
)

# Source actions a server runs as a command without offering them as code actions, by
# server: (title, kind, command), the command given the document's URI. basedpyright's code
# actions are quick fixes only (its provider drops every other kind), though its
# `basedpyright.organizeimports` command (what its VS Code extension calls) sorts the
# module-level imports and sends the edit back (`workspace/applyEdit`, and as its answer).
SOURCE_COMMANDS = {
    "basedpyright": [
        ("Organize imports", "source.organizeImports", "basedpyright.organizeimports")
    ],
    "pyright": [("Organize imports", "source.organizeImports", "pyright.organizeimports")],
}

NOT_APPLIED = "lspd only reads edits: the caller applies them"


class Capture:
    """The edits a server sends while one caller listens (one at a time per server)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._edits: list[dict[str, Any]] | None = None

    def receive(self, params: Any) -> dict[str, Any]:
        """The reply to `workspace/applyEdit`: kept when someone listens; never applied."""
        edit = (params or {}).get("edit")
        if self._edits is not None and isinstance(edit, dict):
            self._edits.append(edit)
        return {"applied": False, "failureReason": NOT_APPLIED}

    @contextlib.asynccontextmanager
    async def listening(self) -> AsyncIterator[list[dict[str, Any]]]:
        """The `WorkspaceEdit`s the server sends until the block ends."""
        async with self._lock:
            edits: list[dict[str, Any]] = []
            self._edits = edits
            try:
                yield edits
            finally:
                self._edits = None
