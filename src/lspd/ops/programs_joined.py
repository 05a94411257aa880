"""One result per file, its programs' and checkers' diagnostics joined (`mypy_answers.merged`),
an error two gates both say said once.

A file two tsconfig programs hold outside a solution-style layout (`Solution.once`:
ts-pattern's tests/tsconfig.json including ../src) has two gates, `tsc -p .` and `tsc -p
tests`, and each says an error both programs see: lspd's answer is their union, so such an
error is one. TypeScript 5's builder drops it where its own program's check says it
(`solution_check.not_owned`); TypeScript 7's own program is its server, whose answer of
the file is the first result joined here, so the other programs' errors it says already go.
A solution's files (`tsc -b` prints an error of two programs twice) are not `once`.
"""

from __future__ import annotations

from lspd.ops.models import Diagnostic, DiagnosticsResult
from lspd.ops.mypy_answers import merged
from lspd.workspace import Workspace
from lspd.workspace.scope import solution_of

Key = tuple[int, int, int, int, str | None, str]


def joined(ws: Workspace, results: list[DiagnosticsResult]) -> list[DiagnosticsResult]:
    """`results` joined per file (the file's own program's first), a `once` file's
    diagnostic an earlier result of it says left out of the later ones."""
    once = solution_of(ws).once
    said: dict[str, set[Key]] = {}
    kept: list[DiagnosticsResult] = []
    for result in results:
        seen = said.get(result.path)  # a file said twice: only then is it looked up
        if seen is not None and ws.root / result.path in once:  # (`display`'s, undone)
            fresh = [d for d in result.diagnostics if _key(d) not in seen]
            if not fresh:
                continue
            result = _with(result, fresh)
        said.setdefault(result.path, set()).update(map(_key, result.diagnostics))
        kept.append(result)
    return merged(kept)


def _key(diagnostic: Diagnostic) -> Key:
    """What makes two programs' errors one: its place, code and words."""
    d = diagnostic
    return d.line, d.column, d.end_line, d.end_column, d.code, d.message


def _with(result: DiagnosticsResult, diagnostics: list[Diagnostic]) -> DiagnosticsResult:
    """`result` holding `diagnostics` alone, counted again."""
    errors = sum(d.severity == "error" for d in diagnostics)
    counts = {"errors": errors, "warnings": len(diagnostics) - errors, "total": len(diagnostics)}
    return result.model_copy(update={"diagnostics": diagnostics, **counts})
