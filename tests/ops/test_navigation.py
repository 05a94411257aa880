"""Position questions on real servers: basedpyright and typescript-language-server."""

from __future__ import annotations

import pytest

from lspd.errors import InvalidInput
from lspd.ops import navigation, references
from tests.conftest import Warm, warm_workspace


def test_python_hover_shows_the_type(py: Warm) -> None:
    result = py.run(navigation.hover(py.ws, "pkg/app.py", 5, 5))
    assert result.found
    assert "greeter: Greeter" in result.contents
    assert result.path is None  # asked by position: the position is not repeated
    assert result.range is not None  # the name hovered: `greeter`, columns 5-12
    assert result.range.model_dump() == {"line": 5, "column": 5, "end_line": 5, "end_column": 12}


def test_python_definition_across_files(py: Warm) -> None:
    result = py.run(navigation.definition(py.ws, "pkg/app.py", 6, 20))
    [location] = result.locations
    assert (location.path, location.line, location.column) == ("pkg/greeting.py", 18, 9)
    assert location.text.startswith("def greet(")


def test_python_references_across_three_files(py: Warm) -> None:
    result = py.run(references.references(py.ws, "pkg/greeting.py", 12, 7))
    files = {f.path for f in result.files}
    assert {"pkg/app.py", "pkg/extra.py", "pkg/unicode_names.py", "pkg/greeting.py"} <= files
    assert result.total == sum(f.count for f in result.files)
    assert not result.truncated
    every = [r for f in result.files for r in f.references]
    assert all("Greeter" in r.text for r in every)


def test_python_references_without_declaration(py: Warm) -> None:
    with_declaration = py.run(references.references(py.ws, "pkg/greeting.py", 12, 7))
    without = py.run(
        references.references(py.ws, "pkg/greeting.py", 12, 7, include_declaration=False)
    )
    assert without.total == with_declaration.total - 1


def test_python_references_limit_says_truncated(py: Warm) -> None:
    result = py.run(references.references(py.ws, "pkg/greeting.py", 12, 7, limit=2))
    assert result.truncated and result.total > 2 and result.next_offset == 2
    assert sum(len(f.references) for f in result.files) == 2
    assert sum(f.count for f in result.files) == result.total  # counts stay complete
    rest = py.run(references.references(py.ws, "pkg/greeting.py", 12, 7, offset=2, limit=1000))
    paged = [
        (f.path, r.line, r.column)
        for page in (result, rest)
        for f in page.files
        for r in f.references
    ]
    whole = py.run(references.references(py.ws, "pkg/greeting.py", 12, 7))
    assert paged == [(f.path, r.line, r.column) for f in whole.files for r in f.references]


def test_references_name_their_enclosing_symbol(py: Warm) -> None:
    result = py.run(references.references(py.ws, symbol="make_greeter"))
    uses = {(f.path, r.line, r.symbol) for f in result.files for r in f.references}
    assert uses == {
        ("pkg/app.py", 1, None),
        ("pkg/app.py", 5, "main"),
        ("pkg/greeting.py", 28, "make_greeter"),
    }


def test_python_type_definition(py: Warm) -> None:
    result = py.run(navigation.type_definition(py.ws, "pkg/app.py", 5, 5))
    assert [(loc.path, loc.line) for loc in result.locations] == [("pkg/greeting.py", 12)]


def test_python_implementation_of_a_method(py: Warm) -> None:
    result = py.run(navigation.implementation(py.ws, "pkg/greeting.py", 18, 9))
    named = [(loc.path, loc.line, loc.symbol) for loc in result.locations]
    assert ("pkg/greeting.py", 24, "LoudGreeter.greet") in named
    if result.asked is not None:  # the declaration asked about, when the server lists it
        assert named[result.asked][:2] == ("pkg/greeting.py", 18)


def test_columns_count_code_points_after_accents_and_emoji(py: Warm) -> None:
    # line 3: café = "naïve 🎉"; émoji_greeter = Greeter(café) — `Greeter` starts at column 35
    line = (py.root / "pkg/unicode_names.py").read_text().splitlines()[2]
    column = line.index("Greeter(") + 1
    assert column == 35
    hover = py.run(navigation.hover(py.ws, "pkg/unicode_names.py", 3, column + 2))
    assert "class Greeter" in hover.contents
    refs = py.run(references.references(py.ws, "pkg/greeting.py", 12, 7))
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
    result = ts.run(navigation.hover(ts.ws, "src/main.ts", 3, 23))
    assert "add(a: number, b: number): number" in result.contents
    assert result.range is not None  # `add`, columns 23-26
    assert result.range.model_dump() == {"line": 3, "column": 23, "end_line": 3, "end_column": 26}


