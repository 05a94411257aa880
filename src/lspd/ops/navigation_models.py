"""The result models of the navigation operations: hover, definitions and implementations,
references, document and workspace symbols, the call hierarchy, and the candidates of a
name that matched several symbols (`ops/models.py` holds the diagnostics' and the shared
positions: 1-based lines, columns in code points, paths relative to the root)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from lspd.ops.models import Location, Model, Span

Direction = Literal["incoming", "outgoing"]


class HoverResult(Model):
    """What an editor's hover shows at a position."""

    contents: str = ""
    """Markdown: type, signature and docs."""
    found: bool = True
    """False when the server has nothing to show there."""
    path: str | None = None
    """The symbol's file (when it was named by `symbol`)."""
    line: int | None = None
    """The symbol's line (when it was named by `symbol`)."""
    column: int | None = None
    """The symbol's column (when it was named by `symbol`)."""
    range: Span | None = None
    """The text the hover is about (the name), when the server says it."""
    toolchain: str | None = None
    """Which TypeScript or Python answered."""


class Paged(Model):
    """The paging fields every list answer shares."""

    total: int
    """All items, on every page."""
    truncated: bool = False
    """True when more items remain."""
    next_offset: int | None = None
    """The `offset` of the next page."""


class SymbolLocation(Location):
    """A place and the symbol it stands for."""

    symbol: str | None = None
    """Its name path (`Class.method`)."""


class LocationsResult(Paged):
    """Places found."""

    locations: list[SymbolLocation] = Field(default_factory=list)
    """The places found."""
    asked: int | None = None
    """Index of the one asked about."""
    toolchain: str | None = None
    """Which TypeScript or Python answered."""


class ImplementationResult(LocationsResult):
    """Implementations found, and the name's uses the server was not asked about."""

    outside: list[FileReferences] | None = None
    """Uses in files the gate does not check (paged with `locations`)."""
    outside_total: int | None = None
    """All of them."""


class Reference(Model):
    """One use of a name, in the file of its group."""

    line: int
    """Line of the use."""
    column: int
    """Column of the use."""
    text: str
    """The source line."""
    symbol: str | None = None
    """Name path of the enclosing symbol; absent at module level."""


class FileReferences(Model):
    """The references in one file."""

    path: str
    """The file."""
    count: int
    """All references in it (on every page)."""
    references: list[Reference] = Field(default_factory=list)
    """Those on this page."""


class ReferencesResult(Paged):
    """Every use of a name, grouped by file (files in path order, workspace first)."""

    summary: str
    """The answer in one line."""
    files: list[FileReferences] = Field(default_factory=list)
    """Each file, its count, this page's uses."""
    unresolved: list[FileReferences] = Field(default_factory=list)
    """Same-name uses no checker resolves (paged with `files`)."""
    unresolved_total: int = 0
    """All of them."""
    candidates: int | None = None
    """Where the name stands in the checked files' text."""
    outside: list[FileReferences] | None = None
    """Same-name uses in files the gate does not check, unasked (paged with `files`)."""
    outside_total: int | None = None
    """All of them."""
    toolchain: str | None = None
    """Which TypeScript or Python answered."""


class Symbol(Model):
    """A symbol of a file, with its members."""

    name_path: str
    """Name path in the file: pass it as `symbol`."""
    kind: str
    """`class`, `function`, `method`, `variable`, ..."""
    line: int
    """Line of its name."""
    column: int
    """Column of its name."""
    end_line: int
    """Last line of its body."""
    detail: str | None = None
    """The server's extra detail (e.g. a signature)."""
    children: list[Symbol] = Field(default_factory=list)
    """Its members (on this page)."""


class DocumentSymbolsResult(Paged):
    """A file's symbol tree (or a symbol's members), paged in file order, every level kept."""

    path: str
    """The file."""
    symbols: list[Symbol] = Field(default_factory=list)
    """This page's symbols (name paths say where a page begins)."""
    toolchain: str | None = None
    """Which TypeScript or Python answered."""


class WorkspaceSymbol(Model):
    """A symbol found by name."""

    name_path: str
    """`Container.name`: pass it as `symbol`."""
    kind: str
    """`class`, `function`, `method`, ..."""
    path: str
    """Its file."""
    line: int
    """Line of its name."""
    column: int
    """Column of its name."""


class WorkspaceSymbolsResult(Paged):
    """Symbols matching a query, best matches first (or a container's members)."""

    symbols: list[WorkspaceSymbol] = Field(default_factory=list)
    """The matches on this page."""


class CallItem(Model):
    """The function or method asked about."""

    symbol: str
    """Its qualified name path (`Class.method`)."""
    kind: str
    """`function`, `method`, `constructor`, ..."""
    path: str
    """Its file."""
    line: int
    """Line of its name."""
    column: int
    """Column of its name."""


class Call(Model):
    """One call site: who calls (incoming) or what is called (outgoing), and where."""

    symbol: str
    """Name path of the caller (incoming) or callee (outgoing)."""
    kind: str
    """Its kind as the server reports it."""
    path: str
    """The file of the call."""
    line: int
    """Line of the call."""
    column: int
    """Column of the call."""
    text: str
    """The source line of the call."""
    defined: str | None = None
    """Where the callee is defined, `path:line` (outgoing)."""


class CallHierarchyResult(Paged):
    """Callers or callees of a function, one entry per call site."""

    summary: str
    """The answer in one line."""
    item: CallItem
    """The function asked about."""
    direction: Direction
    """`incoming` (callers) or `outgoing` (callees)."""
    calls: list[Call] = Field(default_factory=list)
    """This page's call sites, by file and line."""
    unresolved: list[Call] = Field(default_factory=list)
    """Incoming: same-name uses no checker resolves (paged with `calls`)."""
    unresolved_total: int = 0
    """All of them."""
    candidates: int | None = None
    """Where the name stands in the checked files' text."""
    outside: list[Call] | None = None
    """Same-name uses in files the gate does not check, unasked (paged with `calls`)."""
    outside_total: int | None = None
    """All of them."""
    toolchain: str | None = None
    """Which TypeScript or Python answered."""


class SymbolCandidate(Model):
    """One of several symbols a name matched."""

    name_path: str
    """Its qualified name path."""
    kind: str
    """Its kind."""
    path: str
    """Its file."""
    line: int
    """Line of its name."""
