"""Python on ty (`ty server`) and on pyrefly (`pyrefly lsp`), each chosen in lspd.toml.

The same questions as basedpyright answers in tests/ops, on the same fixture. pyrefly shows
type errors only when asked to: servers.toml answers its configuration request (section
`python`) with `pyrefly.displayTypeErrors = "force-on"`.
"""

from __future__ import annotations

from lspd.ops import navigation, references
from lspd.ops import symbols as symbols_ops
from tests.conftest import Warm
from tests.languages.conftest import error_counts, hover, the_definition, the_problem

# What each server says where its wording differs.
HOVER = {"ty": "Greeter", "pyrefly": "greeter: pkg.greeting.Greeter"}
RETURN_TYPE_CODE = {"ty": "invalid-explicit-return", "pyrefly": "bad-return"}


def server(warm: Warm) -> str:
    return warm.ws.session_for(warm.root / "pkg/app.py").name


def test_hover_shows_the_type(python_alternative: Warm) -> None:
    warm = python_alternative
    contents = hover(warm, "pkg/app.py", 5, 5)  # greeter = make_greeter(...)
    assert HOVER[server(warm)] in contents


def test_definition_across_files(python_alternative: Warm) -> None:
    warm = python_alternative
    location = the_definition(warm, "pkg/app.py", 6, 20)
    assert (location.path, location.line, location.column) == ("pkg/greeting.py", 18, 9)


def test_type_error_is_reported_fresh(python_alternative: Warm) -> None:
    warm = python_alternative
    answered_by, problem = the_problem(warm, "pkg/broken.py")
    assert answered_by == server(warm)
    assert (problem.line, problem.column, problem.severity) == (2, 12, "error")
    assert problem.code == RETURN_TYPE_CODE[answered_by]


def test_error_just_written_then_fixed(python_alternative: Warm) -> None:
    versions = ("x: int = 1\n", 'x: int = "one"\n', "x: int = 2\n")
    assert error_counts(python_alternative, "pkg/edited.py", *versions) == [0, 1, 0]


def test_a_changed_signature_in_an_unopened_file_reaches_the_caller(
    python_alternative: Warm,
) -> None:
    one = "def f(a: int) -> int:\n    return a\n"
    two = "def f(a: int, b: int) -> int:\n    return b\n"
    (python_alternative.root / "pkg/lib.py").write_text(one)
    (python_alternative.root / "pkg/caller.py").write_text("from pkg.lib import f\n\nf(1)\n")
    counts = error_counts(python_alternative, "pkg/lib.py", one, two, one, checked="pkg/caller.py")
    assert counts == [0, 1, 0]


def test_references_and_callers_across_files(python_alternative: Warm) -> None:
    warm = python_alternative
    refs = warm.run(references.references(warm.ws, "pkg/greeting.py", 12, 7))
    files = {f.path for f in refs.files}
    assert {"pkg/app.py", "pkg/extra.py", "pkg/unicode_names.py", "pkg/greeting.py"} <= files
    callers = warm.run(references.call_hierarchy(warm.ws, "pkg/greeting.py", 28, 5))
    assert [(c.symbol, c.path) for c in callers.calls] == [("main", "pkg/app.py")]


def test_symbols_of_a_file_and_a_symbol_by_name(python_alternative: Warm) -> None:
    warm = python_alternative
    symbols = warm.run(symbols_ops.document_symbols(warm.ws, "pkg/greeting.py"))
    assert [(s.name_path, s.kind) for s in symbols.symbols] == [
        ("Speaker", "class"),
        ("Greeter", "class"),
        ("LoudGreeter", "class"),
        ("make_greeter", "function"),
    ]
    result = warm.run(navigation.definition(warm.ws, symbol="Greeter.greet"))
    assert [(loc.path, loc.line) for loc in result.locations] == [("pkg/greeting.py", 18)]
