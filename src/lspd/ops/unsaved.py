"""Questions about text not yet written: while one question is answered, the file's server
holds `content` instead of the disk's text, then the disk's again (as `diagnostics` with
`content` does), so an agent learns a type without writing a scratch file."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from lspd.errors import InvalidInput
from lspd.ops.arguments import check_content
from lspd.ops.symbols import symbol_tree
from lspd.ops.target import Target, resolve_target
from lspd.workspace import Workspace
from lspd.workspace.files import MAX_FILE_BYTES
from lspd.workspace.overlay import overlaid
from lspd.workspace.symbols.naming import member_of

At = tuple[str | None, int | None, int | None, str | None]  # path, line, column, symbol


@contextlib.asynccontextmanager
async def held(ws: Workspace, path: str | None, content: str | None) -> AsyncIterator[None]:
    """Within: `path`'s server holds `content` (when given); after: the disk's text, or no
    document at all for a file still to come. Nothing is written."""
    if content is None:
        yield
        return
    check_content(content, MAX_FILE_BYTES)
    if path is None:
        raise InvalidInput("send `path` with `content`: the file the text is for")
    async with overlaid(ws, {ws.resolve(path): content}):  # a new file: in its project
        yield


async def target(
    ws: Workspace,
    path: str,
    line: int | None,
    column: int | None,
    symbol: str | None,
    content: str,
) -> Target:
    """A position in `content` held for `path`, or the symbol named there (looked up in
    the held text's symbols: the index knows only the disk's)."""
    if symbol is None or line is not None or column is not None:
        return await resolve_target(ws, path, line, column, symbol, content)
    session, document = await ws.open(path, content)
    tree = await symbol_tree(ws, session, document.path)
    node = member_of(tree, symbol, ws.display(document.path))
    return Target(session, document, node.line, node.column)


async def target_at(ws: Workspace, at: At, content: str | None = None) -> Target:
    """The position a question is about: in `content` held for its path (within `held`),
    or in the disk's text; the open documents refreshed (they pass over the file held)."""
    path = at[0]
    if content is not None and path is not None:  # within `held`
        found = await target(ws, path, *at[1:], content)
    else:
        found = await resolve_target(ws, *at)
    await ws.refresh_open_documents()  # passes over the file held
    return found
