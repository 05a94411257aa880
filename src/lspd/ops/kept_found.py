"""The kept result's diagnostics as `ops` compares them (`engine/comparison.Found` of its
answer models): a kept file's (`found_of`), and a result's now (`found_in`), so that what
a comparison lists is what an answer shows."""

from __future__ import annotations

from dataclasses import asdict

from lspd.engine.comparison import Found
from lspd.engine.seen import FileSeen, Seen, key, seen_of
from lspd.lsp.text import split_lines
from lspd.ops.models import Diagnostic, DiagnosticsResult


def diagnostic_of(path: str, seen: Seen) -> Diagnostic:
    """A kept diagnostic as an answer lists it (with its file)."""
    fields = asdict(seen)
    del fields["snippet"]
    return Diagnostic.model_validate({**fields, "path": path})


def found_of(file: FileSeen) -> list[Found[Diagnostic]]:
    """A file's diagnostics as compared: errors first, then by position (as `diagnose`)."""
    ordered = sorted(file.diagnostics, key=lambda d: (d.severity != "error", d.line, d.column))
    return [Found(diagnostic_of(file.path, s), key(file.path, s)) for s in ordered]


def found_in(result: DiagnosticsResult, text: str | None) -> list[Found[Diagnostic]]:
    """A result's diagnostics as compared, their snippets read from `text` (the file's)."""
    return found_of(seen_of(result, split_lines(text or "")))
