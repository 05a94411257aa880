"""Paging: a larger limit never gives fewer items, and following next_offset gives each once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from lspd.errors import InvalidInput
from lspd.ops.budget import BUDGET_CHARS, MAX_LIMIT, Window, compact_json, page, size
from lspd.ops.navigation_models import WorkspaceSymbol, WorkspaceSymbolsResult
from lspd.surface.arguments import validate
from lspd.surface.table import OPERATIONS, call, operation
from tests.conftest import Warm, warm_workspace

# Long enough that about a hundred of them fill the answer budget.
ITEMS = [
    WorkspaceSymbol(
        name_path=f"Container.method_{i:04}_" + "x" * 60,
        kind="method",
        path="pkg/module.py",
        line=i + 1,
        column=9,
    )
    for i in range(2500)
]


def symbols_page(offset: int, limit: int) -> WorkspaceSymbolsResult:
    def build(w: Window) -> WorkspaceSymbolsResult:
        return WorkspaceSymbolsResult(
            symbols=ITEMS[w.offset : w.end],
            total=w.total,
            truncated=w.truncated,
            next_offset=w.next_offset,
        )

    return page(len(ITEMS), offset, limit, build)


def test_a_larger_limit_never_returns_fewer_items() -> None:
    counts = [len(symbols_page(0, limit).symbols) for limit in (1, 5, 20, 50, 100, 500, 1000)]
    assert counts == sorted(counts)
    assert counts[:3] == [1, 5, 20]  # honoured exactly while it fits


def test_a_page_fits_the_budget_and_says_where_the_rest_starts() -> None:
    first = symbols_page(0, 1000)
    assert size(first) <= BUDGET_CHARS
    assert first.truncated and first.total == 2500
    assert first.next_offset == len(first.symbols)
    # One more item would not have fitted: the page is as large as the budget allows.
    bigger = WorkspaceSymbolsResult(
        symbols=ITEMS[: len(first.symbols) + 1], total=2500, truncated=True, next_offset=1
    )
    assert size(bigger) > BUDGET_CHARS


def test_following_next_offset_returns_every_item_exactly_once() -> None:
    seen: list[str] = []
    offset: int | None = 0
    pages = 0
    while offset is not None:
        answer = symbols_page(offset, 1000)
        seen += [s.name_path for s in answer.symbols]
        offset = answer.next_offset
        pages += 1
    assert seen == [s.name_path for s in ITEMS]
    assert pages > 2


def test_the_last_page_is_not_truncated_and_omits_next_offset() -> None:
    last = symbols_page(2490, 50)
    assert [s.line for s in last.symbols] == list(range(2491, 2501))
    assert not last.truncated and last.next_offset is None
    assert '"truncated"' not in compact_json(last) and '"next_offset"' not in compact_json(last)


def test_the_maximum_caps_a_limit_without_error() -> None:
    small = [ITEMS[0].model_copy(update={"name_path": f"f{i}"}) for i in range(MAX_LIMIT + 5)]

    def build(w: Window) -> WorkspaceSymbolsResult:
        return WorkspaceSymbolsResult(
            symbols=small[w.offset : w.end], total=w.total, truncated=w.truncated
        )

    answer = page(len(small), 0, 5000, build, maximum=10)
    assert len(answer.symbols) == 10 and answer.truncated


@pytest.mark.parametrize(
    ("offset", "limit", "message"),
    [
        (-1, 10, "`offset` must be 0 or a positive integer"),
        (0, 0, "`limit` must be a positive integer"),
        (2501, 10, "`offset` 2501 is past the end: there are 2500 items"),
    ],
)
def test_bad_paging_arguments_say_what_to_send(offset: int, limit: int, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        symbols_page(offset, limit)


def test_compact_json_drops_defaults_and_indentation() -> None:
    answer = WorkspaceSymbolsResult(symbols=ITEMS[:1], total=1)
    assert compact_json(answer) == (
        '{"total":1,"symbols":[{"name_path":"' + ITEMS[0].name_path + '","kind":"method",'
        '"path":"pkg/module.py","line":1,"column":9}]}'
    )


# The property on real answers: basedpyright on a generated module whose every list is
# longer than the answer budget holds (300 diagnostics, callers, references, symbols).
CALLERS = 300


MANY = "def target(value: int) -> int:\n    return value\n\n\n" + "".join(
    f"def caller_{i:03}_with_a_long_descriptive_name() -> int:\n"
    f'    return target("an argument of the wrong type, number {i:03}")\n\n\n'
    for i in range(CALLERS)
)
# A preview of `target` returning a str: each caller's return breaks (and target's own).
RETURNS_STR = MANY.replace("def target(value: int) -> int:", "def target(value: int) -> str:")


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The Python fixture plus pkg/many.py: `target` and 300 callers passing it a string."""
    for warm in warm_workspace("py", tmp_path_factory):
        (warm.root / "pkg/many.py").write_text(MANY)
        yield warm


