"""A compared diagnostic becomes an answer only when a comparison lists it: with its file
(its key's), from a kept record or from a result's pathless item, the same answer."""

from __future__ import annotations

from lspd.engine.comparison import Found
from lspd.engine.seen import FileSeen, Seen
from lspd.ops.kept_found import answer_of, found_in, found_of
from lspd.ops.models import Diagnostic, DiagnosticsResult

ITEM = Diagnostic(
    severity="error",
    message='Argument missing for parameter "b"',
    code="reportCallIssue",
    source="basedpyright",
    line=2,
    column=1,
    end_line=2,
    end_column=6,
)
RESULT = DiagnosticsResult(
    path="pkg/a.py", server="basedpyright", errors=1, warnings=0, diagnostics=[ITEM], total=1
)


def test_a_results_item_is_compared_as_it_is_and_answered_with_its_path() -> None:
    found = Found(ITEM, ("pkg/a.py", "error", "reportCallIssue", ITEM.message, "add()"))
    answer = answer_of(found)
    assert answer == ITEM.model_copy(update={"path": "pkg/a.py"})
    assert ITEM.path is None  # the result's own item is not changed


def test_a_kept_record_answers_as_the_result_it_was_kept_from() -> None:
    [found] = found_in(RESULT, "x = 1\nadd()\n")
    assert isinstance(found.diagnostic, Seen)
    assert found.key == ("pkg/a.py", "error", "reportCallIssue", ITEM.message, "add()")
    assert answer_of(found) == ITEM.model_copy(update={"path": "pkg/a.py"})


def test_a_kept_files_errors_come_first_then_by_position() -> None:
    def seen(severity: str, line: int) -> Seen:
        return Seen(severity, None, "m", line, 1, line, 2, "basedpyright", "x")

    kept = FileSeen("b.py", (seen("warning", 1), seen("error", 9), seen("error", 3)))
    said = [(a.severity, a.line, a.path) for a in map(answer_of, found_of(kept))]
    assert said == [("error", 3, "b.py"), ("error", 9, "b.py"), ("warning", 1, "b.py")]
