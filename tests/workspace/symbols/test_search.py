"""The servers' own search (`workspace/symbol`): ranked by closeness to the query, then
declarations before variables, then by place; filtered by kind on the raw answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lspd.lsp.capabilities import symbol_kind_name
from lspd.workspace.symbols.search import search
from tests.conftest import Warm, warm_workspace


@pytest.fixture(scope="module")
def py(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from warm_workspace("py", tmp_path_factory)


def _found(warm: Warm, query: str, kind: str | None = None) -> list[tuple[str, str, str]]:
    answers = warm.run(search(warm.ws, query, kind))
    return [
        (item["name"], symbol_kind_name(item["kind"]), item["location"]["uri"].rpartition("/")[2])
        for _, item in answers
    ]


def test_the_exact_name_first_then_any_case_then_declarations_before_variables(
    py: Warm,
) -> None:
    assert _found(py, "Greeter") == [
        ("Greeter", "class", "greeting.py"),
        ("greeter", "variable", "app.py"),  # the same name in another case
        ("LoudGreeter", "class", "greeting.py"),  # names holding it: declarations first
        ("make_greeter", "function", "greeting.py"),
        ("émoji_greeter", "variable", "unicode_names.py"),
    ]


def test_a_kind_keeps_only_the_symbols_of_that_kind(py: Warm) -> None:
    assert _found(py, "greet", "method") == [
        ("greet", "method", "greeting.py"),
        ("greet", "method", "greeting.py"),
    ]
