"""Big files and classes: a class's members listed and paged with every level kept."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lspd.errors import InvalidInput
from lspd.ops import symbols as symbols_ops
from lspd.ops.navigation_models import Symbol
from tests.conftest import Warm, warm_workspace

METHODS = 130


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The Python fixture with pkg/big.py: `Big` has 130 methods, each with a local."""
    for warm in warm_workspace("py", tmp_path_factory):
        body = "".join(
            f"    def method_{i:03}(self, value: int) -> int:\n"
            f"        scaled = value * {i}\n"
            f"        return scaled\n\n"
            for i in range(METHODS)
        )
        (warm.root / "pkg" / "big.py").write_text(f"class Big:\n{body}\ndef after() -> None: ...\n")
        yield warm


def test_a_class_with_130_methods_lists_them_all(big: Warm) -> None:
    first = big.run(symbols_ops.document_symbols(big.ws, "pkg/big.py", symbol="Big", depth=1))
    assert len(first.symbols) == 100 and first.next_offset == 100  # the default page
    result = big.run(
        symbols_ops.document_symbols(big.ws, "pkg/big.py", symbol="Big", depth=1, limit=1000)
    )
    assert [s.name_path for s in result.symbols] == [f"Big.method_{i:03}" for i in range(METHODS)]
    assert result.total == METHODS and not result.truncated
    assert all(s.kind == "method" and not s.children for s in result.symbols)


def test_paged_members_come_exactly_once_with_their_locals(big: Warm) -> None:
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = big.run(
            symbols_ops.document_symbols(
                big.ws, "pkg/big.py", symbol="Big", limit=50, offset=offset
            )
        )
        for method in page.symbols:
            seen.append(method.name_path)
            seen += [local.name_path for local in method.children]
        offset = page.next_offset
    expected: list[str] = []
    for i in range(METHODS):
        # basedpyright lists parameters as symbols too.
        expected += [f"Big.method_{i:03}" + member for member in ("", ".value", ".scaled")]
    # A page may start inside a method: its locals then come at the top of the page.
    assert sorted(seen) == sorted(expected) and len(seen) == len(expected)


def test_a_larger_limit_never_returns_fewer_symbols(big: Warm) -> None:
    def count(symbols: list[Symbol]) -> int:
        return sum(1 + count(s.children) for s in symbols)

    pages = [
        big.run(symbols_ops.document_symbols(big.ws, "pkg/big.py", limit=n))
        for n in (10, 100, 1000)
    ]
    sizes = [count(page.symbols) for page in pages]
    # 392 symbols: the last page is cut by the answer budget, not below the one before.
    assert sizes[:2] == [10, 100] and 100 < sizes[2] < 392
    assert [p.next_offset for p in pages] == sizes and pages[2].total == 392


def test_depth_is_kept_when_the_file_is_paged(big: Warm) -> None:
    first = big.run(symbols_ops.document_symbols(big.ws, "pkg/big.py", limit=5))
    [top] = first.symbols
    assert top.name_path == "Big" and first.truncated and first.next_offset == 5
    assert [c.name_path for c in top.children] == ["Big.method_000", "Big.method_001"]
    assert [c.name_path for c in top.children[0].children] == [
        "Big.method_000.value",
        "Big.method_000.scaled",
    ]


def test_an_unknown_member_name_suggests_the_closest(big: Warm) -> None:
    with pytest.raises(InvalidInput, match=r"Did you mean `Big.method_001`"):
        big.run(symbols_ops.document_symbols(big.ws, "pkg/big.py", symbol="Big.mehtod_001"))


def test_workspace_symbols_with_a_container_lists_its_members(big: Warm) -> None:
    result = big.run(symbols_ops.workspace_symbols(big.ws, "Big.method_12"))
    assert [s.name_path for s in result.symbols] == [
        "Big.method_120",
        "Big.method_121",
        "Big.method_122",
        "Big.method_123",
        "Big.method_124",
        "Big.method_125",
        "Big.method_126",
        "Big.method_127",
        "Big.method_128",
        "Big.method_129",
    ]