def test_typescript_definition_across_files(ts: Warm) -> None:
    result = ts.run(navigation.definition(ts.ws, "src/main.ts", 3, 23))
    assert [(loc.path, loc.line) for loc in result.locations] == [("src/shapes.ts", 21)]


def test_typescript_references_across_three_files(ts: Warm) -> None:
    result = ts.run(references.references(ts.ws, "src/shapes.ts", 21, 17))
    assert {f.path for f in result.files} == {"src/main.ts", "src/more.ts", "src/shapes.ts"}


def test_typescript_implementation_of_an_interface(ts: Warm) -> None:
    result = ts.run(navigation.implementation(ts.ws, "src/shapes.ts", 1, 18))
    assert {loc.line for loc in result.locations} == {5, 13}


def test_typescript_type_definition(ts: Warm) -> None:
    result = ts.run(navigation.type_definition(ts.ws, "src/main.ts", 4, 7))
    assert [(loc.path, loc.line) for loc in result.locations] == [("src/shapes.ts", 1)]


def test_call_hierarchy_incoming_and_outgoing(py: Warm) -> None:
    incoming = py.run(references.call_hierarchy(py.ws, "pkg/greeting.py", 28, 5))
    assert (incoming.item.symbol, incoming.item.kind) == ("make_greeter", "function")
    assert [(c.symbol, c.path, c.line) for c in incoming.calls] == [("main", "pkg/app.py", 5)]
    outgoing = py.run(references.call_hierarchy(py.ws, "pkg/app.py", 4, 5, direction="outgoing"))
    assert [(c.symbol, c.line, c.defined) for c in outgoing.calls] == [
        ("make_greeter", 5, "pkg/greeting.py:28"),
        ("Greeter.greet", 6, "pkg/greeting.py:18"),
    ]


def test_call_hierarchy_lists_each_call_site_once_with_methods_named(py: Warm) -> None:
    result = py.run(references.call_hierarchy(py.ws, symbol="Greeter.greet"))
    assert (result.item.symbol, result.item.kind) == ("Greeter.greet", "method")
    assert [(c.symbol, c.kind, c.path, c.line) for c in result.calls] == [
        ("main", "function", "pkg/app.py", 6),
        ("shout", "function", "pkg/app.py", 10),
        ("LoudGreeter.greet", "method", "pkg/greeting.py", 25),
        ("résumé", "function", "pkg/unicode_names.py", 7),
    ]


def test_call_hierarchy_of_a_variable_says_it_is_not_callable(py: Warm) -> None:
    with pytest.raises(InvalidInput) as error:
        py.run(references.call_hierarchy(py.ws, "pkg/app.py", 5, 5))
    assert str(error.value).startswith("`main.greeter` (variable) at pkg/app.py:5:5 is not a ")


@pytest.mark.parametrize(
    ("fixture", "path", "line", "column", "sites"),
    [
        (
            "callbacks_py",
            "pkg/callbacks.py",
            8,
            5,
            [
                (14, "THING", "constant"),
                (20, "outer.inner", "function"),
                (22, "outer", "function"),  # a lambda held by a local
                (26, "HANDLERS", "constant"),
            ],
        ),
        (
            "callbacks_ts",
            "src/callbacks.ts",
            5,
            17,
            [
                (10, "$Thing", "constant"),
                (15, "Box.size", "method"),
                # Not `$Foo.core.$constructor("$Foo") callback.parse`, nor `.issues`.
                (25, "$Foo.parse", "function"),
                (31, "_parse", "constant"),  # not `_parse.<function>.issues.count`
            ],
        ),
    ],
)
def test_callers_and_references_name_the_constant_holding_the_callback(
    tmp_path_factory: pytest.TempPathFactory,
    fixture: str,
    path: str,
    line: int,
    column: int,
    sites: list[tuple[int, str, str]],
) -> None:
    for warm in warm_workspace(fixture, tmp_path_factory):
        calls = warm.run(references.call_hierarchy(warm.ws, path, line, column))
        refs = warm.run(
            references.references(warm.ws, path, line, column, include_declaration=False)
        )
        assert [(c.path, c.line, c.symbol, c.kind) for c in calls.calls] == [
            (path, site, symbol, kind) for site, symbol, kind in sites
        ]
        assert [(r.line, r.symbol) for f in refs.files for r in f.references] == [
            (site, symbol) for site, symbol, _ in sites
        ]
        assert str(warm.root) not in calls.model_dump_json() + refs.model_dump_json()


