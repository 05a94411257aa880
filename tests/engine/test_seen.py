"""A file's result as the kept result holds it: each diagnostic's snippet is the text it
points at (its line when it spans none), one object per distinct text."""

from __future__ import annotations

from lspd.engine.seen import key, seen_of
from lspd.ops.models import Diagnostic, DiagnosticsResult


def _at(line: int, column: int, end_column: int) -> Diagnostic:
    return Diagnostic(
        severity="warning", message="unknown", line=line, column=column, end_line=line,
        end_column=end_column,
    )  # fmt: skip


def test_snippets_are_the_text_pointed_at_one_object_per_text() -> None:
    lines = ["value = compute(item)", "", "other = compute(item)", "    pass  "]
    diagnostics = [_at(1, 9, 22), _at(3, 9, 22), _at(4, 5, 5), _at(9, 1, 2)]
    result = DiagnosticsResult(
        path="m.py", server="basedpyright", errors=0, warnings=4, diagnostics=diagnostics, total=4
    )
    first, second, empty, past = seen_of(result, lines).diagnostics
    assert [d.snippet for d in (first, second, empty, past)] == [
        "compute(item)", "compute(item)", "pass", "",
    ]  # fmt: skip
    assert first.snippet is second.snippet
    assert key("m.py", first) == key("m.py", second) != key("m.py", empty)