# Each paged operation: its arguments, and how many items an answer holds.
PAGED: dict[str, tuple[dict[str, Any], Callable[[Any], int]]] = {
    "diagnostics": ({"path": "pkg/many.py"}, lambda r: len(r.diagnostics)),
    "workspace_diagnostics": ({"paths": ["pkg/many.py"]}, lambda r: len(r.diagnostics)),
    "references": (
        {"path": "pkg/many.py", "line": 1, "column": 5},
        lambda r: sum(len(f.references) for f in r.files),
    ),
    "call_hierarchy": ({"path": "pkg/many.py", "line": 1, "column": 5}, lambda r: len(r.calls)),
    "document_symbols": ({"path": "pkg/many.py", "depth": 1}, lambda r: len(r.symbols)),
    "workspace_symbols": ({"query": "caller_"}, lambda r: len(r.symbols)),
    "definition": ({"path": "pkg/many.py", "line": 6, "column": 12}, lambda r: len(r.locations)),
    "type_definition": (
        {"path": "pkg/many.py", "line": 6, "column": 12},
        lambda r: len(r.locations),
    ),
    "implementation": (
        {"path": "pkg/many.py", "line": 6, "column": 12},
        lambda r: len(r.locations),
    ),
    "preview": (
        {"changes": [{"path": "pkg/many.py", "content": RETURNS_STR}]},
        lambda r: len(r.changes.introduced),
    ),
}


# Paged by whole files, each file's diff one item: their property is tested on a long
# rename in tests/ops/test_edit_page.py (one module here gives a one-file rename).
BY_FILES = {"rename", "fixes"}


def test_every_operation_with_a_limit_is_in_the_property() -> None:
    paged = {op.name for op in OPERATIONS if any(p.name == "limit" for p in op.params)}
    assert paged == set(PAGED) | BY_FILES
    assert all(any(p.name == "offset" for p in operation(n).params) for n in paged)


@pytest.mark.parametrize("name", sorted(PAGED))
def test_a_larger_limit_never_returns_fewer_items_on_real_answers(many: Warm, name: str) -> None:
    arguments, count = PAGED[name]

    def answer(limit: int, offset: int = 0) -> Any:
        checked = validate(operation(name), {**arguments, "limit": limit, "offset": offset})
        return many.run(call(operation(name), many.ws, checked))

    full = answer(1000)
    most = count(full)  # what fits one page: the budget's cut, or everything
    total = full.total
    if name not in ("definition", "type_definition", "implementation"):
        assert total >= CALLERS and most < total, (name, most, total)  # the budget cuts
    # The limits where the count could go wrong: small, around the cut, around the total,
    # the maximum; and a sweep between.
    limits = {1, 2, 3, most - 1, most, most + 1, total - 1, total, total + 1, 999, 1000}
    limits |= set(range(5, 1000, 37))
    for limit in sorted(x for x in limits if 1 <= x <= 1000):
        got = answer(limit)
        assert count(got) == min(limit, most), (name, limit)
        assert compact_json(got).__len__() <= BUDGET_CHARS
        cut = count(got) < total
        assert got.truncated == cut and got.next_offset == (count(got) if cut else None)
    # Following next_offset gives every item once, in order.
    seen, offset, pages = 0, 0, 0
    while offset is not None:
        got = answer(1000, offset)
        seen += count(got)
        offset = got.next_offset
        pages += 1
    assert seen == total and (pages > 1) == (most < total)
