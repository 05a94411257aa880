"""Finding a symbol by its name path (`Greeter.greet`, `pkg.module.func`) instead of a position.

A name that matches nothing gets the closest names that exist, segment by segment
(`Console.prnt`: Console exists, so its members are compared with `prnt`). A name that
matches several symbols lists them, declarations (classes, functions, methods) before
variables and parameters; the overload signatures of one function are that function, and
TypeScript's merged declarations (an interface and a constant of one name) that symbol.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import InvalidInput, LspdError
from lspd.lsp.text import split_lines, uri_to_path
from lspd.ops.navigation_models import SymbolCandidate
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.symbols.naming import DECLARATIONS
from lspd.workspace.symbols.search import search
from lspd.workspace.symbols.tree import (
    Node,
    flatten,
    joined,
    matches_name,
    module_parts,
    name_parts,
    plain,
    qualified,
    segments,
)

MAX_CANDIDATES = 10
MERGING = (".ts", ".tsx", ".mts", ".cts")  # TypeScript's files: declarations merge
TYPE_SPACE = {"interface", "class", "enum", "module", "namespace"}  # kinds declaring a type
CALLABLE = {"function", "method", "constructor"}  # kinds with overload signatures


@dataclass(frozen=True)
class FoundSymbol:
    """Where a symbol named by its name path is: its file and the 1-based start of its name."""

    path: str
    line: int
    column: int


class AmbiguousSymbol(InvalidInput):
    """A name path that matches several symbols; the message and `candidates` list them."""

    def __init__(self, message: str, candidates: list[SymbolCandidate]) -> None:
        super().__init__(message)
        self.candidates = candidates


async def find_nodes(ws: Workspace, name_path: str, path: str | None = None) -> list[Node]:
    """Every symbol the name path means (in `path` when given), declarations first.

    From the workspace's symbol index: the files that may declare the name (their words
    say so), each file's symbols as its server lists them, both fresh with the files."""
    parts = name_parts(name_path)
    if path is not None:
        symbols = flatten(await ws.symbols.tree(ws.resolve(path)))
        symbols = [s for s in symbols if matches_name(s, parts)]
    else:
        symbols = await ws.symbols.find(parts)
    unique = {(s.path, s.line, s.column): s for s in symbols}
    return sorted(_with_bodies(list(unique.values())), key=lambda s: DECLARATIONS.get(s.kind, 1))


def _with_bodies(symbols: list[Node]) -> list[Node]:
    """One symbol for a declaration and its definition in files that differ only in their
    suffix (`shapes.h` and `shapes.c`, a stub beside its module): the one with the body,
    as servers' own searches give it. Several in that one file (overloads) all stay."""
    best: dict[tuple[str, str, str], Node] = {}
    for s in symbols:
        kept = best.get(_entity(s))
        if kept is None or s.end_line - s.start_line > kept.end_line - kept.start_line:
            best[_entity(s)] = s
    return [s for s in symbols if best[_entity(s)].path == s.path]


def _entity(symbol: Node) -> tuple[str, str, str]:
    return (qualified(symbol), symbol.kind, _without_suffix(symbol.path))


@functools.lru_cache(maxsize=4096)
def _without_suffix(shown: str) -> str:
    return Path(shown).with_suffix("").as_posix()


async def find_symbol(ws: Workspace, name_path: str, path: str | None) -> FoundSymbol:
    """The one symbol a name path means (in `path` when given); otherwise an error that
    lists the candidates or the closest names."""
    matches = _overloaded(ws, await find_nodes(ws, name_path, path))
    found = matches[0] if len(matches) == 1 else _merged(matches)
    if found is not None:
        return FoundSymbol(found.path, found.line, found.column)
    if matches:
        shown = matches[:MAX_CANDIDATES]
        candidates = [
            SymbolCandidate(name_path=qualified(s), kind=s.kind, path=s.path, line=s.line)
            for s in shown
        ]
        listing = "; ".join(
            f"{c.name_path} ({c.kind}, {c.path}:{c.line}:{s.column})"
            for c, s in zip(candidates, shown, strict=True)
        )
        more = (
            f" (the first {len(shown)}; `workspace_symbols` with this name lists them all, "
            "`offset` pages)"
            if len(matches) > len(shown)
            else ""
        )
        advice = (
            "Send a longer name path (e.g. `Class.method` or `module.Class.method`) or a `path`"
            if len({(c.name_path, c.path) for c in candidates}) > 1
            else "They share this name path in one file (a getter and its setter, two "
            "definitions under `if`): send the `path`, `line` and `column` of the one you mean"
        )
        raise AmbiguousSymbol(
            f"`{name_path}` matches {len(matches)} symbols{more}: {listing}. {advice}",
            candidates,
        )
    hint = await _closest(ws, name_parts(name_path), path)
    where = f" in {path}" if path else ""
    raise InvalidInput(
        f"no symbol named `{name_path}` was found{where}.{hint} "
        "Use `workspace_symbols` to search, or send `path`, `line` and `column`"
    )


def undefined(name_path: str, where: str, server: str) -> LspdError:
    """The error of a symbol found by name whose server answers no definition at its name
    (an answer of none would read as `there is none`, yet its declaration is one)."""
    return LspdError(
        f"`{name_path}` is the symbol at {where}, but {server} answered no definition "
        "there; ask `hover` or `references` at that position"
    )


