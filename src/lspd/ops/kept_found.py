"""The diagnostics `ops` compares (`engine/comparison.Found` of an `Item`): a kept file's
(`found_of`), a result's now (`found_in`), and the answer a compared one makes
(`answer_of`), and a result's own items keyed (`keyed`), so that what a comparison lists
is what an answer shows.

A compared diagnostic is held as it came, with no path of its own: an answer's (the file's
result holds it) or a kept record (`engine/seen.Seen`). Its file is its key's. Only the few
a comparison lists become answers with their path: copying every one of SQLAlchemy's
350,000 per state, both states, held ~750 MB for a moment (1.1 KB each).
"""

from __future__ import annotations

from dataclasses import asdict

from lspd.engine.comparison import Found
from lspd.engine.seen import FileSeen, Seen, key, seen_of, snippet
from lspd.lsp.text import split_lines
from lspd.ops.models import Diagnostic, DiagnosticsResult, FileDiagnostic

Item = Diagnostic | Seen  # a diagnostic as compared: an answer's (pathless), or kept


def diagnostic_of(path: str, seen: Seen) -> Diagnostic:
    """A kept diagnostic as an answer lists it (with its file)."""
    fields = asdict(seen)
    del fields["snippet"]
    return Diagnostic.model_validate({**fields, "path": path})


def answer_of(found: Found[Item]) -> FileDiagnostic:
    """A compared diagnostic as an answer lists it, with its file (its key's)."""
    item, path = found.diagnostic, found.key[0]
    if isinstance(item, Seen):
        return diagnostic_of(path, item)
    return item if item.path == path else item.model_copy(update={"path": path})


def keyed(items: list[Diagnostic], lines: list[str], path: str) -> list[Found[Item]]:
    """A file's answer items as compared, each as it is (no copy), keyed with `path` and
    the snippet `lines` (the file's text in their state) hold."""
    found: list[Found[Item]] = []
    for d in items:
        said = snippet(lines, d.line, d.column, d.end_column)
        found.append(Found(d, (path, d.severity, d.code, d.message, said)))
    return found


def found_of(file: FileSeen) -> list[Found[Item]]:
    """A file's diagnostics as compared: errors first, then by position (as `diagnose`)."""
    ordered = sorted(file.diagnostics, key=lambda d: (d.severity != "error", d.line, d.column))
    return [Found(s, key(file.path, s)) for s in ordered]


def found_in(result: DiagnosticsResult, text: str | None) -> list[Found[Item]]:
    """A result's diagnostics as compared, their snippets read from `text` (the file's)."""
    return found_of(seen_of(result, split_lines(text or "")))
