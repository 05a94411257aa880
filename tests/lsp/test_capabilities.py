"""Client capabilities and symbol kind names."""

from __future__ import annotations

from lsprotocol import types

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
