"""The results of the edit operations (`rename`, `fixes`): the server's edit as a diff to
apply, and what applying it would introduce and fix. lspd never applies it."""

from __future__ import annotations

from pydantic import Field

from lspd.ops.models import Changes, Diagnostic, Model
from lspd.ops.navigation_models import Paged


class FileEdits(Model):
    """One file an edit changes."""

    path: str
    """The file, relative to the root."""
    edits: int
    """Its text edits."""


class RenameResult(Paged):
    """A rename as the language server computes it: a diff to apply (never applied), its
    files paged (`total`: all files it changes)."""

    partial: str | None = None
    """Set when `diff` is only a page of the rename: never apply it alone; how to get the rest."""
    old_name: str
    """The name renamed."""
    new_name: str
    """The name it gets."""
    diff: str
    """This page's files as one unified diff to `git apply` (or `patch -p1`): the whole
    rename unless `partial` says otherwise."""
    files: list[FileEdits] = Field(default_factory=list)
    """This page's files (whole: a file's diff is never cut)."""
    edits: int
    """Text edits in all files."""
    check: Changes | None = None
    """What applying the whole rename (every page's diff) would introduce and fix."""
    note: str | None = None
    """Why `check` is missing or cut."""


class Fix(Model):
    """One fix the language server offers, as a diff to apply (never applied)."""

    title: str
    """The server's title."""
    kind: str | None = None
    """`quickfix`, `source.organizeImports`, ..."""
    preferred: bool = False
    """The server's pick among several."""
    diagnostic: Diagnostic | None = None
    """The diagnostic it answers."""
    diff: str
    """One unified diff to `git apply` (or `patch -p1`)."""
    files: list[FileEdits] = Field(default_factory=list)
    """The files it changes."""
    check: Changes | None = None
    """What applying it would introduce and fix."""
    note: str | None = None
    """A command lspd did not run, or why `check` is missing."""


class FixesResult(Paged):
    """The fixes a language server offers at a place (or the source actions of a file),
    paged (`total`: all fixes found)."""

    path: str
    """The file."""
    server: str
    """The language server that answered."""
    diagnostics: int
    """Errors and warnings there."""
    fixes: list[Fix] = Field(default_factory=list)
    """A page of them: errors' fixes first, preferred first."""
    skipped: list[str] = Field(default_factory=list)
    """Fixes with no diff, and why (on the first page)."""
