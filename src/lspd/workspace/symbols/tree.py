"""A file's symbols as the server lists them (`textDocument/documentSymbol`), as a tree of
name paths, and what a name path (`Greeter.greet`, `pkg.module.func`) means in it.

Plain dataclasses, cheap to build and to keep: the workspace's symbol index caches one tree
per file, and ops turn the part they show into models.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from lspd.errors import InvalidInput
from lspd.lsp.capabilities import symbol_kind_name
from lspd.lsp.positions import Encoding, from_units
from lspd.lsp.session import Session
from lspd.workspace.symbols.words import is_word

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


async def read_tree(session: Session, path: Path, shown: str, lines: list[str]) -> list[Node]:
    """The symbols `session`'s server lists for the open document `path` (whose text is
    `lines`), as a tree with name paths (from flat answers too).

    Asked without waiting for its project to load: symbols are the file's syntax, and a
    cold basedpyright would first check the whole file (seconds)."""
    await session.start()
    params = {"textDocument": {"uri": path.as_uri()}}
    answer = await session.send("textDocument/documentSymbol", params, session.request_timeout)
    if not answer:
        return []
    convert = _Columns(lines, session.encoding)
    if "location" in answer[0]:  # flat SymbolInformation[]
        return _in_file_order(_nest([_from_information(convert, shown, item) for item in answer]))
    return _in_file_order([_from_document_symbol(convert, shown, item, "") for item in answer])


def _in_file_order(nodes: list[Node]) -> list[Node]:
    """`nodes` and their members in the order of the file: tsserver sorts them by name,
    TypeScript 7 and the others list them as written; one order whatever the server."""
    for node in nodes:
        node.children = _in_file_order(node.children)
    return sorted(nodes, key=lambda node: (node.line, node.column))


class _Columns:
    """LSP character offsets of one file's lines to 1-based code-point columns."""

    def __init__(self, lines: list[str], encoding: Encoding) -> None:
        self.lines = lines
        self.encoding = encoding

    def __call__(self, line: int, units: int) -> int:
        text = self.lines[line] if 0 <= line < len(self.lines) else ""
        return from_units(text, units, self.encoding) + 1


def _from_document_symbol(column: _Columns, shown: str, item: dict[str, Any], parent: str) -> Node:
    name_path = f"{parent}.{item['name']}" if parent else item["name"]
    selection = item.get("selectionRange") or item["range"]
    start = selection["start"]
    line, at = start["line"] + 1, column(start["line"], start["character"])
    if selection["start"] == item["range"]["start"]:  # no name span: perhaps a keyword's
        line, at = _name_at(column.lines, item["name"], line, at, item["range"]["end"]["line"])
    return Node(
        name=item["name"],
        kind=symbol_kind_name(item.get("kind", 0)),
        name_path=name_path,
        path=shown,
        line=line,
        column=at,
        end_line=item["range"]["end"]["line"] + 1,
        start_line=item["range"]["start"]["line"] + 1,
        detail=item.get("detail") or None,
        children=[
            _from_document_symbol(column, shown, child, name_path)
            for child in item.get("children") or []
        ],
    )


_NAME_LINES = 4  # how far into a declaration its name is looked for


def _name_at(lines: list[str], name: str, line: int, column: int, last: int) -> tuple[int, int]:
    """Where the identifier `name` first stands as a word from (`line`, `column`) on, in the
    declaration's first lines up to `last` (0-based): the symbol's name when its server gave
    a range's start as its selection. tsserver does for an overload signature after the
    first (`export function map<T>(...): R;` at `export`, where nothing is defined: rxjs's
    mergeMap answered no definition). Unmoved when the name is not an identifier (`<function>`,
    `constructor() callback`) or not found there."""
    if not name.isidentifier() and not name.replace("$", "_").isidentifier():
        return line, column
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    for number in range(line, min(last + 1, line - 1 + _NAME_LINES) + 1):
        text = lines[number - 1] if number <= len(lines) else ""
        found = word.search(text, column - 1 if number == line else 0)
        if found is not None:
            return number, found.start() + 1
    return line, column


