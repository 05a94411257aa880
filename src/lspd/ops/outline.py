"""A file's symbols as a tree of name paths, and the symbol at or around a location.

`Node` is the internal form (plain, cheap to build for a large file); `document_symbols`
turns the part it shows into `Symbol` models. `Namer` names the symbol a location stands
for (`Console.print`), reading each file's tree once per answer and closing the documents
it opened only for that.
"""

from __future__ import annotations

import difflib
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from lspd.errors import InvalidInput, LspdError
from lspd.lsp.capabilities import symbol_kind_name
from lspd.lsp.session import Session
from lspd.lsp.text import uri_to_path
from lspd.ops.convert import Converter
from lspd.workspace import Workspace

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
MAX_NAME_PATH_CHARS = 500


@dataclass
class Node:
    """One symbol of a file: name, kind, name path in the file, position, members."""

    name: str
    kind: str
    name_path: str
    path: str  # the file as shown (relative to the root)
    line: int  # 1-based line and column of its name
    column: int
    end_line: int  # last line of its whole body
    start_line: int = 0  # first line of its whole body (decorators included)
    detail: str | None = None
    children: list[Node] = field(default_factory=list)


class _Tree(Protocol):
    @property
    def children(self) -> Sequence[Any]: ...


T = TypeVar("T", bound=_Tree)


def flatten(symbols: Iterable[T]) -> list[T]:
    """Every symbol of a tree, parents before their members."""
    out: list[T] = []
    for symbol in symbols:
        out.append(symbol)
        out.extend(flatten(symbol.children))
    return out


async def symbol_tree(ws: Workspace, session: Session, path: Path) -> list[Node]:
    """The file's symbols as a tree with name paths (from flat answers too)."""
    uri = path.as_uri()
    answer = await session.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    convert = Converter(ws, session.encoding)
    shown = ws.display(path)
    if not answer:
        return []
    if "location" in answer[0]:  # flat SymbolInformation[]
        return _nest([_from_information(convert, shown, item) for item in answer])
    return [_from_document_symbol(convert, path, shown, item, "") for item in answer]


def _from_document_symbol(
    convert: Converter, path: Path, shown: str, item: dict[str, Any], parent: str
) -> Node:
    name_path = f"{parent}.{item['name']}" if parent else item["name"]
    selection = item.get("selectionRange") or item["range"]
    start = selection["start"]
    return Node(
        name=item["name"],
        kind=symbol_kind_name(item.get("kind", 0)),
        name_path=name_path,
        path=shown,
        line=start["line"] + 1,
        column=convert.column(path, start["line"], start["character"]),
        end_line=item["range"]["end"]["line"] + 1,
        start_line=item["range"]["start"]["line"] + 1,
        detail=item.get("detail") or None,
        children=[
            _from_document_symbol(convert, path, shown, child, name_path)
            for child in item.get("children") or []
        ],
    )


def _from_information(convert: Converter, shown: str, item: dict[str, Any]) -> Node:
    location = item["location"]
    path = uri_to_path(location["uri"])
    start = location["range"]["start"]
    container = item.get("containerName")
    return Node(
        name=item["name"],
        kind=symbol_kind_name(item.get("kind", 0)),
        name_path=f"{container}.{item['name']}" if container else item["name"],
        path=shown,
        line=start["line"] + 1,
        column=convert.column(path, start["line"], start["character"]) if path else 1,
        end_line=location["range"]["end"]["line"] + 1,
        start_line=start["line"] + 1,
    )


def _nest(flat: list[Node]) -> list[Node]:
    """Flat symbols (each naming its container) as a tree: a member under its container."""
    by_path: dict[str, Node] = {}
    top: list[Node] = []
    for node in flat:
        container, _, _ = node.name_path.rpartition(".")
        parent = by_path.get(container) if container else None
        (parent.children if parent is not None else top).append(node)
        by_path.setdefault(node.name_path, node)
    return top


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
            path = self.ws.root / shown
            was_open = self.ws.holds(path)
            try:
                session, document = await self.ws.open(shown)
                tree = await symbol_tree(self.ws, session, document.path)
            except LspdError as exc:
                log.debug("no symbols for %s: %s", shown, exc)
            finally:
                if not was_open:
                    self.ws.close_document(path)
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


def name_parts(name_path: str) -> list[str]:
    if len(name_path) > MAX_NAME_PATH_CHARS:
        raise InvalidInput(
            f"`symbol` is {len(name_path)} characters long; send a name path such as "
            f"`Greeter.greet` (at most {MAX_NAME_PATH_CHARS} characters)"
        )
    parts = [part for part in name_path.strip().replace("::", ".").split(".") if part]
    if not parts:
        raise InvalidInput("`symbol` is empty; send a name such as `Greeter.greet`")
    return parts


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


def module_parts(shown: str) -> list[str]:
    path = Path(shown)
    parts = list(path.with_suffix("").parts)
    if parts and parts[-1] in ("__init__", "index"):
        parts.pop()
    return parts


def qualified(symbol: Node) -> str:
    """`pkg.module.Class.method`: the file's module path, then the name path in the file."""
    return ".".join([*module_parts(symbol.path), symbol.name_path])


def matches_name(symbol: Node, parts: list[str]) -> bool:
    """Whether the name path the caller sent is the end of the symbol's qualified name."""
    if symbol.name != parts[-1]:
        return False
    full = [*module_parts(symbol.path), *symbol.name_path.split(".")]
    return full[-len(parts) :] == parts
