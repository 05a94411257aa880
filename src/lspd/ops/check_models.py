"""The result of a whole-workspace check (`workspace_diagnostics`, `lspd check`): complete
counts per file, the diagnostics a page at a time, which configuration chose the files, and
the files left out."""

from __future__ import annotations

from pydantic import Field

from lspd.engine.check_files import NOT_ANSWERED, NOT_CHECKED
from lspd.ops.models import Changes, FileDiagnostic, FileDiagnosticCounts, Model


class SkippedFile(Model):
    """A file workspace-wide work left out, and why."""

    path: str
    """The file, relative to the root."""
    reason: str
    """Too large (max_file_bytes / max_file_lines), set aside after stalling its server, its
    server timed out on it, or its checker's configuration leaves it out (`all`: a file
    outside mypy's `files`, which mypy does not check)."""


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
    stopped: list[str] = Field(default_factory=list)
    """Checkers stopped at syntax errors: their other errors unknown, not absent."""


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


WorkspaceDiagnosticsResult.model_rebuild()


def not_answered(skipped: list[SkippedFile]) -> list[SkippedFile]:
    """The files of a check no server answered (or can run for here): without them it is
    incomplete, not clean."""
    return [s for s in skipped if s.reason.startswith((NOT_ANSWERED, NOT_CHECKED))]
