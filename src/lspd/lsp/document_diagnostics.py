"""One document's diagnostics, by the server's best means (see `lspd.lsp.diagnostics`)."""

from __future__ import annotations

from typing import Any, Protocol, cast

from lspd.lsp import answers, diagnostics, shapes
from lspd.lsp.answers import P, Request, T
from lspd.lsp.documents import Document
from lspd.lsp.requests import Registrations
from lspd.lsp.stall import Named
from lspd.lsp.text import LineIndex, has_separator
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
        items = _in_lsp_lines(items, document)
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
        republishes = session.definition.republishes  # clangd does not: reopened instead
        items = await session.inbox.pushed(document, timeout, session.notify, republishes)
    return answers.checked(session.name, answers.DIAGNOSTICS, items, session.log_path)


def _in_lsp_lines(items: diagnostics.Items, document: Document) -> diagnostics.Items:
    """tsserver's items of `document` in LSP's lines: its positions are ECMAScript's (its
    line map also ends a line at U+2028 and U+2029, and typescript-language-server passes
    them on as they are), so below such a character every item was another line's. Only a
    text holding one is read again, its line starts once (`text.LineIndex`); the others'
    items as they are."""
    if not has_separator(document.text):
        return items
    index = LineIndex(document.text)
    moved = [_moved(item, index) for item in items]
    if not isinstance(items, diagnostics.Stopped):
        return moved
    line = items.line  # where tsc stopped (1-based): this file's line moves, another's is its own
    if items.file == document.path:
        line = index.to_lsp(line - 1, 0)[0] + 1
    return diagnostics.Stopped(items.file, line, moved)


def _moved(item: dict[str, Any], index: LineIndex) -> dict[str, Any]:
    """One tsserver item, its range's ends moved from ECMAScript's lines to LSP's."""
    span = item.get("range")
    if not isinstance(span, dict):
        return item
    points = {}
    for end in ("start", "end"):
        line, character = index.to_lsp(int(span[end]["line"]), int(span[end]["character"]))
        points[end] = {"line": line, "character": character}
    return {**item, "range": points}
