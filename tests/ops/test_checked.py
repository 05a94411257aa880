"""A file's diagnostics are turned into the same JSON text `compact_json` writes, whatever
their messages hold; the whole answer says which files their checker left out (real mypy)."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.ops.budget import compact_json
from lspd.ops.check import check_all
from lspd.ops.checked import Checked, Stamp, stamp, summary
from lspd.ops.models import Diagnostic, DiagnosticsResult
from tests.conftest import answer
from tests.workspace.mypy_env import STRICT, project

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


def _result(path: str, found: list[tuple[int, int, str, str]]) -> DiagnosticsResult:
    diagnostics = [
        Diagnostic(line=line, column=column, end_line=line, end_column=column + 1,
                   severity=severity, message=message)  # type: ignore[arg-type]
        for line, column, severity, message in found
    ]  # fmt: skip
    errors = sum(d.severity == "error" for d in diagnostics)
    return DiagnosticsResult(
        path=path, server="basedpyright", errors=errors, warnings=len(found) - errors,
        diagnostics=diagnostics, total=len(found),
    )  # fmt: skip


def test_the_whole_answer_in_pieces_is_everything_in_order() -> None:
    """`lspd check`'s answer made a file at a time (`json_chunks`, the daemon streams it)
    lists `everything` in its order: every file's errors by path, then the other
    diagnostics, a file's by place, ties as the file has them; `sizes` the same order."""
    results = [
        _result("a.py", [(5, 1, "warning", "w5"), (2, 3, "error", "e2"), (2, 3, "error", "tie")]),
        _result("b.py", [(1, 1, "warning", "i1"), (1, 1, "warning", "h1")]),
        _result("c.py", []),
        _result("d.py", [(9, 9, "error", "e9"), (1, 2, "warning", "w1"), (3, 1, "error", "e3")]),
    ]
    checked = Checked(matched=4, results=results, changes=0)
    order = [(d.path, d.message) for d in checked.everything]
    assert order == [
        ("a.py", "e2"), ("a.py", "tie"), ("d.py", "e3"), ("d.py", "e9"),
        ("a.py", "w5"), ("b.py", "i1"), ("b.py", "h1"), ("d.py", "w1"),
    ]  # fmt: skip
    chunks = list(checked.json_chunks())
    assert len(chunks) == 2 + 5  # the head, end; a.py, d.py errors; a.py, b.py, d.py others
    assert chunks[-1] == "]}"
    answer = json.loads("".join(chunks))
    assert answer == json.loads(compact_json(summary(checked)))
    assert [(d["path"], d["message"]) for d in answer["diagnostics"]] == order
    assert checked.sizes == [len(compact_json(d)) for d in checked.everything]


def test_an_answer_streamed_leaves_a_later_checks_stamps_in_place() -> None:
    """The daemon streams an answer a file at a time while a later check of the workspace
    stamps its own results in the shared `stamped`: the stream packs its own (older)
    results' texts and writes no stamp back over the later check's (that check's next
    answer would make its files' JSON again)."""
    stamped: dict[str, Stamp] = {}
    older = [_result("a.py", [(1, 1, "error", "a")]), _result("b.py", [(1, 1, "error", "b")])]
    checked = Checked(matched=2, results=older, changes=0, stamped=stamped)
    chunks = checked.json_chunks()
    head, first = next(chunks), next(chunks)  # a.py's errors sent
    later = stamp(stamped, _result("b.py", [(2, 1, "error", "new")]), texts=True)
    answer = json.loads(head + first + "".join(chunks))
    assert [d["message"] for d in answer["diagnostics"]] == ["a", "b"]
    assert stamped["b.py"] is later


BESIDE = {"scripts/tool.py": "x: int = ''\n", "scripts/other.py": "y = 1\n"}
LEFT_OUT = (
    "mypy: pyproject.toml [tool.mypy]; this file is outside the files mypy checks: "
    "mypy did not check it"
)


def test_the_files_mypy_leaves_out_are_skipped_saying_why(tmp_path: Path) -> None:
    """Every source file (`all`) of a project whose mypy checks `files = ["app"]`: mypy does
    not check scripts/*.py (its CLI says nothing of tool.py's error), so they are skipped,
    as `diagnostics FILE` says why. Before: 5 files checked, 0 skipped, nothing said."""
    root = project(tmp_path / "p", {**STRICT, **BESIDE})
    result = summary(answer(root, lambda ws: check_all(ws, all=True)))
    assert (result.files_matched, result.files_checked, result.errors) == (5, 3, 3)
    assert [(s.path, s.reason) for s in result.skipped] == [
        ("scripts/other.py", LEFT_OUT),
        ("scripts/tool.py", LEFT_OUT),
    ]
