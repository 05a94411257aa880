"""TypeScript on TypeScript 7 native (`tsc --lsp --stdio`), chosen in lspd.toml.

It offers diagnostics only by pull, so freshness needs no wait for a push; it lives in its
own npm prefix because typescript-language-server needs typescript 5.
"""

from __future__ import annotations

from lspd.ops import file_diagnostics, navigation
from lspd.ops import symbols as symbols_ops
from tests.conftest import Warm
from tests.languages.conftest import error_counts, hover, the_definition, the_problem


def test_the_workspace_uses_the_chosen_server(ts_native: Warm) -> None:
    result = ts_native.run(file_diagnostics.diagnostics(ts_native.ws, "src/main.ts"))
    assert result.server == "typescript-native" and result.fresh and result.errors == 0


def test_hover_shows_the_signature(ts_native: Warm) -> None:
    contents = hover(ts_native, "src/main.ts", 3, 23)
    assert "function add(a: number, b: number): number" in contents


def test_definition_across_files(ts_native: Warm) -> None:
    location = the_definition(ts_native, "src/main.ts", 3, 23)
    assert (location.path, location.line) == ("src/shapes.ts", 21)


def test_type_error_is_reported_fresh(ts_native: Warm) -> None:
    _, problem = the_problem(ts_native, "src/broken.ts")
    assert (problem.line, problem.column, problem.code) == (1, 14, "2322")
    assert "not assignable to type 'number'" in problem.message


def test_a_changed_signature_in_an_unopened_file_reaches_the_caller(ts_native: Warm) -> None:
    (ts_native.root / "src/caller.ts").write_text('import { f } from "./lib";\n\nf(1);\n')
    callee = "export function f({}): number {{ return a; }}\n"
    versions = (callee.format("a: number"), callee.format("a: number, b: number"))
    counts = error_counts(ts_native, "src/lib.ts", *versions, versions[0], checked="src/caller.ts")
    assert counts == [0, 1, 0]


def test_implementation_of_an_interface(ts_native: Warm) -> None:
    result = ts_native.run(navigation.implementation(ts_native.ws, "src/shapes.ts", 1, 18))
    assert {loc.line for loc in result.locations} == {5, 13}


def test_stops_cleanly_and_starts_again(ts_native: Warm) -> None:
    # It refuses a `shutdown` carrying `"params": null` and exits 1 after `exit`: neither
    # may count as a crash.
    session = ts_native.ws.session_for(ts_native.root / "src/main.ts")
    assert session.name == "typescript-native"
    ts_native.run(session.stop())
    assert session.state == "stopped" and session.pid is None
    result = ts_native.run(navigation.hover(ts_native.ws, "src/main.ts", 3, 23))
    assert "function add" in result.contents and session.state == "ready"


def test_symbols_of_a_file_and_a_symbol_by_name(ts_native: Warm) -> None:
    symbols = ts_native.run(symbols_ops.document_symbols(ts_native.ws, "src/shapes.ts"))
    assert [s.name_path for s in symbols.symbols] == ["Shape", "Circle", "Square", "add"]
    hover = ts_native.run(navigation.hover(ts_native.ws, symbol="Circle.area"))
    assert "Circle.area(): number" in hover.contents
