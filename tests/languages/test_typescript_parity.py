"""The TypeScript fixture answered by its own TypeScript 5 (tsserver) and, in a copy, by its
own TypeScript 7 (`tsc --lsp`): every navigation question gets the same answer from both."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lspd.ops import file_diagnostics, symbols
from lspd.ops import navigation as navigation_ops
from lspd.ops import references as references_ops
from lspd.workspace.toolchain import package_version
from tests.conftest import Warm, warm_workspace
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_package

SERVERS = {TS_PINNED: "typescript-language-server", TS7_PINNED: "typescript-native"}


@pytest.fixture(scope="module", params=[TS_PINNED, TS7_PINNED])
def ts_own(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Warm]:
    """A copy of the TypeScript fixture whose node_modules/typescript is the pinned version."""
    package = typescript_package(request.param)
    for warm in warm_workspace("ts", tmp_path_factory):
        (warm.root / "node_modules").mkdir()
        (warm.root / "node_modules" / "typescript").symlink_to(package)
        yield warm


def test_its_own_typescript_answers(ts_own: Warm) -> None:
    version = package_version(ts_own.root / "node_modules" / "typescript")
    assert version in SERVERS
    result = ts_own.run(file_diagnostics.diagnostics(ts_own.ws, "src/broken.ts"))
    assert (result.server, result.toolchain) == (SERVERS[version], f"typescript {version}, project")
    assert [(d.line, d.column, d.code, d.severity) for d in result.diagnostics] == [
        (1, 14, "2322", "error")
    ]


def test_hover(ts_own: Warm) -> None:
    result = ts_own.run(navigation_ops.hover(ts_own.ws, "src/main.ts", 3, 23))
    assert "add(a: number, b: number): number" in result.contents
    by_name = ts_own.run(navigation_ops.hover(ts_own.ws, symbol="Circle.area"))
    assert "(method) Circle.area(): number" in by_name.contents


def test_definition_and_type_definition(ts_own: Warm) -> None:
    definition = ts_own.run(navigation_ops.definition(ts_own.ws, "src/main.ts", 3, 23))
    assert [(x.path, x.line, x.column) for x in definition.locations] == [("src/shapes.ts", 21, 17)]
    typed = ts_own.run(navigation_ops.type_definition(ts_own.ws, "src/main.ts", 4, 7))
    assert [(x.path, x.line, x.column) for x in typed.locations] == [("src/shapes.ts", 1, 18)]


def test_implementation(ts_own: Warm) -> None:
    result = ts_own.run(navigation_ops.implementation(ts_own.ws, "src/shapes.ts", 1, 18))
    assert [(x.path, x.line, x.column, x.symbol) for x in result.locations] == [
        ("src/shapes.ts", 5, 14, "Circle"),
        ("src/shapes.ts", 13, 14, "Square"),
    ]


def test_references(ts_own: Warm) -> None:
    result = ts_own.run(references_ops.references(ts_own.ws, "src/shapes.ts", 21, 17))
    assert result.total == 5
    assert [(f.path, [(r.line, r.column) for r in f.references]) for f in result.files] == [
        ("src/main.ts", [(1, 10), (3, 23)]),
        ("src/more.ts", [(1, 10), (3, 24)]),
        ("src/shapes.ts", [(21, 17)]),
    ]


def test_call_hierarchy(ts_own: Warm) -> None:
    incoming = ts_own.run(references_ops.call_hierarchy(ts_own.ws, "src/shapes.ts", 21, 17))
    assert (incoming.item.symbol, incoming.item.kind) == ("add", "function")
    # Named by the constant whose initializer holds the call (issue 30), by both; its kind
    # as each server names a `const`: tsserver "constant", TypeScript 7 "variable".
    version = package_version(ts_own.root / "node_modules" / "typescript")
    kind = "constant" if version == TS_PINNED else "variable"
    assert [(c.symbol, c.kind, c.path, c.line, c.column) for c in incoming.calls] == [
        ("total", kind, "src/main.ts", 3, 23),
        ("doubled", kind, "src/more.ts", 3, 24),
    ]
    outgoing = ts_own.run(
        references_ops.call_hierarchy(ts_own.ws, "src/main.ts", 6, 17, direction="outgoing")
    )
    assert [(c.symbol, c.kind, c.line, c.defined) for c in outgoing.calls] == [
        ("Shape.area", "method", 7, "src/shapes.ts:2")
    ]


def test_document_symbols_in_file_order(ts_own: Warm) -> None:
    result = ts_own.run(symbols.document_symbols(ts_own.ws, "src/shapes.ts"))
    assert [(s.name_path, s.kind, s.line) for s in result.symbols] == [
        ("Shape", "interface", 1),
        ("Circle", "class", 5),
        ("Square", "class", 13),
        ("add", "function", 21),
    ]  # tsserver lists them by name, TypeScript 7 as written: lspd as written
    circle = result.symbols[1]
    assert [c.name_path for c in circle.children] == [
        "Circle.constructor",
        "Circle.radius",
        "Circle.area",
    ]


def test_workspace_symbols(ts_own: Warm) -> None:
    result = ts_own.run(symbols.workspace_symbols(ts_own.ws, "Circle"))
    assert [(s.name_path, s.kind, s.path, s.line, s.column) for s in result.symbols] == [
        ("Circle", "class", "src/shapes.ts", 5, 14)
    ]


def test_every_answer_about_a_file_says_which_typescript_answered(ts_own: Warm) -> None:
    version = package_version(ts_own.root / "node_modules" / "typescript")
    said = f"typescript {version}, project"
    ws, at = ts_own.ws, ("src/main.ts", 3, 23)
    answers = [
        ts_own.run(navigation_ops.hover(ws, *at)),
        ts_own.run(navigation_ops.hover(ws, symbol="Circle.area")),
        ts_own.run(navigation_ops.definition(ws, *at)),
        ts_own.run(navigation_ops.type_definition(ws, "src/main.ts", 4, 7)),
        ts_own.run(navigation_ops.implementation(ws, "src/shapes.ts", 1, 18)),
        ts_own.run(references_ops.references(ws, "src/shapes.ts", 21, 17)),
        ts_own.run(references_ops.call_hierarchy(ws, "src/shapes.ts", 21, 17)),
        ts_own.run(symbols.document_symbols(ws, "src/shapes.ts")),
    ]
    assert [answer.toolchain for answer in answers] == [said] * len(answers)
