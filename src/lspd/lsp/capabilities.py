"""What lspd tells servers it can do. Honest: only what the session really handles."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from lspd.lsp.answers import CLIENT
from lspd.lsp.folders import workspace_folder
from lspd.lsp.text import path_to_uri

# LSP's SymbolKind numbers 1..26, by name. A table rather than lsprotocol's enum: importing
# lsprotocol.types costs ~0.4 s, which a warm CLI call must not pay.
SYMBOL_KINDS = (
    "file", "module", "namespace", "package", "class", "method", "property", "field",
    "constructor", "enum", "interface", "function", "variable", "constant", "string", "number",
    "boolean", "array", "object", "key", "null", "enum_member", "struct", "event", "operator",
    "type_parameter",
)  # fmt: skip


def initialize_params(root: Path, folders: list[Path], options: Any) -> dict[str, Any]:
    """The `initialize` request of a server run at `root` for `folders`."""
    return {
        "processId": os.getpid(),
        "clientInfo": {"name": "lspd"},
        "rootUri": path_to_uri(root),
        "rootPath": str(root),
        "workspaceFolders": [workspace_folder(folder) for folder in folders],
        "capabilities": client_capabilities(),
        "initializationOptions": options,
    }


def client_capabilities() -> dict[str, Any]:
    """LSP `ClientCapabilities`, as JSON: written out rather than built with lsprotocol's
    types (0.25-0.4 s to import, between a server's spawn and its `initialize` in every
    cold start); tests/lsp/test_capabilities.py checks it against lsprotocol."""
    kinds = {"valueSet": list(range(1, len(SYMBOL_KINDS) + 1))}
    return {
        "general": {"positionEncodings": ["utf-32", "utf-16", "utf-8"]},
        "window": {"workDoneProgress": True},
        "workspace": {
            "configuration": True,
            "workspaceFolders": True,
            "didChangeConfiguration": {"dynamicRegistration": False},
            "didChangeWatchedFiles": {"dynamicRegistration": True, "relativePatternSupport": True},
            "symbol": {"symbolKind": kinds},
            "diagnostics": {"refreshSupport": True},
            # Edits are asked for and captured, never applied (`lspd.lsp.edits`): text edits
            # with versions, no file creations or renames (a diff cannot carry them).
            "applyEdit": True,
            "workspaceEdit": {"documentChanges": True},
            "executeCommand": {},
        },
        "textDocument": {
            "synchronization": {"didSave": False},
            "declaration": {"linkSupport": True},
            "publishDiagnostics": {"versionSupport": True, "relatedInformation": False},
            **CLIENT,  # each request's own, declared with it (`lspd.lsp.answers`)
        },
    }


def symbol_kind_name(kind: int) -> str:
    """`SymbolKind` number to the lower-case name agents read (`class`, `method`, ...)."""
    return SYMBOL_KINDS[kind - 1] if 1 <= kind <= len(SYMBOL_KINDS) else "unknown"
