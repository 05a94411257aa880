"""Server answers checked where they enter: the shapes lspd reads, and what is wrong."""

from __future__ import annotations

import re
from typing import Any

import pytest

from lspd.lsp.answers import Malformed, check

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
    ],
)
def test_malformed_answers_say_where(method: str, answer: Any, message: str) -> None:
    with pytest.raises(Malformed, match=re.escape(message)):
        check(method, answer)
