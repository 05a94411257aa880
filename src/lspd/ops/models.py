"""The result models of every operation: the one shape MCP, the CLI and the schemas share.

Lines and columns are 1-based; a column counts Unicode code points. Paths are POSIX and
relative to the workspace root, or absolute when the location lies outside it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lspd.lsp.state import ServerState

SCHEMA_VERSION = "1"

Severity = Literal["error", "warning"]
Direction = Literal["incoming", "outgoing"]


class Model(BaseModel):
    """Base of every result: unknown fields refused; a string under a field documents it."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


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

    path: str = Field(description="Relative to the workspace root, or absolute outside it.")
    text: str = Field(description="The source line at `line`, without its line break.")


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


class DiagnosticsResult(Model):
    """The errors and warnings of one file."""

    path: str
    """The file."""
    server: str
    """The language server that answered."""
    toolchain: str | None = Field(
        default=None,
        description="The project's TypeScript or Python the server ran, and where it came from.",
    )
    environment: str | None = Field(
        default=None,
        description="When imports did not resolve: the interpreter used, how to choose another.",
    )
    fresh: bool = Field(description="True when the diagnostics are for the file's current content.")
    errors: int
    """Errors in the file."""
    warnings: int
    """Warnings in the file."""
    diagnostics: list[Diagnostic]
    """Errors first, then by line."""
    total: int
    """All diagnostics of the file."""
    truncated: bool
    """True when `diagnostics` stops short of `total`."""


class FileDiagnosticCounts(Model):
    """How many problems one file has."""

    path: str
    """The file."""
    errors: int
    """Its errors."""
    warnings: int
    """Its warnings."""


class WorkspaceDiagnosticsResult(Model):
    """Errors and warnings of every source file (or of those matching the globs): complete
    counts, and the diagnostics themselves one page at a time."""

    files_matched: int = Field(description="Source files matching the globs (or all of them).")
    files_checked: int = Field(description="Files checked: every matched source file.")
    errors: int = Field(description="Errors in all checked files.")
    warnings: int = Field(description="Warnings in all checked files.")
    files: list[FileDiagnosticCounts] = Field(
        description="Files with problems, worst first (all of them unless `files_shown` says)."
    )
    files_with_problems: int = Field(default=0, description="How many files have problems.")
    diagnostics: list[Diagnostic | FileDiagnostic] = Field(
        description="This page of the diagnostics, errors first, by path and line."
    )
    total: int = Field(description="All diagnostics of the checked files.")
    offset: int = Field(default=0, description="Index of this page's first diagnostic.")
    truncated: bool = Field(description="True when diagnostics or files were left out.")
    next_offset: int | None = Field(
        default=None, description="Pass as `offset` to get the next page; absent on the last."
    )


class FileDiagnostic(Diagnostic):
    """A diagnostic and its file."""

    path: str
    """The file."""


class HoverResult(Model):
    """What an editor's hover shows at a position."""

    path: str
    """The file asked about."""
    line: int
    """The line asked about (or of the symbol named)."""
    column: int
    """The column asked about (or of the symbol named)."""
    found: bool
    """False when the server has nothing to show there."""
    contents: str = Field(description="Markdown: the type, signature and docs at the position.")
    range: Span | None = None
    """The span of the name hovered."""


class LocationsResult(Model):
    """Answer of definition, type_definition and implementation."""

    locations: list[Location]
    """The places found."""
    total: int
    """How many were found."""
    truncated: bool
    """True when `locations` stops short of `total`."""


class FileReferences(Model):
    """The references in one file."""

    path: str
    """The file."""
    count: int
    """References in it."""
    references: list[Location] = Field(
        description="Empty when shortened to counts per file (see `truncated`)."
    )


class ReferencesResult(Model):
    """Every use of a name, grouped by file."""

    files: list[FileReferences]
    """Files in path order, workspace first."""
    total: int
    """All references found."""
    truncated: bool
    """True when some were left out."""
    detail: Literal["lines", "locations", "counts"] = Field(
        default="lines",
        description=(
            "How much each reference carries: `lines` (location and source line), `locations`"
            " (source lines dropped to fit), `counts` (only counts per file)."
        ),
    )


class Symbol(Model):
    """A symbol of a file, with its members."""

    name: str
    """Its name."""
    kind: str
    """`class`, `function`, `method`, `variable`, ..."""
    name_path: str = Field(description="Dotted path of names from the file's top level.")
    detail: str | None = None
    """The server's extra detail (e.g. a signature)."""
    path: str
    """The file."""
    line: int = Field(description="Line of the symbol's name.")
    column: int = Field(description="Column of the symbol's name.")
    end_line: int = Field(description="Last line of the symbol's whole body.")
    children: list[Symbol] = Field(default_factory=list)
    """Its members."""


