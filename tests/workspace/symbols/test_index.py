"""The workspace's symbol index on real servers: never stale, documents closed after use.

Each test has its own copy of a fixture and its own servers (the files are changed on disk);
the watcher runs as in the daemon unless the test is about running without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops import navigation
from lspd.workspace import Workspace
from tests.conftest import Warm, warm_workspace


@pytest.fixture
def py(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from warm_workspace("py", tmp_path_factory, watch=True)


@pytest.fixture
def py_unwatched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from warm_workspace("py", tmp_path_factory)


@pytest.fixture
def ts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from warm_workspace("ts", tmp_path_factory, watch=True)


def found(warm: Warm, name_path: str) -> list[tuple[str, str, int, int]]:
    nodes = warm.run(warm.ws.symbols.find(name_path.split(".")))
    return [(n.name_path, n.path, n.line, n.column) for n in nodes]


def open_documents(ws: Workspace) -> list[str]:
    return sorted(ws.display(d.path) for s in ws.sessions.values() for d in s.documents.values())


def rename(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))  # the first only


@pytest.mark.parametrize("fixture", ["py", "py_unwatched"])
def test_a_method_renamed_on_disk_is_found_by_its_new_name_only(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    warm: Warm = request.getfixturevalue(fixture)
    assert found(warm, "Greeter.greet") == [("Greeter.greet", "pkg/greeting.py", 18, 9)]
    # Same length: the size does not change, the content hash tells.
    rename(warm.root / "pkg" / "greeting.py", "def greet(", "def hallo(")
    assert found(warm, "Greeter.hallo") == [("Greeter.hallo", "pkg/greeting.py", 18, 9)]
    # LoudGreeter.greet is still there; Greeter's is gone.
    assert found(warm, "Greeter.greet") == []
    assert found(warm, "greet") == [("LoudGreeter.greet", "pkg/greeting.py", 24, 9)]
    with pytest.raises(InvalidInput) as error:
        warm.run(navigation.definition(warm.ws, symbol="Greeter.greet"))
    assert "`Greeter` (pkg/greeting.py:12) has no member `greet`" in str(error.value)
    result = warm.run(navigation.definition(warm.ws, symbol="Greeter.hallo"))
    assert [(loc.path, loc.line, loc.column) for loc in result.locations] == [
        ("pkg/greeting.py", 18, 9)
    ]


@pytest.mark.parametrize("fixture", ["py", "py_unwatched"])
def test_a_new_file_declares_names_at_once(fixture: str, request: pytest.FixtureRequest) -> None:
    py: Warm = request.getfixturevalue(fixture)
    assert found(py, "Farewell.wave") == []
    (py.root / "pkg" / "farewell.py").write_text(
        "class Farewell:\n    def wave(self) -> str:\n        return 'bye'\n"
    )
    assert found(py, "Farewell.wave") == [("Farewell.wave", "pkg/farewell.py", 2, 9)]
    assert found(py, "pkg.farewell.Farewell") == [("Farewell", "pkg/farewell.py", 1, 7)]


@pytest.mark.parametrize("fixture", ["py", "py_unwatched"])
def test_a_deleted_file_declares_nothing(fixture: str, request: pytest.FixtureRequest) -> None:
    py: Warm = request.getfixturevalue(fixture)
    assert found(py, "third_use") == [("third_use", "pkg/extra.py", 4, 5)]
    (py.root / "pkg" / "extra.py").unlink()
    assert found(py, "third_use") == []
    with pytest.raises(InvalidInput, match="no symbol named `third_use` was found"):
        py.run(navigation.hover(py.ws, symbol="third_use"))


def test_an_unchanged_file_is_answered_from_the_index(py: Warm) -> None:
    path = py.root / "pkg" / "greeting.py"
    first = py.run(py.ws.symbols.tree(path))
    assert py.run(py.ws.symbols.tree(path)) is first  # not asked again
    rename(path, "make_greeter", "build_greeter")
    changed = py.run(py.ws.symbols.tree(path))
    assert changed is not first
    assert "build_greeter" in [n.name_path for n in changed]


def test_documents_opened_to_resolve_names_are_closed(py: Warm) -> None:
    assert found(py, "Greeter.greet") == [("Greeter.greet", "pkg/greeting.py", 18, 9)]
    assert open_documents(py.ws) == []
    # By name, the server holds what a question by position would: the file asked about.
    py.run(navigation.definition(py.ws, symbol="make_greeter"))
    assert open_documents(py.ws) == ["pkg/greeting.py"]
    # A file the agent had open stays open.
    py.run(navigation.hover(py.ws, "pkg/app.py", 6, 20))
    assert found(py, "main") == [("main", "pkg/app.py", 4, 5)]
    assert open_documents(py.ws) == ["pkg/app.py", "pkg/greeting.py"]


def test_typescript_rename_new_file_and_deletion(ts: Warm) -> None:
    assert found(ts, "Circle.area") == [("Circle.area", "src/shapes.ts", 8, 3)]
    assert open_documents(ts.ws) == []
    rename(
        ts.root / "src" / "shapes.ts",
        "  area(): number {\n    return Math.PI",
        "  size(): number {\n    return Math.PI",
    )
    assert found(ts, "Circle.size") == [("Circle.size", "src/shapes.ts", 8, 3)]
    assert found(ts, "Circle.area") == []
    (ts.root / "src" / "triangle.ts").write_text(
        "export class Triangle {\n  sides(): number {\n    return 3;\n  }\n}\n"
    )
    assert found(ts, "Triangle.sides") == [("Triangle.sides", "src/triangle.ts", 2, 3)]
    (ts.root / "src" / "more.ts").unlink()
    assert found(ts, "doubled") == []
    assert open_documents(ts.ws) == []
    result = ts.run(navigation.definition(ts.ws, symbol="Triangle.sides"))
    assert [(loc.path, loc.line, loc.column) for loc in result.locations] == [
        ("src/triangle.ts", 2, 3)
    ]


def test_a_cold_server_is_asked_for_symbols_once_it_is_ready(py_unwatched: Warm) -> None:
    # Files opened before a cold basedpyright has set its project up are handled first and
    # delay that (0.3 s on click): candidates are opened once it says it is ready.
    assert not py_unwatched.ws.sessions  # nothing started yet
    assert found(py_unwatched, "Greeter.greet") == [("Greeter.greet", "pkg/greeting.py", 18, 9)]
    (session,) = py_unwatched.ws.sessions.values()
    assert session.state == "ready" and open_documents(py_unwatched.ws) == []


def settle(warm: Warm) -> None:
    """Wait until the watcher (if running) has delivered what was written: a new file is
    known from its event (a name found elsewhere already does not wait for it)."""
    if warm.ws.watcher is not None:
        assert warm.run(warm.ws.watcher.catch_up())


def kept(warm: Warm) -> list[str]:
    """The files whose symbols the server was asked for (sorted)."""
    return sorted(warm.ws.display(path) for path in warm.ws.symbols.kept())


@pytest.mark.parametrize("fixture", ["py", "py_unwatched"])
def test_only_files_declaring_the_first_segment_are_asked(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    py: Warm = request.getfixturevalue(fixture)
    # app.py and unicode_names.py use `Greeter` and `greet` without declaring `Greeter`.
    assert found(py, "Greeter.greet") == [("Greeter.greet", "pkg/greeting.py", 18, 9)]
    assert kept(py) == ["pkg/greeting.py"]
    # A second file declaring the class: both are found, the name is ambiguous.
    (py.root / "pkg" / "twin.py").write_text(
        "class Greeter:\n    def greet(self) -> str:\n        return 'hi'\n"
    )
    settle(py)
    assert found(py, "Greeter.greet") == [
        ("Greeter.greet", "pkg/greeting.py", 18, 9),
        ("Greeter.greet", "pkg/twin.py", 2, 9),
    ]
    assert kept(py) == ["pkg/greeting.py", "pkg/twin.py"]
    with pytest.raises(InvalidInput) as error:
        py.run(navigation.definition(py.ws, symbol="Greeter.greet"))
    assert str(error.value).startswith("`Greeter.greet` matches 2 symbols: ")
    # One segment: every file holding the word may declare it (a parameter, a local).
    assert found(py, "greet") == [
        ("Greeter.greet", "pkg/greeting.py", 18, 9),
        ("LoudGreeter.greet", "pkg/greeting.py", 24, 9),
        ("Greeter.greet", "pkg/twin.py", 2, 9),
    ]
    assert kept(py) == ["pkg/app.py", "pkg/greeting.py", "pkg/twin.py", "pkg/unicode_names.py"]


SHAPES = """\
import functools


