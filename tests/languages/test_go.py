"""Go on gopls (Debian's, run with GOPROXY=off): a module with a package beside main, and a Go
workspace (go.work) of two modules served by one gopls."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops import file_diagnostics, navigation, references, state
from lspd.ops import symbols as symbols_ops
from lspd.workspace import Workspace
from tests.conftest import Warm, copy_fixture
from tests.languages.conftest import error_counts, hover, the_definition, the_problem, watched


def test_hover_shows_signature_and_doc(go: Warm) -> None:
    contents = hover(go, "main.go", 10, 19)  # shapes.Add
    assert "func shapes.Add(a int, b int) int" in contents
    assert "Add returns the sum of a and b." in contents


def test_definition_in_another_package(go: Warm) -> None:
    location = the_definition(go, "main.go", 10, 19)
    assert (location.path, location.line, location.column) == ("shapes/shapes.go", 22, 6)
    assert location.text == "func Add(a, b int) int {"


def test_type_error_is_reported_fresh(go: Warm) -> None:
    server, problem = the_problem(go, "broken.go")
    assert server == "gopls"
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
    refs = go.run(references.references(go.ws, "shapes/shapes.go", 22, 6))
    assert {f.path for f in refs.files} == {"main.go", "shapes/shapes.go"}
    callers = go.run(references.call_hierarchy(go.ws, "shapes/shapes.go", 22, 6))
    assert [(c.symbol, c.path) for c in callers.calls] == [("main", "main.go")]


def test_implementation_of_an_interface(go: Warm) -> None:
    result = go.run(navigation.implementation(go.ws, "shapes/shapes.go", 7, 6))  # Shape
    assert [(loc.path, loc.text) for loc in result.locations] == [
        ("shapes/shapes.go", "type Circle struct {")
    ]


def test_symbols_of_a_file_and_a_symbol_by_name(go: Warm) -> None:
    symbols = go.run(symbols_ops.document_symbols(go.ws, "main.go"))
    assert [(s.name_path, s.kind) for s in symbols.symbols] == [
        ("main", "function"),
        ("describe", "function"),
    ]
    result = go.run(navigation.definition(go.ws, symbol="shapes.Add"))
    assert [(loc.path, loc.line) for loc in result.locations] == [("shapes/shapes.go", 22)]


# -- a Go workspace (go.work): modules mod/a and mod/b, b importing a through `use` ----------


@pytest.fixture(scope="module")
def gowork(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The go.work fixture: one gopls serves both modules, each as a workspace folder."""
    yield from watched("gowork", tmp_path_factory)


SHOUT_CALL = ("mod/b/main.go", 10, 16)  # `Shout` in b's `a.Shout("hello", 2)`


def _gopls_processes(root: Path) -> list[int]:
    """The gopls processes this test process started in `root` (or below it)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as handle:
                name, rest = handle.read().split(") ", 1)
            cwd = Path(os.readlink(f"/proc/{entry}/cwd"))
        except (OSError, ValueError):
            continue
        mine = name.endswith("(gopls") and int(rest.split()[1]) == os.getpid()
        if mine and (cwd == root or root in cwd.parents):
            found.append(int(entry))
    return found


def test_one_gopls_serves_every_module_of_the_workspace(gowork: Warm) -> None:
    gowork.run(navigation.hover(gowork.ws, *SHOUT_CALL))
    gowork.run(navigation.hover(gowork.ws, "mod/a/shout.go", 7, 6))
    [gopls] = [s for s in state.status(gowork.ws).servers if s.server == "gopls"]
    assert sorted(gopls.projects) == ["mod/a", "mod/b"]  # a workspace folder per module
    assert _gopls_processes(gowork.root) == [gopls.pid]


def test_hover_and_definition_cross_into_the_other_module(gowork: Warm) -> None:
    hover = gowork.run(navigation.hover(gowork.ws, *SHOUT_CALL))
    assert "func a.Shout(s string, n int) string" in hover.contents
    assert "Shout returns s in capitals" in hover.contents
    definition = gowork.run(navigation.definition(gowork.ws, *SHOUT_CALL))
    assert [(loc.path, loc.line, loc.column, loc.text) for loc in definition.locations] == [
        ("mod/a/shout.go", 7, 6, "func Shout(s string, n int) string {")
    ]


def test_references_in_one_module_find_the_callers_in_the_other(gowork: Warm) -> None:
    refs = gowork.run(references.references(gowork.ws, "mod/a/shout.go", 7, 6))
    assert [(f.path, [(r.line, r.symbol) for r in f.references]) for f in refs.files] == [
        ("mod/a/shout.go", [(7, "Shout")]),
        ("mod/b/main.go", [(10, "main")]),
    ]


def test_type_errors_are_reported_in_each_module(gowork: Warm) -> None:
    broken = gowork.run(file_diagnostics.diagnostics(gowork.ws, "mod/b/broken.go"))
    assert [(d.line, d.column, d.message) for d in broken.diagnostics] == [
        (3, 17, 'cannot use "three" (untyped string constant) as int value in variable declaration')
    ]
    source = "package a\n\nvar Count int = {}\n"
    assert error_counts(gowork, "mod/a/count.go", source.format('"three"'), source.format(3)) == [
        1,
        0,
    ]


def test_a_changed_signature_in_module_a_reaches_module_bs_caller(gowork: Warm) -> None:
    caller = 'package main\n\nimport "example.com/a"\n\nvar six = a.Twice(3)\n'
    (gowork.root / "mod/b/usetwice.go").write_text(caller)
    callee = "package a\n\n// Twice doubles n.\nfunc Twice({}) int {{ return 2 * n }}\n"
    versions = (callee.format("n int"), callee.format("n, m int"), callee.format("n int"))
    counts = error_counts(gowork, "mod/a/twice.go", *versions, checked="mod/b/usetwice.go")
    assert counts == [0, 1, 0]


def test_it_is_the_go_work_that_joins_the_modules(tmp_path: Path) -> None:
    root = copy_fixture("gowork", tmp_path)
    (root / "go.work").unlink()  # b now requires example.com/a from nowhere (GOPROXY=off)
    ws = Workspace(root, log_dir=tmp_path / "logs")

    async def check() -> list[str]:
        try:
            return [
                d.message
                for d in (await file_diagnostics.diagnostics(ws, "mod/b/main.go")).diagnostics
            ]
        finally:
            await ws.close()

    assert asyncio.run(check()) == [
        'could not import example.com/a (no required module provides package "example.com/a")'
    ]


def test_a_change_to_an_open_file_reaches_the_callers_in_the_other_module(gowork: Warm) -> None:
    """gopls publishes a dependent's new diagnostics without a version after a file it holds
    open changed on disk: they answer for the dependent's current text all the same."""
    caller = 'package main\n\nimport "example.com/a"\n\nvar nine = a.Thrice(3)\n'
    (gowork.root / "mod/b/usethrice.go").write_text(caller)
    callee = "package a\n\n// Thrice triples n.\nfunc Thrice({}) int {{ return 3 * n }}\n"
    counts = []
    for params in ("n int", "n, m int") * 6:
        (gowork.root / "mod/a/thrice.go").write_text(callee.format(params))
        # The caller first: its list from before the write must not answer.
        both = [
            file_diagnostics.diagnostics(gowork.ws, p)
            for p in ("mod/b/usethrice.go", "mod/a/thrice.go")
        ]
        counts.append([gowork.run(d).errors for d in both])
    assert counts == [[0, 0], [1, 0]] * 6
