"""Go on gopls (Debian's, run with GOPROXY=off): a module with a package beside main."""

from __future__ import annotations

from lspd import ops
from tests.conftest import Warm
from tests.languages.conftest import error_counts


def test_hover_shows_signature_and_doc(go: Warm) -> None:
    result = go.run(ops.hover(go.ws, "main.go", 10, 19))  # shapes.Add
    assert "func shapes.Add(a int, b int) int" in result.contents
    assert "Add returns the sum of a and b." in result.contents


def test_definition_in_another_package(go: Warm) -> None:
    result = go.run(ops.definition(go.ws, "main.go", 10, 19))
    [location] = result.locations
    assert (location.path, location.line, location.column) == ("shapes/shapes.go", 22, 6)
    assert location.text == "func Add(a, b int) int {"


def test_type_error_is_reported_fresh(go: Warm) -> None:
    result = go.run(ops.diagnostics(go.ws, "broken.go"))
    assert result.server == "gopls" and result.fresh
    [problem] = result.diagnostics
    assert (problem.line, problem.column, problem.severity) == (4, 9, "error")
    assert "cannot use" in problem.message and "as int value" in problem.message


def test_error_just_written_then_fixed(go: Warm) -> None:
    source = "package main\n\nvar answer int = {}\n"
    versions = (source.format("42"), source.format('"forty-two"'), source.format("43"))
    assert error_counts(go, "edited.go", *versions) == [0, 1, 0]


def test_a_changed_signature_in_an_unopened_package_reaches_the_caller(go: Warm) -> None:
    (go.root / "calc").mkdir()
    caller = 'package main\n\nimport "example.com/fixture/calc"\n\nvar six = calc.Twice(3)\n'
    (go.root / "usecalc.go").write_text(caller)
    callee = "package calc\n\n// Twice doubles a.\nfunc Twice({}) int {{ return 2 * a }}\n"
    versions = (callee.format("a int"), callee.format("a, b int"), callee.format("a int"))
    assert error_counts(go, "calc/calc.go", *versions, checked="usecalc.go") == [0, 1, 0]


def test_references_and_callers_across_packages(go: Warm) -> None:
    references = go.run(ops.references(go.ws, "shapes/shapes.go", 22, 6))
    assert {f.path for f in references.files} == {"main.go", "shapes/shapes.go"}
    callers = go.run(ops.call_hierarchy(go.ws, "shapes/shapes.go", 22, 6))
    assert [(c.symbol, c.path) for c in callers.calls] == [("main", "main.go")]


def test_implementation_of_an_interface(go: Warm) -> None:
    result = go.run(ops.implementation(go.ws, "shapes/shapes.go", 7, 6))  # Shape
    assert [(loc.path, loc.text) for loc in result.locations] == [
        ("shapes/shapes.go", "type Circle struct {")
    ]


def test_symbols_of_a_file_and_a_symbol_by_name(go: Warm) -> None:
    symbols = go.run(ops.document_symbols(go.ws, "main.go"))
    assert [(s.name_path, s.kind) for s in symbols.symbols] == [
        ("main", "function"),
        ("describe", "function"),
    ]
    result = go.run(ops.definition(go.ws, symbol="shapes.Add"))
    assert [(loc.path, loc.line) for loc in result.locations] == [("shapes/shapes.go", 22)]
