"""One document's diagnostics, by the server's best means (see `lspd.lsp.diagnostics`)."""

from __future__ import annotations

from typing import Any, Protocol, cast

from lspd.lsp import answers, diagnostics, shapes
from lspd.lsp.answers import P, Request, T
from lspd.lsp.documents import Document
from lspd.lsp.requests import Registrations
from lspd.lsp.stall import Named
from lspd.servers.registry import ServerDefinition

WATCHED_FILES_SETTLE_S = 5.0  # diagnostics' wait for watched-file changes to be taken in


class Diagnosed(Named, Protocol):
    """What `of_document` uses of a session (`lsp/session.py`): a protocol, so that this
    module need not import the session, which imports it."""

    @property
    def definition(self) -> ServerDefinition: ...
    @property
    def capabilities(self) -> dict[str, Any]: ...
    @property
    def registrations(self) -> Registrations: ...
    @property
    def inbox(self) -> diagnostics.Inbox: ...
    async def send(self, method: Request[P, T], params: P, timeout: float) -> T: ...
    def notify(self, method: str, params: Any) -> None: ...


async def of_document(
    session: Diagnosed, document: Document, timeout: float, held: object = None
) -> list[shapes.Diagnostic]:
    """The diagnostics of exactly `document.version`, checked. `held`: the answer whose
    result the caller keeps (a pull server's repeat of it comes without its items)."""
    await session.inbox.settle(document.uri, min(timeout, WATCHED_FILES_SETTLE_S))
    if session.definition.diagnostics == "tsserver":
        unknown = session.inbox.unknown
        items = await diagnostics.tsserver(session.send, document.path, timeout, unknown)
    elif diagnostics.offers_pull(session.capabilities, session.registrations.by_id):
        # Not sent again when other documents changed since: basedpyright marks the files
        # importing a changed one itself (a document opened with other text than the disk's
        # is sent twice for that: `Session.sync_document`). Sending every open file again
        # made it check every file again after any edit (SQLAlchemy: 94 s for a leaf) with a
        # new evaluator each time, which lost an error the CLI reports (orm/session.py).
        # Checked as the answer came in (send): once, not again when they are unchanged.
        pulled = await session.inbox.pull(session.send, document.uri, timeout, held)
        return cast(list[shapes.Diagnostic], pulled)
    else:
        items = await session.inbox.pushed(document, timeout, session.notify)
    return answers.checked(session.name, answers.DIAGNOSTICS, items, session.log_path)
