"""A definition asked again of a basedpyright told nothing since: its answer as it gave it,
on click 8.1.7 (the bench's project) with a module of the shapes where a server's definition
differs from the declaration the symbol index holds; checked against a workspace without a
watcher (which keeps nothing: its server is asked every time)."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.lsp.session import Session
from lspd.ops import navigation
from lspd.ops.navigation_models import LocationsResult
from tests.conftest import Warm, answer, warm_root
from tests.workspace.mypy_env import cache_dir, source_release

SHAPES = '''\
"""Shapes where a definition differs from the declaration the index holds."""

import typing as t

from .core import Context as Ctx
from .core import Context

Alias = Context


class Box:
    def __init__(self) -> None:
        self._size = 0

    @property
    def size(self) -> int:
        return self._size

    @size.setter
    def size(self, value: int) -> None:
        self._size = value

    @t.overload
    def get(self, key: int) -> int: ...
    @t.overload
    def get(self, key: str) -> str: ...
    def get(self, key: t.Any) -> t.Any:
        return key


if t.TYPE_CHECKING:
    def twice() -> int: ...
else:
    def twice() -> int:
        return 2


def uses(box: Box, ctx: Ctx) -> Alias:
    box.size = 3
    twice()
    return ctx
'''

At = dict[str, Any]
# Each question and where basedpyright's definition leads (path, line, column, name path).
CASES: list[tuple[At, list[tuple[str, int, int, str | None]]]] = [
    (  # overloads: the two signatures and the implementation, one symbol in the index
        {"symbol": "Context.invoke"},
        [("src/click/core.py", line, 9, "Context.invoke") for line in (715, 724, 732)],
    ),
    ({"symbol": "Context.meta"}, [("src/click/core.py", 508, 9, "Context.meta")]),  # property
    (  # a property and its setter
        {"symbol": "Box.size"},
        [("src/click/shapes.py", 16, 9, "Box.size"), ("src/click/shapes.py", 20, 9, "Box.size")],
    ),
    (
        {"symbol": "Box.get"},
        [("src/click/shapes.py", line, 9, "Box.get") for line in (24, 26, 27)],
    ),
    ({"symbol": "shapes.twice"}, [("src/click/shapes.py", 32, 9, "twice")]),  # declared twice
    ({"symbol": "shapes.Alias"}, [("src/click/shapes.py", 8, 1, "Alias")]),  # an alias
    (  # a re-export, in the package's __init__.py
        {"path": "src/click/__init__.py", "line": 11, "column": 26},
        [("src/click/core.py", 160, 7, "Context")],
    ),
    (  # an import under another name
        {"path": "src/click/shapes.py", "line": 38, "column": 25},
        [("src/click/core.py", 160, 7, "Context")],
    ),
    (  # the alias where it is used
        {"path": "src/click/shapes.py", "line": 38, "column": 33},
        [("src/click/shapes.py", 8, 1, "Alias")],
    ),
    (  # a setter's use
        {"path": "src/click/shapes.py", "line": 39, "column": 9},
        [("src/click/shapes.py", 16, 9, "Box.size"), ("src/click/shapes.py", 20, 9, "Box.size")],
    ),
    (  # a function declared in both branches of an `if` (click's own)
        {"path": "src/click/_termui_impl.py", "line": 653, "column": 9},
        [
            ("src/click/_termui_impl.py", 653, 9, None),
            ("src/click/_termui_impl.py", 731, 9, "getchar"),
        ],
    ),
]
LIBRARY = {"path": "src/click/shapes.py", "line": 23, "column": 8}  # `t.overload`: typing.py


def _click(base: Path) -> Path:
    """click 8.1.7's source release (as bench/latency.py asks it) with SHAPES beside core.py."""
    root = source_release("click", "8.1.7", cache_dir() / "tests", base).resolve()
    (root / "src" / "click" / "shapes.py").write_text(SHAPES)
    return root