class Base:
    pass


def mark(cls: type) -> type:
    return cls


@mark
@functools.total_ordering
class Decorated(Base, metaclass=type):
    async def fetch(self) -> int:
        return 1


class Outer:
    class Inner:
        def deep(self) -> None:
            pass


async def runner() -> None:
    def step() -> None:
        pass


class \\
        Continued:
    def method(self) -> None:
        pass


class \ufb01ller:
    def pour(self) -> None:
        pass
"""

USES = """\
from pkg.shapes import Continued, Decorated, Outer, filler, runner


def use(d: Decorated, o: Outer.Inner, c: Continued, f: filler) -> None:
    d.fetch(), o.deep(), runner(), c.method(), f.pour()
    step = 'Decorated fetch Outer Inner deep runner step Continued method filler pour'
"""


def test_every_kind_of_container_is_found_and_only_its_file_asked(py: Warm) -> None:
    (py.root / "pkg" / "shapes.py").write_text(SHAPES)
    (py.root / "pkg" / "uses.py").write_text(USES)
    assert found(py, "Decorated.fetch") == [("Decorated.fetch", "pkg/shapes.py", 15, 15)]
    assert found(py, "Outer.Inner.deep") == [("Outer.Inner.deep", "pkg/shapes.py", 21, 13)]
    assert found(py, "Inner.deep") == [("Outer.Inner.deep", "pkg/shapes.py", 21, 13)]
    assert found(py, "runner.step") == [("runner.step", "pkg/shapes.py", 26, 9)]
    assert found(py, "Continued.method") == [("Continued.method", "pkg/shapes.py", 32, 9)]
    # Python reads `ﬁller` (a ligature) as `filler`, and basedpyright names it so.
    assert found(py, "filler.pour") == [("filler.pour", "pkg/shapes.py", 37, 9)]
    assert kept(py) == ["pkg/shapes.py"]


def test_a_module_path_first_segment_is_kept(py: Warm) -> None:
    # app.py says `from pkg.greeting import ... make_greeter`: the words, not the module.
    assert found(py, "greeting.make_greeter") == [("make_greeter", "pkg/greeting.py", 28, 5)]
    assert found(py, "pkg.greeting.Greeter.greet") == [("Greeter.greet", "pkg/greeting.py", 18, 9)]
    assert kept(py) == ["pkg/greeting.py"]


@pytest.mark.parametrize("fixture", ["py", "py_unwatched"])
def test_a_file_gaining_the_declaration_is_found(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    py: Warm = request.getfixturevalue(fixture)
    assert found(py, "Greeter.greet") == [("Greeter.greet", "pkg/greeting.py", 18, 9)]
    assert kept(py) == ["pkg/greeting.py"]  # app.py was read and passed over
    app = py.root / "pkg" / "app.py"
    app.write_text(app.read_text() + "\n\nclass Greeter:\n    def greet(self) -> str: ...\n")
    assert found(py, "Greeter.greet") == [
        ("Greeter.greet", "pkg/app.py", 14, 9),
        ("Greeter.greet", "pkg/greeting.py", 18, 9),
    ]
    assert kept(py) == ["pkg/app.py", "pkg/greeting.py"]


def test_a_server_without_a_container_pattern_is_asked_for_every_candidate(ts: Warm) -> None:
    # main.ts uses `Shape` and `area` without declaring `Shape`: asked all the same.
    assert found(ts, "Shape.area") == [("Shape.area", "src/shapes.ts", 2, 3)]
    assert kept(ts) == ["src/main.ts", "src/shapes.ts"]