class DocumentSymbolsResult(Model):
    """The symbol tree of one file."""

    path: str
    """The file."""
    symbols: list[Symbol]
    """Top-level symbols, in file order."""
    total: int
    """All symbols of the file, at every depth."""
    truncated: bool
    """True when some were left out."""


class WorkspaceSymbol(Model):
    """A symbol found by name."""

    name: str
    """Its name."""
    kind: str
    """`class`, `function`, `method`, ..."""
    name_path: str
    """`Container.name`."""
    container: str | None = None
    """The enclosing symbol, as the server names it."""
    path: str
    """The file."""
    line: int
    """Line of its name."""
    column: int
    """Column of its name."""


class WorkspaceSymbolsResult(Model):
    """Symbols matching a query, best matches first."""

    query: str
    """The query."""
    symbols: list[WorkspaceSymbol]
    """The matches."""
    total: int
    """All matches."""
    truncated: bool
    """True when `symbols` stops short of `total`."""


class CallItem(Model):
    """A function or method in a call hierarchy."""

    name: str
    """Its name."""
    kind: str
    """`function`, `method`, `constructor`, ..."""
    detail: str | None = None
    """The server's extra detail."""
    path: str
    """Its file."""
    line: int
    """Line of its name."""
    column: int
    """Column of its name."""
    text: str
    """The source line at `line`."""


class Call(Model):
    """One caller or callee."""

    item: CallItem = Field(description="The caller (incoming) or the callee (outgoing).")
    call_sites: list[Location] = Field(description="Where the call happens.")


class CallHierarchyResult(Model):
    """Callers or callees of a function."""

    item: CallItem | None
    """The function asked about; null when nothing callable is there."""
    direction: Direction
    """`incoming` (callers) or `outgoing` (callees)."""
    calls: list[Call]
    """The callers or callees."""
    total: int
    """All of them."""
    truncated: bool
    """True when some were left out."""
    detail: Literal["lines", "locations", "calls"] = Field(
        default="lines",
        description=(
            "How much each call carries: `lines` (call sites with their source lines),"
            " `locations` (source lines of the call sites dropped to fit), `calls` (only the"
            " callers or callees, call sites dropped to fit)."
        ),
    )


class ServerStatus(Model):
    """One language server process."""

    language: str
    """The language it serves."""
    server: str
    """Its name."""
    project: str = "."
    """Its first project root, relative to the workspace root (`.` for the root)."""
    projects: list[str] = Field(
        default_factory=list,
        description="Every project it serves (projects of one toolchain share a process).",
    )
    state: ServerState
    """`starting`, `indexing`, `ready`, `crashed` or `stopped`."""
    pid: int | None
    """Its process id, while it runs."""
    open_documents: int = 0
    """Files it holds open."""
    toolchain: str | None = Field(
        default=None,
        description="The project's TypeScript or Python it runs, e.g. `typescript 5.4.5, project`.",
    )


class StatusResult(Model):
    """The daemon and its language servers."""

    status: Literal["ok"] = "ok"
    """Always `ok` when it answers."""
    workspace: str
    """The workspace root."""
    pid: int
    """The daemon's process id."""
    version: str
    """lspd's version."""
    uptime_s: float
    """Seconds since it started."""
    restricted: bool = Field(
        default=False,
        description="Restricted mode: only lspd's own servers and settings run, no project code.",
    )
    watches: int | None = None
    """Directories the file watcher watches (ignored ones never are)."""
    watch_problem: str | None = None
    """Why file changes are not (all) followed, e.g. the system's watch limit."""
    servers: list[ServerStatus]
    """Its language servers."""


class ServerInfo(Model):
    """One defined language server: whether it is found and how to install it."""

    server: str
    """Its name."""
    language: str = Field(description="The language it serves (python, typescript, go, ...).")
    languages: list[str] = Field(description="The LSP language ids of the files it handles.")
    selected: bool = Field(
        description="True when it answers its language here: chosen in lspd.toml, else the "
        "default (the first server defined for the language)."
    )
    found: bool
    """True when it can run."""
    missing: str | None = Field(description="What is missing to run it, when it is not found.")
    version: str | None
    """Its version, when found."""
    command: list[str]
    """How lspd starts it."""
    install: str | None = Field(description="The command that installs it, if it can be.")


class ServersResult(Model):
    """Every defined server, grouped by language, the selected one first in each."""

    servers: list[ServerInfo]
    """The servers."""


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


WorkspaceDiagnosticsResult.model_rebuild()
