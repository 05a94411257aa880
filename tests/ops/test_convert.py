"""A server's diagnostics as lspd's models: 1-based code-point positions, hints dropped, and
the converted diagnostics sharing pydantic's set of given fields (its memory, per
diagnostic, was more than the rest of the diagnostic)."""

from __future__ import annotations

from pathlib import Path

from lspd.lsp import shapes
from lspd.ops.checked import stamp
from lspd.ops.convert import Converter, convert_items
from lspd.ops.models import DiagnosticsResult
from lspd.workspace import Workspace


def _item(line: int, start: int, end: int, severity: int, message: str) -> shapes.Diagnostic:
    return {
        "range": {
            "start": {"line": line, "character": start},
            "end": {"line": line, "character": end},
        },
        "severity": severity,
        "message": message,
        "code": "reportAssignmentType",
        "source": "basedpyright",
    }


def test_converted_diagnostics_positions_and_their_shared_fields_set(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text('s = "😀"; x: int = ""\nprint(x)\n', encoding="utf-8")
    ws = Workspace(tmp_path, log_dir=tmp_path.parent / "logs")
    raw = [
        _item(0, 19, 21, 1, "first"),  # UTF-16 units: the emoji is two
        _item(1, 0, 5, 2, "second"),
        _item(1, 6, 7, 4, "a hint"),
    ]
    first, second = convert_items(Converter(ws, "utf-16"), source, raw)
    assert (first.line, first.column, first.end_line, first.end_column) == (1, 19, 1, 21)
    assert (second.severity, second.line, second.column, second.end_column) == ("warning", 2, 1, 6)
    assert first.model_fields_set is second.model_fields_set

    # A whole check's stamp sets each one's path: the other result's are left as they were,
    # and a copy's set is its own.
    copy = second.model_copy(update={"message": "copied"})
    result = DiagnosticsResult(
        path="mod.py", server="basedpyright", errors=1, warnings=0, diagnostics=[first], total=1
    )
    stamp({}, result, texts=True)
    assert (first.path, second.path, copy.path) == ("mod.py", None, None)
    assert second.model_dump(exclude_defaults=True) == {
        "line": 2, "column": 1, "end_line": 2, "end_column": 6, "severity": "warning",
        "message": "second", "code": "reportAssignmentType", "source": "basedpyright",
    }  # fmt: skip
    assert copy.model_fields_set is not second.model_fields_set
    assert copy.message == "copied"
