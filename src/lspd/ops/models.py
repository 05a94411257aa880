"""The result models of every operation: the one shape MCP, the CLI and the schemas share.

Lines and columns are 1-based; a column counts Unicode code points. Paths are POSIX and
relative to the workspace root, or absolute when the location lies outside it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = "1"

Severity = Literal["error", "warning"]
Direction = Literal["incoming", "outgoing"]


class Model(BaseModel):
    """Base of every result: unknown fields refused; a string under a field documents it."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, defer_build=True)


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


FileDiagnostic = Diagnostic  # a diagnostic in a list spanning files: `path` is set


class DiagnosticsResult(Model):
    """The errors and warnings of one file."""

    path: str
    """The file."""
    server: str
    """The language server that answered."""
    toolchain: str | None = None
    """The project's TypeScript or Python the server ran."""
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


class SkippedFile(Model):
    """A file workspace-wide work left out, and why."""

    path: str
    """The file, relative to the root."""
    reason: str
    """Too large (max_file_bytes / max_file_lines), set aside after stalling its server, or
    its server timed out on it."""


class WorkspaceDiagnosticsResult(Model):
    """Problems of every matched file: complete counts, diagnostics a page at a time."""

    files_matched: int
    """Files matching the globs."""
    files_checked: int
    """Files checked."""
    errors: int
    """Errors in all files."""
    warnings: int
    """Warnings in all files."""
    files: list[FileDiagnosticCounts] = Field(default_factory=list)
    """Files with problems, worst first."""
    files_with_problems: int = 0
    """How many files have problems."""
    diagnostics: list[FileDiagnostic] = Field(default_factory=list)
    """This page, errors first."""
    total: int
    """All diagnostics."""
    offset: int = 0
    """This page's first index."""
    truncated: bool = False
    """True when diagnostics or files were left out."""
    next_offset: int | None = None
    """The `offset` of the next page."""
    changes: Changes | None = None
    """With `baseline`: what changed; the counts are then its `introduced`."""
    scope: list[CheckScope] | None = None
    """Without `paths` or `all`: per project, the configuration that chose the files checked."""
    outside_gate: int = 0
    """Source files no gate configuration checks, left out (`all` checks them)."""
    skipped: list[SkippedFile] = Field(default_factory=list)
    """Matched files left out (not counted in `files_checked`); ask about one directly."""
    environment: list[str] = Field(default_factory=list)
    """When imports did not resolve: how to fix it, once per interpreter or TypeScript."""


class CheckScope(Model):
    """One project of a whole-workspace check: the files its gate configuration chose."""

    language: str
    """`python`, `typescript`, `go`, ..."""
    project: str
    """The configuration's directory (`.`: the root)."""
    config: str | None = None
    """E.g. `pyrightconfig.json`, `web/tsconfig.json`; null: none (every source file)."""
    files: int
    """Files it chose."""
    note: str | None = None
    """Why every file (no configuration), or what the configuration said."""


class Changes(Model):
    """Diagnostics a change introduced and fixed, against a baseline."""

    baseline: str
    """`HEAD`, a git revision, `session` or `disk`."""
    introduced: list[FileDiagnostic]
    """New since the baseline (all)."""
    fixed: list[FileDiagnostic]
    """Gone since the baseline (all)."""
    unchanged: int = 0
    """In both (matched by text, not line)."""
    changed: list[str] = Field(default_factory=list)
    """Files that differ from the baseline."""
    scope: str
    """Which files were compared."""


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
WorkspaceDiagnosticsResult.model_rebuild()
