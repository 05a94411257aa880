"""The symbol a location stands for, and a symbol of a file's tree named by its name path,
on trees as servers give them (no server needed)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.workspace.symbols import naming
from lspd.workspace.symbols.naming import Namer, cited_path, member_of, statement_end, symbol_at
from lspd.workspace.symbols.tree import Node

SOURCE = """\
class Greeter:
    def greet(self, name):
        def shout():
            return name.upper()
        return shout()

HANDLER = make(
    lambda event: event.name,
)
""".splitlines()


def _node(name: str, kind: str, path: str, line: int, end: int, *children: Node) -> Node:
    column = len(SOURCE[line - 1]) - len(SOURCE[line - 1].lstrip()) + 1
    if kind in ("class", "method", "function"):
        column += len(SOURCE[line - 1].lstrip().split()[0]) + 1  # past `class ` / `def `
    return Node(name, kind, path, "greet.py", line, column, end, line, None, list(children))


TREE = [
    _node(
        "Greeter",
        "class",
        "Greeter",
        1,
        5,
        _node(
            "greet",
            "method",
            "Greeter.greet",
            2,
            5,
            _node("shout", "function", "Greeter.greet.shout", 3, 4),
            _node("name", "variable", "Greeter.greet.name", 2, 2),
        ),
    ),
    # As servers give an assignment: its first line only.
    _node("HANDLER", "variable", "HANDLER", 7, 7, _node("<lambda>", "function", "<lambda>", 8, 8)),
]


def test_a_name_position_is_its_symbol() -> None:
    node = symbol_at(TREE, 2, 9, SOURCE)
    assert node is not None and node.name_path == "Greeter.greet"


def test_a_line_inside_a_body_is_the_innermost_named_declaration_around_it() -> None:
    inner = symbol_at(TREE, 4, 13, SOURCE)
    outer = symbol_at(TREE, 5, 9, SOURCE)
    assert (inner and inner.name_path, outer and outer.name_path) == (
        "Greeter.greet.shout",
        "Greeter.greet",
    )


def test_an_anonymous_callback_is_named_after_the_variable_holding_it() -> None:
    node = symbol_at(TREE, 8, 20, SOURCE)
    assert node is not None and node.name_path == "HANDLER"


def test_nothing_around_a_blank_top_level_line() -> None:
    assert symbol_at(TREE, 6, 1, SOURCE) is None


def test_a_statement_ends_where_its_brackets_close() -> None:
    assert [statement_end(SOURCE, 7), statement_end(SOURCE, 1)] == [9, 1]
    assert statement_end(["x = 1 + \\", "    2", "y = 3"], 1) == 2


def test_a_member_is_found_by_its_name_path_else_the_closest_names_are_offered() -> None:
    assert member_of(TREE, "Greeter.greet", "greet.py").name_path == "Greeter.greet"
    with pytest.raises(InvalidInput) as refused:
        member_of(TREE, "Greeter.gret", "greet.py")
    assert str(refused.value) == (
        "greet.py has no symbol `Greeter.gret`. Did you mean `Greeter.greet`, "
        "`Greeter.greet.name`, `Greeter.greet.shout`? Leave out `symbol` for the file's tree"
    )


FACTORY = """\
export const $Foo = make("$Foo", function init(inst) {
  inst.parse = (payload) => {
    return { issues: check(payload) };
  };
});
""".splitlines()


def test_a_use_is_cited_by_the_declarations_a_reader_names_not_callbacks_or_arguments() -> None:
    def node(name: str, kind: str, line: int, column: int, end: int, *children: Node) -> Node:
        return Node(name, kind, name, "f.ts", line, column, end, line, None, list(children))

    issues = node("issues", "property", 3, 14, 3)
    parse = node("parse", "function", 2, 8, 4, issues)
    init = node("init", "function", 1, 43, 5, parse)  # a function written as an argument
    tree = [node("$Foo", "constant", 1, 14, 5, init)]
    parse.name_path = "$Foo.init.parse"
    use = symbol_at(tree, 3, 24, FACTORY)
    assert use is parse  # `issues` is a property of a value inside the function's body
    assert cited_path(tree, parse, FACTORY) == "$Foo.parse"
    assert cited_path(tree, tree[0], FACTORY) == "$Foo"


OVERLOADS = """\
class Context:
    @overload
    def invoke(self, callback: int) -> int: ...

    @overload
    def invoke(
        self, callback: str
    ) -> str: ...
    # a comment before it
    def invoke(self, callback):
        return callback

@overload
def parse(value: int) -> int: ...
@overload
def parse(value: str) -> str: ...
print(parse(1))
""".splitlines()


def test_an_overload_basedpyright_leaves_out_is_named_after_its_function() -> None:
    def node(name: str, kind: str, path: str, line: int, end: int, *children: Node) -> Node:
        column = OVERLOADS[line - 1].index(name) + 1
        return Node(name, kind, path, "core.py", line, column, end, line, None, list(children))

    # As basedpyright gives them: the implementation (else the last overload) only.
    invoke = node("invoke", "method", "Context.invoke", 10, 11)
    parse = node("parse", "function", "parse", 16, 16)
    tree = [node("Context", "class", "Context", 1, 11, invoke), parse]
    expected = {
        (2, 6): "Context.invoke",  # the decorator
        (3, 9): "Context.invoke",  # the name, where `definition` points
        (6, 9): "Context.invoke",
        (7, 24): "Context.invoke",  # inside a signature over three lines
        (8, 10): "Context.invoke",
        (9, 7): "Context",  # a comment between them is no overload's
        (13, 2): "parse",
        (14, 5): "parse",
        (16, 5): "parse",  # the last overload, listed
        (17, 7): None,  # a top-level statement after them
        (17, 1): None,
    }
    named = {at: symbol_at(tree, *at, OVERLOADS) for at in expected}
    assert {at: found and found.name_path for at, found in named.items()} == expected


class _OneFile:
    """What a `Namer` reads of a workspace holding one open document: greet.py."""

    def __init__(self, tree: list[Node]) -> None:
        self.root = Path("/w")
        self.held = Document(
            Path("/w/greet.py"), "file:///w/greet.py", "python", 1, "\n".join(SOURCE)
        )
        self.trees = tree

    @property
    def symbols(self) -> _OneFile:
        return self

    async def tree(self, path: Path) -> list[Node]:
        return self.trees

    def document(self, path: Path) -> Document | None:
        return self.held if path == self.held.path else None


def test_an_open_documents_names_are_given_once_per_text_and_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looked: list[tuple[int, int]] = []

    def looking(tree: list[Node], line: int, column: int, *rest: Any) -> Node | None:
        looked.append((line, column))
        return symbol_at(tree, line, column, *rest)

    monkeypatch.setattr(naming, "symbol_at", looking)
    files = _OneFile(TREE)
    places = [(3, 13), (4, 20), (8, 5), (6, 1)]

    def names() -> list[str | None]:
        namer = Namer(files)  # one per answer
        return [asyncio.run(namer.name("greet.py", *at)) for at in places]

    first = names()
    assert first == ["Greeter.greet.shout", "Greeter.greet.shout", "HANDLER", None]
    assert (names(), looked) == (first, places)  # the second answer's names: kept
    files.held.replace("\n".join(SOURCE))  # the same text sent again: new lines, named anew
    assert (names(), looked) == (first, places * 2)
    files.trees = [TREE[0]]  # another tree of the same text: named from it
    assert names() == ["Greeter.greet.shout", "Greeter.greet.shout", None, None]
    assert looked == places * 3
