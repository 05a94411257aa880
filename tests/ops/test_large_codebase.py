"""Navigation by name and answer sizes on a large real code base: `rich`, downloaded from PyPI.

The fixture downloads a pinned wheel of a pure-Python library (78 modules, ~27,000 lines) and
unpacks it into a temp dir; basedpyright serves it for the whole module.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import zipfile
from collections import Counter
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from lspd.errors import InvalidInput
from lspd.ops import navigation, references
from lspd.ops import symbols as symbols_ops
from lspd.ops.budget import size
from lspd.ops.navigation_models import Symbol
from lspd.ops.resolve import AmbiguousSymbol
from lspd.workspace import Workspace
from lspd.workspace.symbols.tree import flatten
from tests.conftest import Warm

RICH = "rich==13.9.4"
LIMIT = 20_000  # spec §3: the default answer of every tool stays under this
# Modules whose full symbol tree (with locals, as basedpyright lists them) fits the default
# answer, so methods are listed too.
MODULES = [
    "rich/color.py",
    "rich/control.py",
    "rich/measure.py",
    "rich/markup.py",
    "rich/cells.py",
    "rich/theme.py",
    "rich/live.py",
]
PER_MODULE = 4
CALLABLE = {"class", "function", "method"}


@pytest.fixture(scope="module")
def rich(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    base = tmp_path_factory.mktemp("rich")
    wheels = base / "wheels"
    download = subprocess.run(
        [
            *(sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"),
            *("--disable-pip-version-check", "--quiet", "-d", str(wheels), RICH),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if download.returncode != 0:
        pytest.skip(f"cannot download {RICH} from the package index: {download.stderr[-500:]}")
    root = base / "tree"
    with zipfile.ZipFile(next(wheels.glob("rich-*.whl"))) as wheel:
        wheel.extractall(root)
    runner = asyncio.Runner()
    warm = Warm(Workspace(root.resolve(), log_dir=base / "logs"), runner)
    try:
        yield warm
    finally:
        runner.run(warm.ws.close())
        runner.close()


def _size(model: BaseModel) -> int:
    return size(model)  # as an agent reads it: compact JSON without defaults


def _picks(rich: Warm) -> list[tuple[str, str, Symbol]]:
    """(qualified name path, file, symbol): the first public callables of each module."""
    picks: list[tuple[str, str, Symbol]] = []
    for module in MODULES:
        result = rich.run(symbols_ops.document_symbols(rich.ws, module))
        assert not result.truncated, f"{module} no longer fits; pick another module"
        symbols = flatten(result.symbols)
        counts = Counter(s.name_path for s in symbols)
        prefix = module.removesuffix(".py").replace("/", ".")
        chosen = [
            s
            for s in symbols
            if s.kind in CALLABLE
            and not s.name_path.rpartition(".")[2].startswith("_")
            and counts[s.name_path] == 1
        ]
        picks += [(f"{prefix}.{s.name_path}", module, s) for s in chosen[:PER_MODULE]]
    return picks


def test_definition_by_name_equals_definition_by_position(rich: Warm) -> None:
    picks = _picks(rich)
    kinds = Counter(s.kind for _, _, s in picks)
    assert kinds["class"] and kinds["method"] and kinds["function"], kinds
    equal = 0
    for name, path, symbol in picks:
        by_position = rich.run(navigation.definition(rich.ws, path, symbol.line, symbol.column))
        assert by_position.locations, f"no definition at {path}:{symbol.line}"
        try:
            by_name = rich.run(navigation.definition(rich.ws, symbol=name))
        except AmbiguousSymbol as error:  # e.g. an overload: the candidates, not a guess
            assert error.candidates and path in str(error), str(error)
            continue
        assert by_name == by_position, name
        equal += 1
    assert equal >= 20, f"only {equal} of {len(picks)} names resolved uniquely"


def test_bare_method_name_lists_its_candidates(rich: Warm) -> None:
    with pytest.raises(AmbiguousSymbol) as error:
        rich.run(navigation.definition(rich.ws, symbol="__rich_measure__"))
    names = {c.name_path for c in error.value.candidates}
    assert "rich.panel.Panel.__rich_measure__" in names
    assert all(c.kind == "method" for c in error.value.candidates)


def test_references_of_a_common_class_are_paged_with_complete_counts(rich: Warm) -> None:
    for name in ("rich.console.Console", "rich.text.Text", "rich.style.Style"):
        result = rich.run(references.references(rich.ws, symbol=name))
        assert _size(result) < LIMIT, (name, _size(result))
        assert result.total > 200 and result.truncated, (name, result.total)
        shown = sum(len(f.references) for f in result.files)
        assert result.next_offset == shown
        assert sum(f.count for f in result.files) == result.total  # counts stay complete


def test_document_symbols_of_the_largest_module_keep_their_depth(rich: Warm) -> None:
    # Largest in definitions (console.py), not in bytes (the emoji table is one dict literal).
    result = rich.run(symbols_ops.document_symbols(rich.ws, "rich/console.py"))
    assert _size(result) < LIMIT
    # Hundreds of symbols (with locals): paged, nested as in the file.
    assert result.total > 500 and result.truncated
    assert result.next_offset == len(flatten(result.symbols))
    assert any(s.children for s in result.symbols)


def test_the_members_of_console_are_listed(rich: Warm) -> None:
    result = rich.run(
        symbols_ops.document_symbols(rich.ws, "rich/console.py", symbol="Console", depth=1)
    )
    methods = [s.name_path for s in result.symbols if s.kind == "method"]
    assert len(methods) > 50 and not result.truncated
    assert {"Console.print", "Console.log", "Console.__init__"} <= set(methods)


def test_a_misspelled_method_and_a_bare_file_name_get_suggestions(rich: Warm) -> None:
    with pytest.raises(InvalidInput, match=r"Did you mean `Console.print`"):
        rich.run(navigation.hover(rich.ws, symbol="Console.prnt"))
    with pytest.raises(InvalidInput, match=r"files ending in console.py: rich/console.py\."):
        rich.run(symbols_ops.document_symbols(rich.ws, "console.py"))


def test_workspace_symbols_of_a_short_query_fit(rich: Warm) -> None:
    for query in ("get", "e"):
        result = rich.run(symbols_ops.workspace_symbols(rich.ws, query))
        assert _size(result) < LIMIT, (query, _size(result))
        assert result.truncated and result.total > len(result.symbols) == 50


def test_hover_fits(rich: Warm) -> None:
    result = rich.run(navigation.hover(rich.ws, symbol="rich.console.Console"))
    assert result.found and "class Console" in result.contents
    assert _size(result) < LIMIT


def test_call_hierarchy_of_widely_called_functions_fits(rich: Warm) -> None:
    # Console.print: 52 callers, 265 call sites; Style (its constructor): 221 call sites.
    for name in ("rich.console.Console.print", "rich.style.Style"):
        result = rich.run(references.call_hierarchy(rich.ws, symbol=name))
        assert _size(result) < LIMIT, (name, _size(result))
        assert result.total > 100 and result.truncated, name
        assert result.next_offset == len(result.calls) <= 100, name
    small = rich.run(references.call_hierarchy(rich.ws, symbol="rich._loop.loop_last"))
    assert not small.truncated and all(call.text for call in small.calls)


def test_call_sites_are_listed_once_with_qualified_callers(rich: Warm) -> None:
    result = rich.run(
        references.call_hierarchy(rich.ws, symbol="rich.text.Text.append", limit=1000)
    )
    sites = [(c.path, c.line, c.column) for c in result.calls]
    assert len(sites) == len(set(sites)) == result.total
    assert all("." in c.symbol or c.kind == "function" for c in result.calls)
    assert result.item.symbol == "Text.append" and result.item.kind == "method"
