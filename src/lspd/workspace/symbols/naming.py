"""The symbol a location stands for: the one whose name starts there, else the innermost
named declaration around it (`symbol_at`); the symbol of a file's tree a name path names
(`member_of`). `Namer` names locations over files, one tree per file (from the index,
which closes the documents it opened only for that)."""

from __future__ import annotations

import difflib
import logging
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Protocol

from lspd.errors import InvalidInput, LspdError
from lspd.lsp.documents import Document
from lspd.lsp.text import split_lines
from lspd.workspace.symbols.tree import Node, flatten, matches_name, name_parts

log = logging.getLogger(__name__)

_QUOTED = re.compile(r"#.*$|//.*$|'[^'\\]*(?:\\.[^'\\]*)*'|\"[^\"\\]*(?:\\.[^\"\\]*)*\"")

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


class _Trees(Protocol):
    async def tree(self, path: Path) -> list[Node]: ...


class Files(Protocol):
    """What a `Namer` uses of the workspace (`Workspace`): its root, open documents and
    symbol index."""

    @property
    def root(self) -> Path: ...
    @property
    def symbols(self) -> _Trees: ...
    def document(self, path: Path) -> Document | None: ...


# Names servers give code that has none: `<function>`, `(lambda)`, `make("x") callback`.
_ANONYMOUS = re.compile(r"<.*>|\(lambda\)|.* callback")
_VARIABLES = {"variable", "constant", "field", "property"}
_BODIES = {"function", "method", "constructor"}  # a variable inside one is a local


def symbol_at(
    tree: list[Node],
    line: int,
    column: int,
    lines: Sequence[str] = (),
    ends: dict[int, int] | None = None,
) -> Node | None:
    """The symbol whose name starts at the position, else the innermost named declaration
    around it: a function, method or class, or a variable outside any function whose
    initializer holds it (`export const X = make(() => ...)`, `X = make(lambda: ...)`),
    never an anonymous callback. The one naming of references and callers; `lines`
    (the file's text) tell where an assignment a server gives one line to ends; `ends`
    keeps those read (by starting line) for the next position of the same text."""
    found = _named_at(tree, line, column)
    if found is not None:
        return found
    inner = _innermost(tree, line, lines, {} if ends is None else ends, in_body=False)
    return _overloaded(inner.children if inner else tree, line, lines) or inner


# A Python `def` line: its indentation and name.
_DEF = re.compile(r"(\s*)(?:async\s+)?def\s+(\w+)")
_INSIDE = {"", " ", "\t", "@", "#", ")", "]"}  # how a line in or before a def may start


def _overloaded(scope: list[Node], line: int, lines: Sequence[str]) -> Node | None:
    """The function a line of one of its overloads stands for: basedpyright lists an
    overloaded function once (the implementation, else the last overload), so the
    `@overload` defs before it are in the gap between it and the symbol before; a line of
    one (decorator, signature or body) is named after the function, as a reader cites it."""
    floor = 0  # the last line of the symbols before the gap
    for node in scope:
        if (node.start_line or node.line) > line:
            inside = node.kind in _BODIES and _in_def(lines, line, floor, node.name)
            return node if inside else None
        floor = max(floor, node.end_line)
    return None


def _in_def(lines: Sequence[str], line: int, floor: int, name: str) -> bool:
    """Whether the line is one of a `def name` (or its decorators) starting below `floor`."""
    number = line
    while number < len(lines) and lines[number - 1].lstrip().startswith("@"):
        number += 1  # a decorator: the def it decorates follows
    for start in range(min(number, len(lines)), floor, -1):
        header = _DEF.match(lines[start - 1])
        if header is None:
            if lines[start - 1][:1] not in _INSIDE:
                return False  # a top-level statement: no def around (a long script's gap)
            continue
        indent = len(header.group(1))
        body = all(
            not text.strip() or len(text) - len(text.lstrip()) > indent
            for text in lines[start:line]
        )
        return header.group(2) == name and (
            line <= start or body or line <= statement_end(lines, start)
        )
    return False


def _named_at(nodes: list[Node], line: int, column: int) -> Node | None:
    """The symbol whose name starts at the position, looked for only in the symbols whose
    range holds its line (an LSP symbol's range holds its members'): not every symbol of a
    large file (click's core.py: 621, flattened for each location an answer names)."""
    for node in nodes:
        if node.line == line and node.column == column:
            return node
        if (node.start_line or node.line) <= line <= node.end_line:
            found = _named_at(node.children, line, column)
            if found is not None:
                return found
    return None


def _innermost(
    nodes: list[Node], line: int, lines: Sequence[str], ends: dict[int, int], in_body: bool
) -> Node | None:
    for node in nodes:
        variable = node.kind in _VARIABLES and not in_body
        if line < (node.start_line or node.line):
            continue
        # past its range, a variable may still hold it: its statement ends later (read only then)
        if line > node.end_line and not (variable and line <= _end(lines, node.line, ends)):
            continue
        inner = _innermost(node.children, line, lines, ends, in_body or node.kind in _BODIES)
        if inner is not None:
            return inner
        named = not _ANONYMOUS.fullmatch(node.name)
        local = in_body and node.kind in _VARIABLES  # `{issues: …}` inside a function
        if named and not local and (node.kind in CONTAINERS or variable):
            return node
    return None


def cited_path(tree: list[Node], node: Node, lines: Sequence[str] = ()) -> str:
    """The node's name path as a reader cites it: its named ancestors and itself, without
    what names no declaration (tsserver's `make("x") callback`, `<function>`, a lambda)
    nor a parameter or a function passed as an argument: `$Foo.parse` for
    `$Foo.core.$constructor("$Foo") callback.parse`."""
    chain = _chain(tree, node) or _chain(tree, node, everywhere=True) or [node]
    kept = [n for n in chain[:-1] if not _ANONYMOUS.fullmatch(n.name) and not _argument(n, lines)]
    return ".".join(n.name for n in [*kept, node]) if len(kept) < len(chain) - 1 else node.name_path


