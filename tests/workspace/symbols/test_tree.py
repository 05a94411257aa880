"""A file's symbols as a tree of name paths, and what a name path means."""

from __future__ import annotations

import pytest

from lspd.errors import InvalidInput
from lspd.servers.registry import definitions
from lspd.workspace.symbols.tree import (
    Node,
    flatten,
    joined,
    matches_name,
    may_hold,
    module_parts,
    name_parts,
    qualified,
    read_tree,
)
from tests.conftest import Warm


def node(name_path: str, path: str) -> Node:
    return Node(
        name=name_path.rpartition(".")[2],
        kind="method",
        name_path=name_path,
        path=path,
        line=1,
        column=1,
        end_line=1,
    )


def test_name_parts() -> None:
    assert name_parts(" pkg.greeting::Greeter.greet ") == ["pkg", "greeting", "Greeter", "greet"]
    with pytest.raises(InvalidInput, match="`symbol` is empty"):
        name_parts(" . ")
    with pytest.raises(InvalidInput, match="at most 500 characters"):
        name_parts("a" * 501)


def test_a_quoted_name_is_one_segment_compared_without_its_quotes() -> None:
    """TypeScript's modules declared by their string: tsserver lists `"cfg.extra"`."""
    assert name_parts('"cfg.extra".load') == ["cfg.extra", "load"]
    assert name_parts("'virtual:cfg'.x") == name_parts("virtual:cfg.x") == ["virtual:cfg", "x"]
    assert name_parts("cfg.extra") == ["cfg", "extra"]  # (unquoted, as any name path)
    assert joined(["cfg.extra", "load"]) == '"cfg.extra".load'
    module = Node('"cfg.extra"', "module", '"cfg.extra"', "src/env.d.ts", 1, 16, 3)
    member = Node("load", "function", '"cfg.extra".load', "src/env.d.ts", 2, 19, 2)
    assert matches_name(module, ["cfg.extra"])
    assert matches_name(member, ["cfg.extra", "load"]) and matches_name(member, ["load"])
    assert not matches_name(member, ["extra", "load"])


def test_module_parts_and_qualified_names() -> None:
    assert module_parts("pkg/greeting.py") == ["pkg", "greeting"]
    assert module_parts("pkg/__init__.py") == ["pkg"]
    assert module_parts("src/index.ts") == ["src"]
    assert qualified(node("Greeter.greet", "pkg/greeting.py")) == "pkg.greeting.Greeter.greet"


def test_a_name_path_matches_the_end_of_the_qualified_name() -> None:
    greet = node("Greeter.greet", "pkg/greeting.py")
    assert matches_name(greet, ["greet"])
    assert matches_name(greet, ["Greeter", "greet"])
    assert matches_name(greet, ["greeting", "Greeter", "greet"])
    assert not matches_name(greet, ["LoudGreeter", "greet"])
    assert not matches_name(greet, ["Greeter"])


def test_may_hold_drops_only_files_where_no_match_can_end() -> None:
    pattern = definitions()["basedpyright"].container_pattern
    use = "from pkg.greeting import Greeter\nGreeter('x').greet()\n"
    assert not may_hold(["Greeter", "greet"], "pkg/app.py", use, pattern)
    declared = {
        "class Greeter(Base, metaclass=M):",
        "@dataclass\nclass Greeter:",
        "    async def Greeter(self):",
        "def Greeter[T](x: T):",
        "class \\\n  Greeter:",
        "class \ufb01ller:",  # NFKC: `filler`
    }
    for text in declared:
        name = "filler" if "\ufb01" in text else "Greeter"
        assert may_hold([name, "greet"], "pkg/app.py", text, pattern), text
    assert not may_hold(["Greeter", "greet"], "pkg/app.py", "class GreeterBase:", pattern)
    # The path may start with the end of the module path, then a container (or the symbol).
    assert may_hold(["greeting", "make_greeter"], "pkg/greeting.py", use, pattern)
    full = ["pkg", "greeting", "Greeter", "greet"]
    assert not may_hold(full, "pkg/greeting.py", use, pattern)  # no `class Greeter` after it
    assert may_hold(full, "pkg/greeting.py", "class Greeter:", pattern)
    assert not may_hold(full, "pkg/app.py", "class Greeter:", pattern)  # another module
    # One segment, no pattern, or no identifier: nothing is dropped.
    assert may_hold(["greet"], "pkg/app.py", "", pattern)
    assert may_hold(["Greeter", "greet"], "pkg/app.py", "", None)
    assert may_hold(["operator+", "x"], "pkg/app.py", "", pattern)
    # A dotted segment (a module's string, quoted) stands in its file as written.
    ts = definitions()["typescript-language-server"].container_pattern
    text = 'declare module "cfg.extra" {\n  export function load(): void;\n}\n'
    assert may_hold(["cfg.extra", "load"], "src/env.d.ts", text, ts)
    assert may_hold(["cfg.extra"], "src/env.d.ts", text, None)
    assert not may_hold(["cfg.extras"], "src/env.d.ts", text, None)
    assert not may_hold(["Console.data"], "rich/console.py", "class Console:", None)


def test_read_tree_nests_members_with_code_point_columns(py: Warm) -> None:
    async def read(path: str) -> list[Node]:
        session, document = await py.ws.open(path)
        return await read_tree(session, document.path, path, document.lines)

    tree = py.run(read("pkg/greeting.py"))
    assert [n.name_path for n in tree] == ["Speaker", "Greeter", "LoudGreeter", "make_greeter"]
    greet = next(n for n in flatten(tree) if n.name_path == "Greeter.greet")
    assert (greet.kind, greet.line, greet.column, greet.start_line, greet.end_line) == (
        "method",
        18,
        9,
        18,
        20,
    )
    # After `café = "naïve 🎉"; `: the emoji is two UTF-16 units, one column.
    unicode = {n.name_path: (n.line, n.column) for n in py.run(read("pkg/unicode_names.py"))}
    assert unicode["émoji_greeter"] == (3, 19)  # UTF-16 would say 20
    assert unicode["résumé"] == (6, 5)