def _overloaded(ws: Workspace, matches: list[Node]) -> list[Node]:
    """`matches` with each function's overload signatures as that function: tsserver lists
    every signature (`f(a: string): void;` ends with `;`, no body) beside the
    implementation, which stands for them all; a function only declared (`declare
    function`, a `.d.ts`) by its first signature. A same-named symbol elsewhere stays
    (rxjs's `map`, three signatures in map.ts, and a variable in TestScheduler.ts: two
    symbols). A getter and its setter, or two definitions under `if`/`try`, have bodies
    and stay apart."""
    groups: dict[tuple[str, str, str], list[Node]] = {}
    for s in matches:
        groups.setdefault((qualified(s), s.kind, s.path), []).append(s)
    if all(len(group) == 1 for group in groups.values()):
        return matches
    kept: dict[tuple[str, str, str], Node] = {}
    for key, group in groups.items():
        if len(group) > 1 and key[1] in CALLABLE:  # (two `let x;` in two blocks stay two)
            lines = split_lines(read_text(Path(ws.root, group[0].path)) or "")  # (as it is)
            bodies = [s for s in group if not _signature(lines, s)]
            if len(bodies) <= 1:
                kept[key] = bodies[0] if bodies else min(group, key=lambda s: (s.line, s.column))
    return [
        s
        for s in matches
        if kept.get(key := (qualified(s), s.kind, s.path)) is None or kept[key] is s
    ]


def _signature(lines: list[str], symbol: Node) -> bool:
    """Whether the symbol is a declaration without a body: its last line ends with `;`."""
    return symbol.end_line <= len(lines) and lines[symbol.end_line - 1].rstrip().endswith(";")


def _merged(matches: list[Node]) -> Node | None:
    """TypeScript's declaration merging: declarations of one name in one scope, one of
    them a type's (an interface, class, enum or namespace), are one symbol (zod declares
    every schema as `interface ZodString` and `const ZodString`, which no longer name
    path told apart): the first listed, declarations first; its definition and references
    are the merged symbol's. Two variables of one name path (a block-scoped `const` in two
    branches) stay an ambiguity."""
    if len({(qualified(s), s.path) for s in matches}) != 1:
        return None
    if Path(matches[0].path).suffix.lower() not in MERGING:
        return None
    return matches[0] if any(s.kind in TYPE_SPACE for s in matches) else None


async def _closest(ws: Workspace, parts: list[str], path: str | None) -> str:
    """ "Did you mean" from the names that exist, each one that resolves: the name path with
    its first segments as one quoted name (`cfg.extra.load`: `"cfg.extra".load`, a
    TypeScript module's), else the longest prefix of the name path that resolves, then its
    members closest to the next segment (or, when even the first segment is unknown, the
    workspace's names closest to it)."""
    for cut in range(len(parts), 1, -1):
        name = joined([".".join(parts[:cut]), *parts[cut:]])
        if await find_nodes(ws, name, path):
            return f" Did you mean `{name}`?"
    for cut in range(len(parts) - 1, 0, -1):
        parents = await find_nodes(ws, joined(parts[:cut]), path)
        members = {c.name: c for p in parents for c in p.children}
        close = difflib.get_close_matches(parts[cut], list(members), n=3, cutoff=0.6)
        if parents:
            rest = joined(parts[cut + 1 :])
            names = [".".join(filter(None, [members[c].name_path, rest])) for c in close]
            if names:
                return f" Did you mean {', '.join(f'`{n}`' for n in names)}?"
            owner = parents[0]
            return (
                f" `{owner.name_path}` ({owner.path}:{owner.line}) has no member "
                f"`{parts[cut]}`; `document_symbols` with `symbol` lists its members."
            )
    if path is not None:
        pool = {s.name_path: s.name_path for s in flatten(await ws.symbols.tree(ws.resolve(path)))}
    else:  # (a module's name as it resolves: in quotes when it holds a dot)
        pool = {name: joined([name]) for name in await _symbol_names_like(ws, parts)}
    close = difflib.get_close_matches(parts[0], sorted(pool), n=3, cutoff=0.6)
    names = [".".join(filter(None, [pool[c], joined(parts[1:])])) for c in close]
    names = [name for name in names if await find_nodes(ws, name, path)]  # (only what resolves)
    return f" Did you mean {', '.join(f'`{n}`' for n in names)}?" if names else ""


async def _symbol_names_like(ws: Workspace, parts: list[str]) -> list[str]:
    """Names a symbol has that `parts[0]` may be a misspelling of: for `Greter.greet`, the
    names on the way to every symbol named `greet` (`pkg`, `greeting`, `Greeter`); else
    the server's search for its first three letters."""
    if len(parts) > 1:
        try:
            nodes = await ws.symbols.find(parts[-1:])
        except LspdError:
            nodes = []
        if nodes:
            return [
                plain(name)
                for n in nodes
                for name in [*module_parts(n.path), *segments(n.name_path)][:-1]
            ]
    found = await search(ws, parts[0][:3] or parts[0])
    named = [
        item["name"]
        for _, item in found[:200]
        if uri_to_path((item.get("location") or {}).get("uri", "")) is not None
    ]
    # A name as listed (tsserver's module `cfg.extra`), and its last part (`Cart.Total`).
    return [*named, *(name.rpartition(".")[2] for name in named)]
