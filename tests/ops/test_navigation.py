"""Position questions on real servers: basedpyright and typescript-language-server."""

from __future__ import annotations

from lspd import ops
from tests.conftest import Warm


def test_python_hover_shows_the_type(py: Warm) -> None:
    result = py.run(ops.hover(py.ws, "pkg/app.py", 5, 5))
    assert result.found
    assert "greeter: Greeter" in result.contents
    assert result.range is not None and (result.range.line, result.range.column) == (5, 5)


def test_python_definition_across_files(py: Warm) -> None:
    result = py.run(ops.definition(py.ws, "pkg/app.py", 6, 20))
    [location] = result.locations
    assert (location.path, location.line, location.column) == ("pkg/greeting.py", 18, 9)
    assert location.text.startswith("def greet(")


def test_python_references_across_three_files(py: Warm) -> None:
    result = py.run(ops.references(py.ws, "pkg/greeting.py", 12, 7))
    files = {f.path for f in result.files}
    assert {"pkg/app.py", "pkg/extra.py", "pkg/unicode_names.py", "pkg/greeting.py"} <= files
    assert result.total == sum(f.count for f in result.files)
    assert not result.truncated
    every = [r for f in result.files for r in f.references]
    assert all("Greeter" in r.text for r in every)


def test_python_references_without_declaration(py: Warm) -> None:
    with_declaration = py.run(ops.references(py.ws, "pkg/greeting.py", 12, 7))
    without = py.run(ops.references(py.ws, "pkg/greeting.py", 12, 7, include_declaration=False))
    assert without.total == with_declaration.total - 1


def test_python_references_limit_says_truncated(py: Warm) -> None:
    result = py.run(ops.references(py.ws, "pkg/greeting.py", 12, 7, limit=2))
    assert result.truncated and result.total > 2
    assert sum(f.count for f in result.files) == 2


def test_python_type_definition(py: Warm) -> None:
    result = py.run(ops.type_definition(py.ws, "pkg/app.py", 5, 5))
    assert [(loc.path, loc.line) for loc in result.locations] == [("pkg/greeting.py", 12)]


def test_python_implementation_of_a_method(py: Warm) -> None:
    result = py.run(ops.implementation(py.ws, "pkg/greeting.py", 18, 9))
    assert {(loc.path, loc.line) for loc in result.locations} >= {("pkg/greeting.py", 24)}


def test_columns_count_code_points_after_accents_and_emoji(py: Warm) -> None:
    # line 3: café = "naïve 🎉"; émoji_greeter = Greeter(café) — `Greeter` starts at column 35
    line = (py.root / "pkg/unicode_names.py").read_text().splitlines()[2]
    column = line.index("Greeter(") + 1
    assert column == 35
    hover = py.run(ops.hover(py.ws, "pkg/unicode_names.py", 3, column + 2))
    assert "class Greeter" in hover.contents
    assert hover.range is not None and hover.range.column == column
    assert hover.range.end_column == column + len("Greeter")
    refs = py.run(ops.references(py.ws, "pkg/greeting.py", 12, 7))
    [ref] = [
        r
        for f in refs.files
        if f.path == "pkg/unicode_names.py"
        for r in f.references
        if r.line == 3
    ]
    assert ref.column == column


def test_typescript_hover_waits_for_the_project(ts: Warm) -> None:
    # While tsserver loads the project, hover says only `import add`; lspd waits for it.
    result = ts.run(ops.hover(ts.ws, "src/main.ts", 3, 23))
    assert "add(a: number, b: number): number" in result.contents


def test_typescript_definition_across_files(ts: Warm) -> None:
    result = ts.run(ops.definition(ts.ws, "src/main.ts", 3, 23))
    assert [(loc.path, loc.line) for loc in result.locations] == [("src/shapes.ts", 21)]


def test_typescript_references_across_three_files(ts: Warm) -> None:
    result = ts.run(ops.references(ts.ws, "src/shapes.ts", 21, 17))
    assert {f.path for f in result.files} == {"src/main.ts", "src/more.ts", "src/shapes.ts"}


def test_typescript_implementation_of_an_interface(ts: Warm) -> None:
    result = ts.run(ops.implementation(ts.ws, "src/shapes.ts", 1, 18))
    assert {loc.line for loc in result.locations} == {5, 13}


def test_typescript_type_definition(ts: Warm) -> None:
    result = ts.run(ops.type_definition(ts.ws, "src/main.ts", 4, 7))
    assert [(loc.path, loc.line) for loc in result.locations] == [("src/shapes.ts", 1)]


def test_call_hierarchy_incoming_and_outgoing(py: Warm) -> None:
    incoming = py.run(ops.call_hierarchy(py.ws, "pkg/greeting.py", 28, 5))
    assert incoming.item is not None and incoming.item.name == "make_greeter"
    assert [(c.item.name, c.item.path) for c in incoming.calls] == [("main", "pkg/app.py")]
    assert incoming.calls[0].call_sites[0].line == 5
    outgoing = py.run(ops.call_hierarchy(py.ws, "pkg/app.py", 4, 5, direction="outgoing"))
    assert {c.item.name for c in outgoing.calls} >= {"make_greeter", "greet"}
