"""Finding a symbol by its name path (`Greeter.greet`, `pkg.module.func`) instead of a position."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.ops.models import Symbol, SymbolCandidate
from lspd.ops.symbols import flatten, search_symbols, symbol_tree
from lspd.workspace import Workspace

MAX_CANDIDATES = 10
MAX_NAME_PATH_CHARS = 500


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


async def find_symbol(ws: Workspace, name_path: str, path: str | None) -> FoundSymbol:
    """The one symbol a name path means (in `path` when given); otherwise an error that
    lists the candidates or the closest names."""
    if len(name_path) > MAX_NAME_PATH_CHARS:
        raise InvalidInput(
            f"`symbol` is {len(name_path)} characters long; send a name path such as "
            f"`Greeter.greet` (at most {MAX_NAME_PATH_CHARS} characters)"
        )
    parts = [part for part in name_path.strip().replace("::", ".").split(".") if part]
    if not parts:
        raise InvalidInput("`symbol` is empty; send a name such as `Greeter.greet`")
    if path is not None:
        session, document = await ws.open(path)
        symbols = flatten(await symbol_tree(ws, session, document.path))
        files = {document.path}
    else:
        found, _ = await search_symbols(ws, parts[-1], exact=True)
        # Outside the root a path is absolute: libraries are not searched by name.
        files = {ws.root / s.path for s in found if not s.path.startswith("/")}
        symbols = []
        for file in sorted(files):
            session, document = await ws.open(str(file))
            symbols += flatten(await symbol_tree(ws, session, document.path))
    matches = [s for s in symbols if _matches(s, parts)]
    unique = {(s.path, s.line, s.column): s for s in matches}
    if len(unique) == 1:
        symbol = next(iter(unique.values()))
        return FoundSymbol(symbol.path, symbol.line, symbol.column)
    if unique:
        candidates = [
            SymbolCandidate(name_path=_qualified(s), kind=s.kind, path=s.path, line=s.line)
            for s in list(unique.values())[:MAX_CANDIDATES]
        ]
        listing = "; ".join(f"{c.name_path} ({c.kind}, {c.path}:{c.line})" for c in candidates)
        raise AmbiguousSymbol(
            f"`{name_path}` matches {len(unique)} symbols: {listing}. "
            "Send a longer name path (e.g. `Class.method` or `module.Class.method`) or a `path`",
            candidates,
        )
    names = sorted({_qualified(s) for s in symbols} | {s.name_path for s in symbols})
    close = difflib.get_close_matches(name_path, names, n=5, cutoff=0.5)
    hint = f" Closest names: {', '.join(close)}." if close else ""
    where = f" in {path}" if path else ""
    raise InvalidInput(
        f"no symbol named `{name_path}` was found{where}.{hint} "
        "Use `workspace_symbols` to search, or send `path`, `line` and `column`"
    )


def _module(shown: str) -> list[str]:
    path = Path(shown)
    parts = list(path.with_suffix("").parts)
    if parts and parts[-1] in ("__init__", "index"):
        parts.pop()
    return parts


def _qualified(symbol: Symbol) -> str:
    """`pkg.module.Class.method`: the file's module path, then the name path in the file."""
    return ".".join([*_module(symbol.path), symbol.name_path])


def _matches(symbol: Symbol, parts: list[str]) -> bool:
    """Whether the name path the caller sent is the end of the symbol's qualified name."""
    if symbol.name != parts[-1]:
        return False
    full = [*_module(symbol.path), *symbol.name_path.split(".")]
    return full[-len(parts) :] == parts
