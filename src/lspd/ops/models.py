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
    """Gone since the baseline (the first page only: narrower paths list the rest)."""
    fixed_total: int = 0
    """All gone."""
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
    """Stopped or not compared at the baseline: what it did not check there, not new."""
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


DiagnosticsResult.model_rebuild()
