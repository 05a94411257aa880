"""The results of the edit operations (`rename`, `fixes`): the server's edit as a diff to
apply, and what applying it would introduce and fix. lspd never applies it."""

from __future__ import annotations

from pydantic import Field

from lspd.ops.models import Changes, Diagnostic, Model


class FileEdits(Model):
    """One file an edit changes."""

    path: str
    """The file, relative to the root."""
    edits: int
    """Text edits in it."""


class RenameResult(Model):
    """A rename as the language server computes it: a diff to apply (never applied)."""

    old_name: str
    """The name renamed."""
    new_name: str
    """The name it gets."""
    diff: str
    """One unified diff, paths relative to the root: `git apply` or `patch -p1` it."""
    files: list[FileEdits] = Field(default_factory=list)
    """The files it changes, with their edits."""
    edits: int
    """Text edits in all files."""
    check: Changes | None = None
    """What applying it would introduce and fix, as `preview` says."""
    note: str | None = None
    """Why `check` is missing."""


class Fix(Model):
    """One fix the language server offers, as a diff to apply (never applied)."""

    title: str
    """The server's title, e.g. `Add import from "./models"`."""
    kind: str | None = None
    """`quickfix`, `source.organizeImports`, ..."""
    preferred: bool = False
    """The server's choice among several fixes."""
    diagnostic: Diagnostic | None = None
    """The diagnostic it answers (none for a source action)."""
    diff: str
    """One unified diff, paths relative to the root: `git apply` or `patch -p1` it."""
    files: list[FileEdits] = Field(default_factory=list)
    """The files it changes, with their edits."""
    check: Changes | None = None
    """What applying it would introduce and fix, as `preview` says."""
    note: str | None = None
    """What else it would do that lspd did not (a command), or why `check` is missing."""


class FixesResult(Model):
    """The fixes a language server offers at a place (or the source actions of a file)."""

    path: str
    """The file."""
    server: str
    """The language server that answered."""
    diagnostics: int
    """Errors and warnings at the place asked about."""
    fixes: list[Fix] = Field(default_factory=list)
    """The fixes: by diagnostic (errors first), the server's preferred first."""
    total: int
    """All fixes found."""
    truncated: bool = False
    """True when `fixes` stops short of `total`: ask about one line."""
    skipped: list[str] = Field(default_factory=list)
    """Fixes lspd cannot give as a diff, and why."""
