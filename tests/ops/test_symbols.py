"""Symbol trees, workspace search and addressing by name."""

from __future__ import annotations

import pytest

from lspd.errors import InvalidInput
from lspd.ops import navigation, symbols
from tests.conftest import Warm


def test_document_symbols_tree_with_kinds_and_name_paths(py: Warm) -> None:
    result = py.run(symbols.document_symbols(py.ws, "pkg/greeting.py"))
    top = {s.name_path: s for s in result.symbols}
    assert top["Greeter"].kind == "class"
    assert top["make_greeter"].kind == "function"
    methods = {c.name_path: c.kind for c in top["Greeter"].children}
    assert methods["Greeter.greet"] == "method"
    assert (top["Greeter"].line, top["Greeter"].column) == (12, 7)
    assert not result.truncated


def test_document_symbols_depth_and_limit(py: Warm) -> None:
    shallow = py.run(symbols.document_symbols(py.ws, "pkg/greeting.py", depth=1))
    # depth is asked for, so nothing is left out: the top level, complete.
    assert all(not s.children for s in shallow.symbols) and not shallow.truncated
    assert [s.name_path for s in shallow.symbols] == [
        "Speaker",
        "Greeter",
        "LoudGreeter",
        "make_greeter",
    ]
    limited = py.run(symbols.document_symbols(py.ws, "pkg/greeting.py", limit=2))
    assert limited.truncated and limited.total > 2 and limited.next_offset == 2
    [speaker] = limited.symbols
    assert [c.name_path for c in speaker.children] == ["Speaker.speak"]


def test_typescript_document_symbols(ts: Warm) -> None:
    result = ts.run(symbols.document_symbols(ts.ws, "src/shapes.ts"))
    kinds = {s.name_path: s.kind for s in result.symbols}
    assert kinds["Shape"] == "interface" and kinds["Circle"] == "class"
    assert kinds["add"] == "function"


def test_workspace_symbols_with_kind_filter(py: Warm) -> None:
    result = py.run(symbols.workspace_symbols(py.ws, "Greeter", kind="class"))
    # The exact name first, then the longer ones: only classes, never `make_greeter`.
    assert [(s.name_path, s.path, s.line) for s in result.symbols] == [
        ("Greeter", "pkg/greeting.py", 12),
        ("LoudGreeter", "pkg/greeting.py", 23),
    ]
    assert all(s.kind == "class" for s in result.symbols)


def test_workspace_symbols_refuses_an_empty_query(py: Warm) -> None:
    with pytest.raises(InvalidInput, match="query"):
        py.run(symbols.workspace_symbols(py.ws, "  "))


def test_definition_by_name_equals_definition_by_position(py: Warm) -> None:
    by_name = py.run(navigation.definition(py.ws, symbol="Greeter.greet"))
    by_position = py.run(navigation.definition(py.ws, "pkg/app.py", 6, 20))
    assert by_name.locations == by_position.locations


def test_symbol_with_module_path(py: Warm) -> None:
    result = py.run(navigation.hover(py.ws, symbol="pkg.greeting.make_greeter"))
    assert "def make_greeter" in result.contents


def test_ambiguous_symbol_lists_candidates(py: Warm) -> None:
    with pytest.raises(InvalidInput) as error:
        py.run(navigation.definition(py.ws, symbol="greet"))
    assert "Greeter.greet" in str(error.value) and "LoudGreeter.greet" in str(error.value)


def test_unknown_symbol_suggests_close_names(py: Warm) -> None:
    with pytest.raises(InvalidInput, match="Greeter"):
        py.run(navigation.definition(py.ws, symbol="Greeter.gret"))


def test_typescript_symbol_by_name(ts: Warm) -> None:
    result = ts.run(navigation.definition(ts.ws, symbol="Circle.area"))
    assert [(loc.path, loc.line) for loc in result.locations] == [("src/shapes.ts", 8)]


def test_typescript_workspace_symbols_point_at_the_name(ts: Warm) -> None:
    result = ts.run(symbols.workspace_symbols(ts.ws, "Circle", kind="class"))
    [circle] = [s for s in result.symbols if s.name_path == "Circle"]
    assert (circle.path, circle.line, circle.column) == ("src/shapes.ts", 5, 14)
    hover = ts.run(navigation.hover(ts.ws, circle.path, circle.line, circle.column))
    assert "class Circle" in hover.contents
