"""`references` with `kind: "calls"` on real servers: a call whose arguments begin on a later
line is a call where the language goes on with it there (TypeScript always, Python within
brackets or after a backslash), and a name ending a Python statement is none."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lspd.ops import references
from lspd.ops.navigation_models import FileReferences
from tests.conftest import Warm, copy_fixture, warm_root

SPLIT_PY = """\
from dyn.store import Store, typed


def joined() -> str:
    return (typed
            (Store()))


def continued() -> str:
    return typed \\
        (Store())


def alone() -> object:
    typed  # a statement of its own: the next line is a tuple
    (Store(),)
    return typed
"""

SPLIT_TS = """\
import { typed, Store } from "./store";

export const later = typed
  (new Store());
export const value = typed;
"""


def _warm(name: str, path: str, text: str, tmp: pytest.TempPathFactory) -> Iterator[Warm]:
    root = copy_fixture(name, tmp.mktemp(name))
    (root / path).write_text(text)
    yield from warm_root(root, root.parent / "logs")


@pytest.fixture(scope="module")
def split_py(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from _warm("dynamic_py", "dyn/split.py", SPLIT_PY, tmp_path_factory)


@pytest.fixture(scope="module")
def split_ts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from _warm("dynamic_ts", "src/split.ts", SPLIT_TS, tmp_path_factory)


def _lines(groups: list[FileReferences]) -> list[tuple[str, int, str | None]]:
    return [(g.path, r.line, r.symbol) for g in groups for r in g.references]


def test_python_calls_go_on_to_the_next_line_where_python_joins_the_lines(
    split_py: Warm,
) -> None:
    every = split_py.run(references.references(split_py.ws, symbol="typed"))
    split = [(line, symbol) for path, line, symbol in _lines(every.files) if path == "dyn/split.py"]
    assert split == [(1, None), (5, "joined"), (10, "continued"), (15, "alone"), (17, "alone")]
    calls = split_py.run(references.references(split_py.ws, symbol="typed", kind="calls"))
    # Within brackets and after a backslash; not the import, the name alone on its line
    # before a tuple, nor the name returned as a value.
    assert _lines(calls.files) == [("dyn/split.py", 5, "joined"), ("dyn/split.py", 10, "continued")]
    assert calls.summary.startswith("2 calls in 1 file")


def test_typescript_calls_go_on_to_the_next_line(split_ts: Warm) -> None:
    calls = split_ts.run(references.references(split_ts.ws, symbol="typed", kind="calls"))
    # `typed\n  (new Store())` is one call in TypeScript; `= typed;` hands it on as a value.
    assert _lines(calls.files) == [("src/calls.ts", 4, "first"), ("src/split.ts", 3, "later")]
