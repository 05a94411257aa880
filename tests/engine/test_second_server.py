"""A whole check asking many files of basedpyright (which checks on one thread) shares them
with a second server of the same project, stopped with the check: the same errors as one
server gives; a re-check starts the first afresh. TypeScript 7's:
tests/engine/test_native_check.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import second_server
from lspd.ops.budget import compact
from lspd.ops.check import check_all, summary
from lspd.ops.check_memory import memory_of
from tests.conftest import Warm
from tests.engine.test_affected import asked, fresh, watched, written
from tests.engine.test_native_check import servers_in

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "pkg/user.py": "from pkg.core import add\n\nthree: int = add(1, 2)\n",
    "pkg/again.py": "from pkg.core import add\n\nfour: int = add(2, 2)\n",
    "pkg/leaf.py": "x: str = 1\n",
}
RETURNS_STR = "def add(a: int, b: int) -> str:\n    return str(a + b)\n"


@pytest.fixture
def python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Warm]:
    """A small Python project on basedpyright, its watcher running as in the daemon, shared
    with a second server from two files asked."""
    monkeypatch.setattr(second_server, "SPLIT_AT", 2)
    yield from watched(written(tmp_path / "py", FILES), tmp_path / "logs")


def test_a_check_of_many_files_is_shared_with_a_second_server(
    python: Warm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert asked(python) == (sorted(FILES), [("pkg/leaf.py", 1, "reportAssignmentType")])
    [session] = python.ws.sessions.values()
    # the second took the second half's files in order (no answer of the first kept for
    # them) while the first took the first half's, and then the last file
    known = memory_of(python.ws).known
    assert sorted(python.ws.display(p) for p, (a, _) in known.items() if a is None) == [
        "pkg/core.py",
        "pkg/leaf.py",
    ]
    assert servers_in(python.root) == [first := session.pid]  # and is gone

    # A declaration two files import changed: three files asked, the first server afresh
    (python.root / "pkg/core.py").write_text(RETURNS_STR)
    assert asked(python) == (
        ["pkg/again.py", "pkg/core.py", "pkg/user.py"],
        [
            ("pkg/again.py", 3, "reportAssignmentType"),
            ("pkg/leaf.py", 1, "reportAssignmentType"),
            ("pkg/user.py", 3, "reportAssignmentType"),
        ],
    )
    assert servers_in(python.root) == [session.pid] and session.pid != first
    # The same as one server checking a workspace opened anew
    monkeypatch.setattr(second_server, "SPLIT_AT", 100)
    assert compact(summary(python.run(check_all(python.ws)))) == fresh(python.root, tmp_path / "l2")


def test_a_body_edit_is_asked_of_the_first_server_alone(python: Warm) -> None:
    """One file asked: no second server, the first keeps its process."""
    asked(python)
    [session] = python.ws.sessions.values()
    first = session.pid
    (python.root / "pkg/core.py").write_text(FILES["pkg/core.py"].replace("a + b", "b + a"))
    assert asked(python) == (["pkg/core.py"], [("pkg/leaf.py", 1, "reportAssignmentType")])
    assert session.pid == first and servers_in(python.root) == [first]


def test_comments_in_files_a_second_server_answered_ask_nothing(python: Warm) -> None:
    """A file's last result is moved only when it is known to be of the text before: the
    text its server held, the disk's for a file the second server answered (before, no
    such file was moved: SQLAlchemy's comment in Session.get asked its import cycle)."""
    assert asked(python) == (sorted(FILES), [("pkg/leaf.py", 1, "reportAssignmentType")])
    for name, text in FILES.items():
        (python.root / name).write_text("# a comment first\n\n" + text)
    assert asked(python) == ([], [("pkg/leaf.py", 3, "reportAssignmentType")])


def test_lspd_toml_turns_the_second_server_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`[servers.basedpyright] second_server = false`: every file of a whole check is the
    first server's (a project whose re-checks one warm server answers faster: mcp's
    signature change 37.6 s on one server against 154.8 s split, docs/benchmarks.md)."""
    monkeypatch.setattr(second_server, "SPLIT_AT", 2)
    off = {**FILES, "lspd.toml": "[servers.basedpyright]\nsecond_server = false\n"}
    for python in watched(written(tmp_path / "py", off), tmp_path / "logs"):
        assert asked(python) == (sorted(FILES), [("pkg/leaf.py", 1, "reportAssignmentType")])
        [session] = python.ws.sessions.values()
        assert not session.definition.second_server
        known = memory_of(python.ws).known
        assert sorted(python.ws.display(p) for p, (a, _) in known.items() if a is not None) == (
            sorted(FILES)
        )
