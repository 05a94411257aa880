"""Getting the diagnostics of one exact document version, by the server's best means.

- pull: `textDocument/diagnostic`, when the server offers it (statically or by registration);
- tsserver: typescript-language-server's `typescript.tsserverRequest` command asking
  tsserver for the syntactic and semantic diagnostics synchronously. Its pushed diagnostics
  cannot prove freshness: it publishes nothing when a clean file stays clean;
- push: wait for `publishDiagnostics` of this version (or, when the server sends no version,
  one received after the change), then for a short silence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lspd.lsp.documents import Document
    from lspd.lsp.session import Session

_TSSERVER_SEVERITY = {"error": 1, "warning": 2, "suggestion": 4, "message": 3}


def offers_pull(session: Session) -> bool:
    if session.supports("diagnosticProvider"):
        return True
    return any(
        registration.get("method") == "textDocument/diagnostic"
        for registration in session.registrations.values()
    )


async def fetch(session: Session, document: Document, timeout: float) -> list[dict[str, Any]]:
    if session.definition.diagnostics == "tsserver":
        return await _tsserver(session, document, timeout)
    if offers_pull(session):
        report = await session.send(
            "textDocument/diagnostic", {"textDocument": {"uri": document.uri}}, timeout
        )
        return list((report or {}).get("items", []))
    return await session.pushed_diagnostics(document, timeout)


async def _tsserver(session: Session, document: Document, timeout: float) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for command in ("syntacticDiagnosticsSync", "semanticDiagnosticsSync"):
        response = await session.send(
            "workspace/executeCommand",
            {
                "command": "typescript.tsserverRequest",
                "arguments": [command, {"file": str(document.path), "includeLinePosition": False}],
            },
            timeout,
        )
        for entry in (response or {}).get("body") or []:
            items.append(_from_tsserver(entry))
    return items


def _from_tsserver(entry: dict[str, Any]) -> dict[str, Any]:
    start, end = entry["start"], entry["end"]
    return {
        "range": {
            "start": {"line": start["line"] - 1, "character": start["offset"] - 1},
            "end": {"line": end["line"] - 1, "character": end["offset"] - 1},
        },
        "severity": _TSSERVER_SEVERITY.get(entry.get("category", "error"), 1),
        "code": entry.get("code"),
        "source": "typescript",
        "message": entry.get("text", ""),
    }