@pytest.fixture(scope="module")
def click(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """A watched workspace on click, as the daemon's: answers are kept."""
    base = tmp_path_factory.mktemp("click")
    yield from warm_root(_click(base), base / "logs", watch=True)


@pytest.fixture(scope="module")
def unwatched(click: Warm, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """A workspace on the same files without a watcher: it keeps no answer."""
    yield from warm_root(click.root, tmp_path_factory.mktemp("logs"))


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """How many requests each session sent its server (by the session's id)."""
    counts: Counter[int] = Counter()
    request = Session.request

    async def counting(self: Session, *args: Any, **kwargs: Any) -> Any:
        counts[id(self)] += 1
        return await request(self, *args, **kwargs)

    monkeypatch.setattr(Session, "request", counting)
    return counts


def _places(result: LocationsResult) -> list[tuple[str, int, int, str | None]]:
    return [(loc.path, loc.line, loc.column, loc.symbol) for loc in result.locations]


def _ask(warm: Warm, at: At) -> LocationsResult:
    return warm.run(navigation.definition(warm.ws, **at))


@pytest.mark.parametrize(("at", "expected"), CASES, ids=[str(at) for at, _ in CASES])
def test_an_answer_kept_is_the_servers_own(
    click: Warm,
    unwatched: Warm,
    asked: Counter[int],
    at: At,
    expected: list[tuple[str, int, int, str | None]],
) -> None:
    first = _ask(click, at)
    (session,) = click.ws.sessions.values()
    before = asked[id(session)]
    again = [_ask(click, at) for _ in range(3)]
    assert asked[id(session)] == before  # from the kept answer: the server was not asked
    truth = [_ask(unwatched, at) for _ in range(2)]
    assert (unwatched.ws.changes_seen, asked[id(*unwatched.ws.sessions.values())]) == (None, 2)
    assert _places(first) == expected
    assert [r.model_dump() for r in [*again, *truth]] == [first.model_dump()] * 5


def test_a_library_location_is_asked_every_time(click: Warm, asked: Counter[int]) -> None:
    first = _ask(click, LIBRARY)
    [place] = first.locations
    assert place.path.startswith("/") and place.path.endswith("/typing.py")  # outside the root
    (session,) = click.ws.sessions.values()
    before = asked[id(session)]
    assert _ask(click, LIBRARY) == first
    assert asked[id(session)] == before + 1  # its file may change unreported


@pytest.fixture
def own(tmp_path: Path, click: Warm) -> Iterator[Warm]:
    """A watched workspace on a copy of click of its own (to be edited)."""
    root = tmp_path / "click"
    shutil.copytree(click.root, root)
    yield from warm_root(root, tmp_path / "logs", watch=True)


def _truth(root: Path, at: At) -> LocationsResult:
    """The answer of a server started now on the files as they are."""
    return answer(root, lambda ws: navigation.definition(ws, **at))


def _write(warm: Warm, path: str, text: str) -> None:
    (warm.root / path).write_text(text)
    assert warm.ws.watcher is not None
    assert warm.run(warm.ws.watcher.catch_up())  # the watcher told the server


def test_a_file_read_from_disk_changed_asks_again(own: Warm, asked: Counter[int]) -> None:
    at = CASES[7][0]  # `Ctx` in shapes.py: core.py, which no server holds open
    assert _places(_ask(own, at)) == [("src/click/core.py", 160, 7, "Context")]
    assert _places(_ask(own, at)) == [("src/click/core.py", 160, 7, "Context")]
    assert own.ws.document(own.root / "src/click/core.py") is None
    (session,) = own.ws.sessions.values()
    before = asked[id(session)]
    core = (own.root / "src/click/core.py").read_text()
    _write(own, "src/click/core.py", "# one\n# two\n" + core)
    moved = _ask(own, at)
    assert asked[id(session)] == before + 1
    assert _places(moved) == [("src/click/core.py", 162, 7, "Context")]
    assert moved == _truth(own.root, at)


def test_the_open_file_changed_asks_again(own: Warm, asked: Counter[int]) -> None:
    at = {"symbol": "Box.get"}
    first = _ask(own, at)
    assert _ask(own, at) == first
    (session,) = own.ws.sessions.values()
    before = asked[id(session)]
    bytes_too = "    @t.overload\n    def get(self, key: bytes) -> bytes: ...\n"
    shapes = SHAPES.replace(
        "    def get(self, key: t.Any)", bytes_too + "    def get(self, key: t.Any)"
    )
    _write(own, "src/click/shapes.py", shapes)
    added = _ask(own, at)
    assert asked[id(session)] == before + 1
    expected = [("src/click/shapes.py", line, 9, "Box.get") for line in (24, 26, 28, 29)]
    assert _places(added) == expected
    assert added == _truth(own.root, at)
