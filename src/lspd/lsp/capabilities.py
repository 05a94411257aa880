"""What lspd tells servers it can do. Honest: only what the session really handles."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

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
    from lsprotocol import types
    from lsprotocol.converters import get_converter

    capabilities = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(
            position_encodings=[
                types.PositionEncodingKind.Utf32,
                types.PositionEncodingKind.Utf16,
                types.PositionEncodingKind.Utf8,
            ],
        ),
        window=types.WindowClientCapabilities(work_done_progress=True),
        workspace=types.WorkspaceClientCapabilities(
            configuration=True,
            workspace_folders=True,
            did_change_configuration=types.DidChangeConfigurationClientCapabilities(
                dynamic_registration=False
            ),
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=True, relative_pattern_support=True
            ),
            symbol=types.WorkspaceSymbolClientCapabilities(
                symbol_kind=types.ClientSymbolKindOptions(value_set=list(types.SymbolKind)),
            ),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True),
        ),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=False),
            hover=types.HoverClientCapabilities(
                content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]
            ),
            definition=types.DefinitionClientCapabilities(link_support=True),
            type_definition=types.TypeDefinitionClientCapabilities(link_support=True),
            implementation=types.ImplementationClientCapabilities(link_support=True),
            declaration=types.DeclarationClientCapabilities(link_support=True),
            references=types.ReferenceClientCapabilities(),
            document_symbol=types.DocumentSymbolClientCapabilities(
                hierarchical_document_symbol_support=True,
                symbol_kind=types.ClientSymbolKindOptions(value_set=list(types.SymbolKind)),
            ),
            call_hierarchy=types.CallHierarchyClientCapabilities(),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                version_support=True, related_information=False
            ),
            # basedpyright offers pull diagnostics only to a client that can register them.
            diagnostic=types.DiagnosticClientCapabilities(
                dynamic_registration=True, related_document_support=False
            ),
        ),
    )
    result: dict[str, Any] = get_converter().unstructure(capabilities, types.ClientCapabilities)
    return result


def symbol_kind_name(kind: int) -> str:
    """`SymbolKind` number to the lower-case name agents read (`class`, `method`, ...)."""
    return SYMBOL_KINDS[kind - 1] if 1 <= kind <= len(SYMBOL_KINDS) else "unknown"
