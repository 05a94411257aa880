"""One document's diagnostics, by the server's best means (see `lspd.lsp.diagnostics`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from lspd.lsp import answers, diagnostics, shapes
from lspd.lsp.documents import Document

if TYPE_CHECKING:
    from lspd.lsp.session import Session

WATCHED_FILES_SETTLE_S = 5.0  # diagnostics' wait for watched-file changes to be taken in


async def of_document(
    session: Session, document: Document, timeout: float
) -> list[shapes.Diagnostic]:
    """The diagnostics of exactly `document.version`, checked."""
    await session.inbox.settle(document.uri, min(timeout, WATCHED_FILES_SETTLE_S))
    if session.definition.diagnostics == "tsserver":
        items = await diagnostics.tsserver(session.send, document.path, timeout)
    elif diagnostics.offers_pull(session.capabilities, session.requests.by_id):
        # Checked as the answer came in (send): once, not again when they are unchanged.
        pulled = await session.inbox.pull(session.send, document.uri, timeout)
        return cast(list[shapes.Diagnostic], pulled)
    else:
        items = await session.inbox.pushed(document, timeout, session.notify)
    return answers.checked(session.name, answers.DIAGNOSTICS, items, session.log_path)
