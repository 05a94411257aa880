"""What lspd tells servers it can do. Honest: only what the session really handles."""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from lsprotocol.converters import get_converter

_SYMBOL_KINDS = [kind.value for kind in types.SymbolKind]


def client_capabilities() -> dict[str, Any]:
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
            diagnostic=types.DiagnosticClientCapabilities(related_document_support=False),
        ),
    )
    result: dict[str, Any] = get_converter().unstructure(capabilities, types.ClientCapabilities)
    return result


def symbol_kind_name(kind: int) -> str:
    """`SymbolKind` number to the lower-case name agents read (`class`, `method`, ...)."""
    try:
        name = types.SymbolKind(kind).name
    except ValueError:
        return "unknown"
    return "type_parameter" if name == "TypeParameter" else _snake(name)


def _snake(name: str) -> str:
    out = []
    for index, char in enumerate(name):
        if char.isupper() and index:
            out.append("_")
        out.append(char.lower())
    return "".join(out)
