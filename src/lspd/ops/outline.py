"""A file's symbols as a tree of name paths, and the symbol at or around a location.

`Node` is the internal form (plain, cheap to build for a large file; the workspace's symbol
index keeps one tree per file); `document_symbols` turns the part it shows into `Symbol`
models. `Namer` names the symbol a location stands for (`Console.print`) from the index,
which closes the documents it opened only for that.
"""

from __future__ import annotations

import difflib
import logging
from pathlib import Path

from lspd.errors import InvalidInput, LspdError
from lspd.lsp.session import Session
from lspd.ops.convert import Converter
from lspd.workspace import Workspace
from lspd.workspace.symbols import (
    Node,
    flatten,
    matches_name,
    module_parts,
    name_parts,
    qualified,
    read_tree,
)

__all__ = [
    "CONTAINERS",
    "DECLARATIONS",
    "Namer",
    "Node",
    "flatten",
    "matches_name",
    "member_of",
    "module_parts",
    "name_parts",
    "qualified",
    "symbol_at",
    "symbol_tree",
]

log = logging.getLogger(__name__)

# Kinds that enclose code: a reference inside one is named after it (never after a local).
CONTAINERS = {
    "module",
    "namespace",
    "package",
    "class",
    "method",
    "constructor",
    "function",
    "interface",
    "enum",
    "struct",
    "property",
}


# Ranked before variables, fields and parameters when several symbols match.
DECLARATIONS = {
    "module": 0,
    "namespace": 0,
    "class": 0,
    "interface": 0,
    "function": 0,
    "method": 0,
    "constructor": 0,
    "enum": 0,
    "struct": 0,
}


async def symbol_tree(ws: Workspace, session: Session, path: Path) -> list[Node]:
    """The symbols the server lists for `path`, opened in `session`, asked now (uncached:
    `ws.symbols.tree` answers from the workspace's index)."""
    document = ws.document(path)
    lines = document.lines if document is not None else Converter(ws, session.encoding).lines(path)
    return await read_tree(session, path, ws.display(path), lines)


def symbol_at(tree: list[Node], line: int, column: int) -> Node | None:
    """The symbol whose name starts at the position, else the innermost container around it."""
    nodes = flatten(tree)
    for node in nodes:
        if node.line == line and node.column == column:
            return node
    around = [
        n for n in nodes if n.kind in CONTAINERS and (n.start_line or n.line) <= line <= n.end_line
    ]
    return around[-1] if around else None  # preorder: the last one is the innermost


class Namer:
    """Names the symbols locations stand for, one symbol tree per file and answer."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._trees: dict[str, list[Node] | None] = {}

    async def tree(self, shown: str) -> list[Node] | None:
        """The symbol tree of a file (as shown), or None when it cannot be read."""
        if shown in self._trees:
            return self._trees[shown]
        tree: list[Node] | None = None
        if not shown.startswith("/"):  # libraries outside the root are not opened
            try:
                tree = await self.ws.symbols.tree(self.ws.root / shown)
            except LspdError as exc:
                log.debug("no symbols for %s: %s", shown, exc)
        self._trees[shown] = tree
        return tree

    async def at(self, shown: str, line: int, column: int) -> Node | None:
        """The symbol at (or around) a 1-based position of a file shown as `shown`."""
        tree = await self.tree(shown)
        return symbol_at(tree, line, column) if tree else None

    async def name(self, shown: str, line: int, column: int) -> str | None:
        """The name path of the symbol at (or around) the position, if any."""
        node = await self.at(shown, line, column)
        return node.name_path if node is not None else None


def member_of(tree: list[Node], name_path: str, shown: str) -> Node:
    """The symbol of a file's tree named `name_path` (in the file, or qualified with its
    module), for listing its members; an error with the closest names otherwise."""
    parts = name_parts(name_path)
    matches = [s for s in flatten(tree) if matches_name(s, parts)]
    if matches:
        return sorted(matches, key=lambda s: DECLARATIONS.get(s.kind, 1))[0]
    names = [s.name_path for s in flatten(tree)]
    close = difflib.get_close_matches(".".join(parts), names, n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(f'`{c}`' for c in close)}?" if close else ""
    raise InvalidInput(
        f"{shown} has no symbol `{name_path}`.{hint} Leave out `symbol` for the file's tree"
    )