@pytest.mark.parametrize(
    ("fixture", "path", "added", "at", "shown", "declared"),
    [
        (
            "py",
            "pkg/app.py",
            "\n\nclass Fresh:\n    size: int = 3\n\n\nfresh = Fresh()\n",
            (17, 1),
            "fresh: Fresh",
            "class Fresh",
        ),
        (
            "ts",
            "src/main.ts",
            "\nexport interface Fresh {\n  size: number;\n}\n"
            "export const fresh: Fresh = { size: 3 };\n",
            (15, 14),
            "const fresh: Fresh",
            "interface Fresh",
        ),
    ],
)
def test_questions_about_unsaved_content_leave_the_disk_to_later_answers(
    tmp_path_factory: pytest.TempPathFactory,
    fixture: str,
    path: str,
    added: str,
    at: tuple[int, int],
    shown: str,
    declared: str,
) -> None:
    for warm in warm_workspace(fixture, tmp_path_factory):
        before = (warm.root / path).read_bytes()
        content = before.decode() + added
        line, column = at
        hover = warm.run(navigation.hover(warm.ws, path, line, column, content=content))
        assert shown in hover.contents
        by_name = warm.run(navigation.hover(warm.ws, path, symbol="Fresh", content=content))
        assert declared in by_name.contents
        assert (by_name.path, by_name.line) == (
            path,
            content.count("\n", 0, content.index(declared)) + 1,
        )
        typed = warm.run(navigation.type_definition(warm.ws, path, line, column, content=content))
        assert [(loc.path, loc.line) for loc in typed.locations] == [(path, by_name.line)]
        assert (warm.root / path).read_bytes() == before
        with pytest.raises(InvalidInput) as error:  # the server holds the disk's text again
            warm.run(navigation.hover(warm.ws, path, line, column))
        assert f"line {line}" in str(error.value)


@pytest.mark.parametrize(
    ("fixture", "path", "declared", "uses", "definitions"),
    [
        (
            "overloads_py",
            "pkg/overloads.py",
            (6, 7),
            [
                (12, "Context.invoke"),
                (12, "Context.invoke"),
                (17, "Context.invoke"),  # the last line of a signature over three
                (22, "Context.default"),
                (22, "Context.default"),
                (29, "Reader.read"),
                (35, "parse"),
                (35, "parse"),
                (40, "use"),
                (41, "use"),
            ],
            # basedpyright lists an overloaded function once: not `Context` for the others.
            {
                "Context.invoke": [
                    (12, 9, "Context.invoke"),
                    (15, 9, "Context.invoke"),
                    (19, 9, "Context.invoke"),
                ],
                "parse": [(33, 5, "parse"), (35, 5, "parse"), (36, 5, "parse")],
            },
        ),
        (
            "overloads_ts",
            "src/overloads.ts",
            (2, 18),
            [
                (7, "parse"),
                (7, "parse"),
                (13, "Context.invoke"),
                (13, "Context.invoke"),
                (16, "Context.invoke"),
                (22, "use"),
            ],
            # tsserver lists each overload signature; by name they are the one function, asked
            # at its implementation's name (not at `export`, where it lists every signature).
            {
                (23, 14): [(13, 3, "Context.invoke")],
                (23, 21): [(7, 17, "parse")],
                "parse": [(8, 17, "parse")],
                "Context.invoke": [(17, 3, "Context.invoke")],
            },
        ),
    ],
)
def test_overload_signatures_are_named_after_their_function(
    tmp_path_factory: pytest.TempPathFactory,
    fixture: str,
    path: str,
    declared: tuple[int, int],
    uses: list[tuple[int, str]],
    definitions: dict[str | tuple[int, int], list[tuple[int, int, str]]],
) -> None:
    for warm in warm_workspace(fixture, tmp_path_factory):
        refs = warm.run(references.references(warm.ws, path, *declared, include_declaration=False))
        assert [(r.line, r.symbol) for f in refs.files for r in f.references] == uses
        for at, expected in definitions.items():
            found = warm.run(
                navigation.definition(warm.ws, symbol=at)
                if isinstance(at, str)
                else navigation.definition(warm.ws, path, *at)
            )
            assert [(d.path, d.line, d.column, d.symbol) for d in found.locations] == [
                (path, *at) for at in expected
            ]
