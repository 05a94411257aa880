"""The result models of every operation: the one shape MCP, the CLI and the schemas share.

Lines and columns are 1-based; a column counts Unicode code points. Paths are POSIX and
relative to the workspace root, or absolute when the location lies outside it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from lspd.ops.model_base import Model as Model  # every result's base, for the other models
from lspd.ops.stopped_model import Stopped as Stopped  # a part of `Changes`

SCHEMA_VERSION = "1"

Severity = Literal["error", "warning"]
Direction = Literal["incoming", "outgoing"]


class Span(Model):
    """A range of text: start and end, 1-based lines, columns in code points."""

    line: int
    """Start line."""
    column: int
    """Start column."""
    end_line: int
    """End line."""
    end_column: int
    """End column (exclusive)."""


class Location(Span):
    """A place in a file, with its source line."""

    path: str
    """Relative to the workspace root, or absolute outside it."""
    text: str
    """The source line at `line`."""


class Diagnostic(Span):
    """One error or warning from a language server."""

    severity: Severity
    """`error` or `warning`."""
    message: str
    """The server's message."""
    code: str | None = None
    """The server's rule or error code."""
    source: str | None = None
    """Which checker said it (e.g. `basedpyright`)."""
    path: str | None = None
    """Its file, in lists that span files."""
    notes: list[str] | None = None
    """mypy's notes on this error."""


FileDiagnostic = Diagnostic  # a diagnostic in a list spanning files: `path` is set


class DiagnosticsResult(Model):
    """The errors and warnings of one file."""

    path: str
    """The file."""
    server: str
    """The language server that answered."""
    toolchain: str | None = None
    """The project's TypeScript or Python the server ran."""
    checker: str | None = None
    """Python: which checker judged (`mypy`, `basedpyright`) and why."""
    environment: str | None = None
    """When imports did not resolve: how to fix it."""
    fresh: bool = True
    """True when they are for the file's current content."""
    errors: int
    """Errors in the file."""
    warnings: int
    """Warnings in the file."""
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    """Errors first, then by line."""
    total: int
    """All diagnostics of the file."""
    truncated: bool = False
    """True when `diagnostics` stops short of `total`."""
    next_offset: int | None = None
    """The `offset` of the next page."""
    changes: Changes | None = None
    """With `baseline`: what changed; the counts are then its `introduced`."""


class FileDiagnosticCounts(Model):
    """How many problems one file has."""

    path: str
    """The file."""
    errors: int
    """Its errors."""
    warnings: int
    """Its warnings."""


class UncheckedImport(Model):
    """A changed file that imports files the change adds: not checked through them."""

    path: str
    """The importing file."""
    lines: list[int]
    """The lines of those imports."""
    imports: list[str]
    """The files not written yet that it imports."""
    set_aside: int
    """Its diagnostics set aside, none counted: of those imports, and of `Unknown` types."""
    why: str
    """Why they are not the change's, and what to do."""


class Changes(Model):
    """Diagnostics a change introduced and fixed, against a baseline."""

    baseline: str
    """`HEAD`, a git revision, `session` or `disk`."""
    introduced: list[FileDiagnostic]
    """New since the baseline (a page: `next_offset`)."""
    fixed: list[FileDiagnostic]
    """Gone since the baseline: the first page's only, as many as fit (narrower paths, or
    a file's diagnostics, list the rest)."""
    fixed_total: int = 0
    """All gone (`fixed` may list fewer)."""
    unchanged: int = 0
    """In both (matched by text, not line)."""
    changed: list[str] = Field(default_factory=list)
    """Files that differ from the baseline."""
    scope: str
    """Which files were compared."""
    unchecked: list[UncheckedImport] = Field(default_factory=list)
    """Files importing files not written yet: their errors there set aside, not introduced."""
    stopped: list[Stopped] = Field(default_factory=list)
    """Checkers stopped at syntax errors: the baseline errors they did not check, not fixed."""
    baseline_stopped: list[Stopped] = Field(default_factory=list)
    """Stopped at the baseline, or a part not compared there: what was not checked, not new."""
    renamed: dict[str, str] = Field(default_factory=dict)
    """Renamed files, old path: new path (compared as one)."""


class PreviewResult(Model):
    """What proposed changes would introduce and fix, against the disk as it is."""

    errors: int
    """Errors the change would introduce."""
    warnings: int
    """Warnings the change would introduce."""
    files: list[FileDiagnosticCounts] = Field(default_factory=list)
    """Counts per file after the change."""
    changes: Changes
    """What it would introduce and fix."""
    total: int = 0
    """All it would introduce."""
    truncated: bool = False
    """True when a list was cut to fit."""
    files_total: int = 0
    """Files with counts after the change (`files` may list fewer)."""
    next_offset: int | None = None
    """The `offset` of the next page of `changes.introduced`."""


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


DiagnosticsResult.model_rebuild()