def _chain(nodes: list[Node], node: Node, everywhere: bool = False) -> list[Node]:
    """The nodes from a root of the tree down to `node`; empty when it is not in it. Looked
    for below the symbols whose range holds its line (as `_named_at`), unless `everywhere`
    (a server whose ranges do not nest): not in every symbol of a large file."""
    for candidate in nodes:
        if candidate is node:
            return [node]
        if not everywhere and not (candidate.start_line or candidate.line) <= node.line:
            continue
        if not everywhere and node.line > candidate.end_line:
            continue
        below = _chain(candidate.children, node, everywhere)
        if below:
            return [candidate, *below]
    return []


def _argument(node: Node, lines: Sequence[str]) -> bool:
    """Whether the node is a parameter or a function written as a call's argument (the
    name follows `(` or `,` on its line, past `function`)."""
    if not 0 < node.line <= len(lines):
        return False
    before = lines[node.line - 1][: node.column - 1].rstrip()
    for word in ("*", "function", "async"):
        before = before.removesuffix(word).rstrip()
    return before.endswith(("(", ","))


def _end(lines: Sequence[str], line: int, ends: dict[int, int]) -> int:
    """`statement_end`, read once per starting line of a text (a class's attributes are
    passed for each position inside it that an answer names)."""
    end = ends.get(line)
    if end is None:
        end = ends[line] = statement_end(lines, line)
    return end


def statement_end(lines: Sequence[str], line: int) -> int:
    """The last 1-based line of the statement starting on `line`: past open brackets and
    backslash continuations (brackets in strings and comments may mislead it: a name only)."""
    depth, number = 0, line
    while number <= len(lines):
        text = _QUOTED.sub("", lines[number - 1])
        depth += text.count("(") + text.count("[") + text.count("{")
        depth -= text.count(")") + text.count("]") + text.count("}")
        if depth <= 0 and not text.rstrip().endswith("\\"):
            return number
        number += 1
    return line


@dataclass(slots=True)
class _Read:
    """What was read in one open document's text (`lines`): statement ends by starting line,
    and the names given positions with `tree` (both pure functions of the two)."""

    lines: list[str]
    ends: dict[int, int] = field(default_factory=dict)
    tree: list[Node] | None = None
    names: dict[tuple[int, int], str | None] = field(default_factory=dict)


# Open documents' `_Read`, by their lines, the latest last (`Namer._read`); the names kept
# of one text, then forgotten and given again (a long-lived daemon's references).
MAX_KEPT_READS = 64
MAX_KEPT_NAMES = 10_000
_KEPT_READS: OrderedDict[int, _Read] = OrderedDict()


class Namer:
    """Names the symbols locations stand for, one symbol tree per file and answer."""

    def __init__(self, ws: Files) -> None:
        self.ws = ws
        self._trees: dict[str, list[Node] | None] = {}
        self._texts: dict[str, list[str]] = {}
        self._reads: dict[str, _Read] = {}  # per file

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
        if not tree:
            return None
        return symbol_at(tree, line, column, self._lines(shown), self._read(shown).ends)

    def _read(self, shown: str) -> _Read:
        """What was read in the file's text: an open document's kept with its lines (a new
        record for each new text; a by-name definition of `Context.invoke` passes ~30 class
        attributes of `Context`, and names the same 3 places again at each ask), else this
        answer's own."""
        read = self._reads.get(shown)
        if read is None:
            lines = self._lines(shown)
            document = self.ws.document(self.ws.root / shown)
            read = _Read(lines)
            if document is not None and document.lines is lines:
                kept = _KEPT_READS.get(id(lines))
                if kept is None or kept.lines is not lines:  # (held: its id is not reused)
                    kept = _KEPT_READS[id(lines)] = read
                _KEPT_READS.move_to_end(id(lines))
                while len(_KEPT_READS) > MAX_KEPT_READS:
                    _KEPT_READS.popitem(last=False)
                read = kept
            self._reads[shown] = read
        return read

    def _lines(self, shown: str) -> list[str]:
        """A file's text as its server holds it, else as on disk (read once per answer)."""
        if shown not in self._texts:
            document = self.ws.document(self.ws.root / shown)
            if document is not None:
                self._texts[shown] = document.lines
            else:
                try:
                    text = (self.ws.root / shown).read_text("utf-8-sig", errors="replace")
                except OSError:
                    text = ""
                self._texts[shown] = split_lines(text)
        return self._texts[shown]

    async def name(self, shown: str, line: int, column: int) -> str | None:
        """The name path of the symbol at (or around) the position as a reader cites it
        (`cited_path`), if any: given once per text and tree of an open document."""
        tree = await self.tree(shown)
        if not tree:
            return None
        read = self._read(shown)
        if read.tree is not tree or len(read.names) >= MAX_KEPT_NAMES:
            read.tree, read.names = tree, {}
        if (line, column) not in read.names:
            node = symbol_at(tree, line, column, read.lines, read.ends)
            read.names[line, column] = None if node is None else self._cited(shown, node)
        return read.names[line, column]

    async def caller(self, shown: str, line: int, column: int) -> tuple[str, str]:
        """The name and kind of what encloses a use, a file's top level by the file's name
        (never its absolute path)."""
        node = await self.at(shown, line, column)
        if node is None:
            return PurePath(shown).name, "module"
        return self._cited(shown, node), node.kind

    def _cited(self, shown: str, node: Node) -> str:
        return cited_path(self._trees.get(shown) or [], node, self._lines(shown))


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