def _from_information(column: _Columns, shown: str, item: dict[str, Any]) -> Node:
    location = item["location"]
    start = location["range"]["start"]
    container = item.get("containerName")
    return Node(
        name=item["name"],
        kind=symbol_kind_name(item.get("kind", 0)),
        name_path=f"{container}.{item['name']}" if container else item["name"],
        path=shown,
        line=start["line"] + 1,
        column=column(start["line"], start["character"]),
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


# -- name paths ---------------------------------------------------------------------------


def name_parts(name_path: str) -> list[str]:
    """The segments of a name path (`::` counts as `.`, a quoted name is one segment),
    as names are compared (`plain`); an error for an unusable one."""
    if len(name_path) > MAX_NAME_PATH_CHARS:
        raise InvalidInput(
            f"`symbol` is {len(name_path)} characters long; send a name path such as "
            f"`Greeter.greet` (at most {MAX_NAME_PATH_CHARS} characters)"
        )
    parts = [plain(part) for part in segments(name_path.strip())]
    if not parts:
        raise InvalidInput("`symbol` is empty; send a name such as `Greeter.greet`")
    return parts


# A segment of a name path: up to a `.` or `::`, a quoted name whole (`"virtual:cfg"`,
# `"*.svg"`: TypeScript's ambient modules, named by their string), its dots included.
_SEGMENT = re.compile(r"""(?:"[^"]*(?:"|$)|'[^']*(?:'|$)|[^.:"']|(?<!:):(?!:))+""")


def segments(name_path: str) -> list[str]:
    """The segments of a name path as written (a quoted one with its quotes)."""
    return _SEGMENT.findall(name_path)


def joined(parts: Sequence[str]) -> str:
    """The name path of segments (`name_parts`'): a segment holding a dot in quotes."""
    return ".".join(f'"{p}"' if "." in p or "::" in p else p for p in parts)


def module_parts(shown: str) -> list[str]:
    """`pkg/module.py` -> `pkg`, `module` (a package's `__init__` or `index` is the package)."""
    return list(_module_parts(shown))


@functools.lru_cache(maxsize=8192)
def _module_parts(shown: str) -> tuple[str, ...]:
    """`module_parts`, once per path: every symbol of a file a by-name question matches asks
    it (pathlib's objects: a tenth of a warm by-name definition's CPU, cProfile)."""
    parts = list(Path(shown).with_suffix("").parts)
    if parts and parts[-1] in ("__init__", "index"):
        parts.pop()
    return tuple(parts)


def qualified(symbol: Node) -> str:
    """`pkg.module.Class.method`: the file's module path, then the name path in the file."""
    return ".".join([*module_parts(symbol.path), symbol.name_path])


# gopls names a method after its receiver: `(*Cart).Total`, `(Invoice).Total`, `(*List[T]).Push`.
_RECEIVER = re.compile(r"\(\*?(\w+)(?:\[[^()]*\])?\)")


def bare(part: str) -> str:
    """A segment of a name path without a Go receiver's form: `(*Cart)` is `Cart`, so that
    `Cart.Total` (and `(*Cart).Total`, as gopls names it) name the method."""
    receiver = _RECEIVER.fullmatch(part)
    return part if receiver is None else receiver.group(1)


def plain(part: str) -> str:
    """A segment as names are compared: `bare`, and a quoted name without its quotes
    (tsserver lists `declare module "virtual:cfg"` as `"virtual:cfg"`, its symbol search
    as `virtual:cfg`: either names it)."""
    if len(part) >= 2 and part[0] == part[-1] and part[0] in "\"'":
        return part[1:-1]
    return bare(part)


def receiver_of(symbol: Node) -> str | None:
    """The type a method listed beside it names as its receiver (`(*Cart).Total`: `Cart`)."""
    if not symbol.name.startswith("("):
        return None
    receiver = _RECEIVER.match(symbol.name)
    return receiver.group(1) if receiver and symbol.name[receiver.end() :][:1] == "." else None


def short_name(symbol: Node) -> str:
    """The symbol's own name: a Go method's without its receiver (`(*Cart).Total`: `Total`),
    a TypeScript module's without its quotes (`"virtual:cfg"`: `virtual:cfg`)."""
    if symbol.name.startswith("(") and _RECEIVER.match(symbol.name):
        return symbol.name.rpartition(".")[2]
    return plain(symbol.name) if symbol.name[:1] in ("'", '"') else symbol.name


def matches_name(symbol: Node, parts: list[str]) -> bool:
    """Whether the name path the caller sent (`name_parts`) is the end of the symbol's
    qualified name."""
    if short_name(symbol) != parts[-1]:
        return False
    name_path = symbol.name_path
    listed = _SEGMENT.findall(name_path) if "'" in name_path or '"' in name_path else None
    full = [*module_parts(symbol.path), *(plain(p) for p in listed or name_path.split("."))]
    return full[-len(parts) :] == parts


def may_hold(parts: list[str], shown: str, text: str, containers: str | None) -> bool:
    """Whether the file `shown`, whose text is `text`, can hold a symbol matching the name
    path `parts`, judged from the text by its server's `containers` pattern (servers.toml:
    it finds the declarations whose document symbols may have members, `{name}` the name).

    A match is the end of `module_parts + name_path` (`matches_name`): the first k segments
    (none, or some) end the file's module path and the next one heads the symbol's name
    path, a symbol with members unless it is the last. Only files where no k fits are
    dropped; with one segment or no pattern, none is, but for a dotted segment (quoted: a
    TypeScript module's string, `"cfg.extra"`) that the text does not hold as written.
    """
    module = module_parts(shown)
    if any("." in part and part not in text and part not in module for part in parts):
        return False
    if containers is None or len(parts) < 2:
        return True
    for k in range(min(len(parts), len(module) + 1)):
        if module[len(module) - k :] != parts[:k]:
            continue
        if k == len(parts) - 1 or _declares(parts[k], text, containers):
            return True
    return False


def _declares(name: str, text: str, containers: str) -> bool:
    if not is_word(name):  # no identifier: the pattern's word boundaries may not hold
        return True
    pattern = re.compile(containers.replace("{name}", re.escape(name)))
    if pattern.search(text) is not None:
        return True
    # Python reads identifiers in NFKC form (so does pyright): `class ﬁle` declares `file`.
    return not text.isascii() and pattern.search(unicodedata.normalize("NFKC", text)) is not None
