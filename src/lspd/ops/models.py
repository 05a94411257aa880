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
    model_config = ConfigDict(extra="forbid")


class Span(Model):
    """A range of text: start and end, 1-based lines, columns in code points."""

    line: int
    column: int
    end_line: int
    end_column: int


class Location(Span):
    path: str = Field(description="Relative to the workspace root, or absolute outside it.")
    text: str = Field(description="The source line at `line`, without its line break.")


class Diagnostic(Span):
    severity: Severity
    message: str
    code: str | None = None
    source: str | None = None


class DiagnosticsResult(Model):
    path: str
    server: str
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
    warnings: int
    diagnostics: list[Diagnostic]
    total: int
    truncated: bool


class FileDiagnosticCounts(Model):
    path: str
    errors: int
    warnings: int


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
    path: str


class HoverResult(Model):
    path: str
    line: int
    column: int
    found: bool
    contents: str = Field(description="Markdown: the type, signature and docs at the position.")
    range: Span | None = None


class LocationsResult(Model):
    """Answer of definition, type_definition and implementation."""

    locations: list[Location]
    total: int
    truncated: bool


class FileReferences(Model):
    path: str
    count: int
    references: list[Location] = Field(
        description="Empty when shortened to counts per file (see `truncated`)."
    )


class ReferencesResult(Model):
    files: list[FileReferences]
    total: int
    truncated: bool
    detail: Literal["lines", "locations", "counts"] = Field(
        default="lines",
        description=(
            "How much each reference carries: `lines` (location and source line), `locations`"
            " (source lines dropped to fit), `counts` (only counts per file)."
        ),
    )


class Symbol(Model):
    name: str
    kind: str
    name_path: str = Field(description="Dotted path of names from the file's top level.")
    detail: str | None = None
    path: str
    line: int = Field(description="Line of the symbol's name.")
    column: int = Field(description="Column of the symbol's name.")
    end_line: int = Field(description="Last line of the symbol's whole body.")
    children: list[Symbol] = Field(default_factory=list)


class DocumentSymbolsResult(Model):
    path: str
    symbols: list[Symbol]
    total: int
    truncated: bool


class WorkspaceSymbol(Model):
    name: str
    kind: str
    name_path: str
    container: str | None = None
    path: str
    line: int
    column: int


class WorkspaceSymbolsResult(Model):
    query: str
    symbols: list[WorkspaceSymbol]
    total: int
    truncated: bool


class CallItem(Model):
    name: str
    kind: str
    detail: str | None = None
    path: str
    line: int
    column: int
    text: str


class Call(Model):
    item: CallItem = Field(description="The caller (incoming) or the callee (outgoing).")
    call_sites: list[Location] = Field(description="Where the call happens.")


class CallHierarchyResult(Model):
    item: CallItem | None
    direction: Direction
    calls: list[Call]
    total: int
    truncated: bool
    detail: Literal["lines", "locations", "calls"] = Field(
        default="lines",
        description=(
            "How much each call carries: `lines` (call sites with their source lines),"
            " `locations` (source lines of the call sites dropped to fit), `calls` (only the"
            " callers or callees, call sites dropped to fit)."
        ),
    )


class ServerStatus(Model):
    language: str
    server: str
    # The session's first project root, relative to the workspace root ("." for the root).
    project: str = "."
    projects: list[str] = Field(
        default_factory=list,
        description="Every project it serves (projects of one toolchain share a process).",
    )
    state: ServerState
    pid: int | None
    open_documents: int = 0
    toolchain: str | None = Field(
        default=None,
        description="The project's TypeScript or Python it runs, e.g. `typescript 5.4.5, project`.",
    )


class StatusResult(Model):
    status: Literal["ok"] = "ok"
    workspace: str
    pid: int
    version: str
    uptime_s: float
    restricted: bool = Field(
        default=False,
        description="Restricted mode: only lspd's own servers and settings run, no project code.",
    )
    servers: list[ServerStatus]


class ServerInfo(Model):
    """One defined language server: whether it is found and how to install it."""

    server: str
    language: str = Field(description="The language it serves (python, typescript, go, ...).")
    languages: list[str] = Field(description="The LSP language ids of the files it handles.")
    selected: bool = Field(
        description="True when it answers its language here: chosen in lspd.toml, else the "
        "default (the first server defined for the language)."
    )
    found: bool
    missing: str | None = Field(description="What is missing to run it, when it is not found.")
    version: str | None
    command: list[str]
    install: str | None = Field(description="The command that installs it, if it can be.")


class ServersResult(Model):
    """Every defined server, grouped by language, the selected one first in each."""

    servers: list[ServerInfo]


class SymbolCandidate(Model):
    name_path: str
    kind: str
    path: str
    line: int


WorkspaceDiagnosticsResult.model_rebuild()
