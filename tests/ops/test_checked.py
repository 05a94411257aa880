"""A file's diagnostics are turned into the same JSON text `compact_json` writes, whatever
their messages hold."""

from __future__ import annotations

import json

from lspd.ops.budget import compact_json
from lspd.ops.checked import stamp
from lspd.ops.models import Diagnostic, DiagnosticsResult

MESSAGES = [
    'Type "list[Any]" is not assignable to return type "int"',
    'naïve — 日本語 \u2028 \u2029 \x7f \x00 \t\n "quoted" \\ </script> 😀',
    "a lone surrogate \ud800 (json.dumps writes it, pydantic refuses)",
]


def test_stamped_texts_are_compact_json_of_each_diagnostic() -> None:
    diagnostics = [
        Diagnostic(line=i, column=1, end_line=i, end_column=4, severity="error", message=m)
        for i, m in enumerate(MESSAGES, 1)
    ]
    diagnostics.append(
        Diagnostic(
            line=9, column=2, end_line=10, end_column=1, severity="warning", message="w",
            code="reportUnusedImport", source="basedpyright",
        )
    )  # fmt: skip
    result = DiagnosticsResult(
        path="pkg/mod.py", server="basedpyright", errors=3, warnings=1,
        diagnostics=diagnostics, total=4,
    )  # fmt: skip
    made = stamp({}, result, texts=True)
    assert made.texts() == [compact_json(d) for d in diagnostics]
    assert json.loads(made.texts()[3]) == {
        "line": 9, "column": 2, "end_line": 10, "end_column": 1, "severity": "warning",
        "message": "w", "code": "reportUnusedImport", "source": "basedpyright",
        "path": "pkg/mod.py",
    }  # fmt: skip
    assert json.loads(made.texts()[2])["message"] == MESSAGES[2]


def test_a_file_without_diagnostics_has_no_texts() -> None:
    result = DiagnosticsResult(
        path="clean.py", server="basedpyright", errors=0, warnings=0, total=0
    )
    assert stamp({}, result, texts=True).texts() == []
