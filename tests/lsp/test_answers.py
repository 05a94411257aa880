"""Server answers checked where they enter: the shapes lspd reads, and what is wrong."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from lspd.errors import ServerError
from lspd.lsp import answers
from lspd.lsp.answers import Malformed, check, checked

RANGE = {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 5}}
ITEM = {"name": "f", "kind": 12, "uri": "file:///a.py", "range": RANGE, "selectionRange": RANGE}


@pytest.mark.parametrize(
    ("method", "answer"),
    [
        ("textDocument/hover", None),
        ("textDocument/hover", {"contents": {"kind": "markdown", "value": "x"}}),
        ("textDocument/definition", {"uri": "file:///a.py", "range": RANGE}),
        (
            "textDocument/definition",
            [{"targetUri": "file:///a.py", "targetRange": RANGE, "targetSelectionRange": RANGE}],
        ),
        ("textDocument/references", []),
        (
            "textDocument/documentSymbol",
            [
                {
                    "name": "C",
                    "kind": 5,
                    "range": RANGE,
                    "selectionRange": RANGE,
                    "children": [{"name": "m", "kind": 6, "range": RANGE, "selectionRange": RANGE}],
                }
            ],
        ),
        (
            "textDocument/documentSymbol",
            [{"name": "C", "kind": 5, "location": {"uri": "file:///a.py", "range": RANGE}}],
        ),
        ("workspace/symbol", [{"name": "C", "kind": 5, "location": {"uri": "file:///a.py"}}]),
        ("textDocument/prepareCallHierarchy", [ITEM]),
        ("callHierarchy/incomingCalls", [{"from": ITEM, "fromRanges": [RANGE]}]),
        ("textDocument/diagnostic", {"kind": "full", "items": [{"range": RANGE}]}),
        (
            "textDocument/diagnostic",
            {
                "kind": "full",
                "items": [
                    {"range": RANGE, "severity": 1, "code": 7, "source": "x", "message": "m"},
                    {"range": RANGE, "severity": None, "code": {"value": 1}, "source": None},
                ],
            },
        ),
        ("textDocument/diagnostic", {"kind": "unchanged", "resultId": "1"}),
        ("workspace/executeCommand", {"anything": "goes"}),
    ],
)
def test_well_formed_answers_pass(method: str, answer: Any) -> None:
    check(method, answer)


@pytest.mark.parametrize(
    ("method", "answer", "message"),
    [
        ("textDocument/hover", {"contents": 42}, "result.contents is not markdown"),
        ("textDocument/definition", [{"uri": "a.py", "range": RANGE}], "result[0].uri is 'a.py'"),
        (
            "textDocument/references",
            [{"uri": "file:///a.py", "range": {"start": {"line": -1, "character": 0}}}],
            "result[0].range.start.line is -1",
        ),
        ("textDocument/documentSymbol", {"name": "C"}, "result is not a list"),
        ("workspace/symbol", [{"name": "C", "kind": "class"}], "result[0].kind is 'class'"),
        ("callHierarchy/outgoingCalls", [{"to": ITEM}], "result[0].fromRanges is not a list"),
        (
            "textDocument/diagnostic",
            {"items": [{"range": RANGE, "severity": "error"}]},
            "result.items[0].severity is 'error', not a severity number",
        ),
        (
            "textDocument/diagnostic",
            {"items": [{"range": RANGE, "message": None}]},
            "result.items[0].message is 'None', not text",
        ),
        (
            "textDocument/diagnostic",
            {"items": [{"range": RANGE, "message": "m", "source": 3}]},
            "result.items[0].source is '3', not text",
        ),
        (answers.DIAGNOSTICS, [{"message": "m"}], "result[0].range is not a range"),
    ],
)
def test_malformed_answers_say_where(
    method: answers.Method | str, answer: Any, message: str
) -> None:
    with pytest.raises(Malformed, match=re.escape(message)):
        check(method, answer)


# Every method lspd reads, checked alike whether it is sent as a `Method` or by its name.
METHODS = [
    answers.HOVER,
    answers.DEFINITION,
    answers.TYPE_DEFINITION,
    answers.IMPLEMENTATION,
    answers.REFERENCES,
    answers.DOCUMENT_SYMBOLS,
    answers.WORKSPACE_SYMBOLS,
    answers.PREPARE_CALL_HIERARCHY,
    answers.INCOMING_CALLS,
    answers.OUTGOING_CALLS,
    answers.PULL_DIAGNOSTICS,
]


@pytest.mark.parametrize("method", METHODS, ids=str)
def test_a_method_and_its_name_are_checked_by_the_same_shape(method: answers.Method) -> None:
    with pytest.raises(Malformed) as by_method:
        check(method, 42)
    with pytest.raises(Malformed) as by_name:
        check(method.name, 42)
    assert str(by_method.value) == str(by_name.value)


def test_a_malformed_answer_names_the_server_and_the_methods_name(tmp_path: Path) -> None:
    log = tmp_path / "fake.log"
    with pytest.raises(ServerError) as error:
        checked("fake-ls", answers.HOVER, {"contents": 42}, log)
    assert str(error.value) == (
        "language server fake-ls answered textDocument/hover with a malformed result "
        "(result.contents is not markdown or marked strings); this is the server's fault: "
        f"try again, or see its log {log}"
    )
    answer = {"contents": "x"}
    assert checked("fake-ls", answers.HOVER, answer, log) is answer
