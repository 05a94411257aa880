"""C and C++ on clangd, configured by the fixture's compile_flags.txt.

clangd runs without its background index (which would write `.cache/clangd` into the
workspace), so it knows the files it has open and the headers they include.
"""

from __future__ import annotations

from lspd.ops import navigation, references
from lspd.ops import symbols as symbols_ops
from tests.conftest import Warm
from tests.languages.conftest import error_counts, hover, the_definition, the_problem


def test_hover_shows_signature_and_comment(c: Warm) -> None:
    contents = hover(c, "main.c", 6, 18)  # add(1, 2)
    assert "int add(int a, int b)" in contents
    assert "The sum of a and b." in contents


def test_definition_in_the_header(c: Warm) -> None:
    location = the_definition(c, "main.c", 6, 18)
    assert (location.path, location.line, location.column) == ("shapes.h", 10, 5)


def test_type_definition_of_a_struct_variable(c: Warm) -> None:
    result = c.run(navigation.type_definition(c.ws, "main.c", 7, 19))  # shape
    assert [(loc.path, loc.text) for loc in result.locations] == [("shapes.h", "struct circle {")]


def test_type_error_is_reported_fresh(c: Warm) -> None:
    server, problem = the_problem(c, "broken.c")
    assert server == "clangd"
    assert (problem.line, problem.column, problem.severity) == (5, 16, "error")
    assert "incompatible type 'int'" in problem.message


def test_error_just_written_then_fixed(c: Warm) -> None:
    source = "struct point {{ int x; }};\nint answer(struct point p) {{ return {}; }}\n"
    versions = (source.format("p.x"), source.format("p"), source.format("p.x + 1"))
    assert error_counts(c, "edited.c", *versions) == [0, 1, 0]


def test_outgoing_calls_reach_the_header(c: Warm) -> None:
    # Without an index clangd knows the declarations main.c includes, not shapes.c.
    result = c.run(references.call_hierarchy(c.ws, "main.c", 5, 5, direction="outgoing"))  # main
    callees = {(call.symbol, call.defined) for call in result.calls}
    assert {("add", "shapes.h:10"), ("circle_area", "shapes.h:12")} <= callees


def test_cpp_method_hover_and_definition(c: Warm) -> None:
    hover = c.run(navigation.hover(c.ws, "app.cpp", 5, 20))  # greeter.greet(3)
    assert "int greet(int times) const" in hover.contents
    definition = c.run(navigation.definition(c.ws, "app.cpp", 5, 20))
    assert [(loc.path, loc.line) for loc in definition.locations] == [("greeter.hpp", 9)]


def test_symbols_of_a_file_and_a_symbol_by_name(c: Warm) -> None:
    symbols = c.run(symbols_ops.document_symbols(c.ws, "shapes.c"))
    assert [(s.name_path, s.kind) for s in symbols.symbols] == [
        ("add", "function"),
        ("circle_area", "function"),
    ]
    hover = c.run(navigation.hover(c.ws, symbol="circle_area"))
    assert "double circle_area(const struct circle *c)" in hover.contents
