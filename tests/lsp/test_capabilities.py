"""Client capabilities and symbol kind names."""

from __future__ import annotations

from lsprotocol import types
from lsprotocol.converters import get_converter

from lspd.lsp.capabilities import client_capabilities, symbol_kind_name


def test_symbol_kind_names_follow_lsprotocol() -> None:
    for kind in types.SymbolKind:
        assert symbol_kind_name(kind.value).replace("_", "") == kind.name.lower()
    assert symbol_kind_name(99) == "unknown"


def test_capabilities_offer_what_the_session_handles() -> None:
    capabilities = client_capabilities()
    assert capabilities["general"]["positionEncodings"] == ["utf-32", "utf-16", "utf-8"]
    assert capabilities["window"]["workDoneProgress"] is True
    document = capabilities["textDocument"]
    assert document["documentSymbol"]["hierarchicalDocumentSymbolSupport"] is True
    assert document["publishDiagnostics"]["versionSupport"] is True
    assert "diagnostic" in document
    assert capabilities["workspace"]["didChangeWatchedFiles"]["dynamicRegistration"] is True
    assert capabilities["workspace"]["configuration"] is True


def test_capabilities_are_valid_lsp_as_written() -> None:
    # Written out as JSON (no lsprotocol at runtime): lsprotocol reads it back unchanged, so
    # no field is misspelt (an unknown one would be dropped) nor of the wrong type.
    converter = get_converter()
    capabilities = client_capabilities()
    typed = converter.structure(capabilities, types.ClientCapabilities)
    assert converter.unstructure(typed, types.ClientCapabilities) == capabilities
    assert typed.text_document is not None and typed.text_document.document_symbol is not None
    kinds = typed.text_document.document_symbol.symbol_kind
    assert kinds is not None and list(kinds.value_set or ()) == list(types.SymbolKind)
