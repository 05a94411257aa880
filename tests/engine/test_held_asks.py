"""Files asked while texts never written are held (a preview's proposal): shared with a
second server that holds the same texts, gone afterwards; the answers are one server's.
TypeScript 7's too (its handler is tsserver, which never shares: the server that runs decides),
from both ends of the list as its check."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.engine import held_asks, second_server
from lspd.engine.held_asks import held_asked
from lspd.errors import ServerCrashed
from lspd.lsp.session import Session
from lspd.ops.check import check_all
from lspd.workspace.overlay import overlaid
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import watched, written
from tests.engine.test_native_check import CORE, native_project, servers_in
from tests.engine.test_second_server import FILES, RETURNS_STR

ASKED = ["pkg/again.py", "pkg/core.py", "pkg/leaf.py", "pkg/user.py"]


@pytest.fixture
def python(tmp_path: Path) -> Iterator[Warm]:
    """A small Python project on basedpyright, checked once, its watcher running."""
    for warm in watched(written(tmp_path / "py", FILES), tmp_path / "logs"):
        warm.run(check_all(warm.ws))
        yield warm


@pytest.fixture
def native(tmp_path: Path) -> Iterator[Warm]:
    """A small TypeScript 7 project, its watcher running (files pulled without opening)."""
    yield from warm_root(native_project(tmp_path / "ts7"), tmp_path / "logs", watch=True)


def errors(
    warm: Warm,
    split_at: int,
    monkeypatch: pytest.MonkeyPatch,
    held: tuple[str, str] = ("pkg/core.py", RETURNS_STR),
    asked: list[str] = ASKED,
) -> dict[str, object]:
    """Each asked file's errors (line, code, server) while `held` (a file, its other text)
    is held: core.py's, returning a str."""
    monkeypatch.setattr(second_server, "SPLIT_AT", split_at)
    ws, core, text = warm.ws, warm.root / held[0], held[1]
    files = [warm.root / name for name in asked]

    async def run() -> dict[str, object]:
        async with ws.gate.exclusive(), overlaid(ws, {core: text}, files):
            heard = await held_asked(ws, files, {core: text})
        return {
            ws.display(path): sorted(
                (d["range"]["start"]["line"] + 1, d.get("code"), h.said.server)
                for d in h.items
                if d.get("severity") == 1
            )
            for path, h in heard.items()
        }

    return warm.run(run())


def test_a_second_server_holds_the_texts_the_first_holds(
    python: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    [session] = python.ws.sessions.values()
    seconds: list[Session] = []
    made = second_server.second_of

    def second_of(first: Session) -> Session:
        seconds.append(made(first))
        return seconds[-1]

    monkeypatch.setattr(second_server, "second_of", second_of)
    held = {
        "pkg/again.py": [(3, "reportAssignmentType", "basedpyright")],
        "pkg/core.py": [],
        "pkg/leaf.py": [(1, "reportAssignmentType", "basedpyright")],
        "pkg/user.py": [(3, "reportAssignmentType", "basedpyright")],
    }
    # Shared from two files: the second server answered with core.py's held text too
    assert errors(python, 2, monkeypatch) == held
    assert len(seconds) == 1 and servers_in(python.root) == [session.pid]  # and is gone
    # One server alone says the same; the disk was never written
    assert errors(python, 100, monkeypatch) == held
    assert len(seconds) == 1
    assert (python.root / "pkg/core.py").read_text() == FILES["pkg/core.py"]


def test_a_second_server_that_cannot_start_leaves_its_files_to_the_first(
    python: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that fails at its start (a double: a crash cannot be provoked on cue)."""
    [session] = python.ws.sessions.values()
    made = second_server.second_of

    def second_of(first: Session) -> Session:
        helper = made(first)

        async def start() -> None:
            raise ServerCrashed("basedpyright", "exited at its start (the test's)")

        monkeypatch.setattr(helper, "start", start)
        return helper

    monkeypatch.setattr(second_server, "second_of", second_of)
    assert errors(python, 2, monkeypatch) == {
        "pkg/again.py": [(3, "reportAssignmentType", "basedpyright")],
        "pkg/core.py": [],
        "pkg/leaf.py": [(1, "reportAssignmentType", "basedpyright")],
        "pkg/user.py": [(3, "reportAssignmentType", "basedpyright")],
    }
    assert servers_in(python.root) == [session.pid]


def test_typescript_7_shares_with_a_second_server_from_both_ends(
    native: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A preview of a core change on TypeScript 7 asks its 532 files of effect 4.1 of two
    servers, as the check does: it was one (its handler, tsserver, has no `second_server`),
    20.55 s where the check of the written edit took 15.82 (bench/feedback.py, quiet)."""
    session = native.ws.session_for(native.root / "src/core.ts")
    seconds: list[Session] = []
    ends: list[bool] = []
    made, shared = second_server.second_of, held_asks.ask_all

    def second_of(first: Session) -> Session:
        seconds.append(made(first))
        return seconds[-1]

    async def ask_all(*args: Any) -> Any:  # the real one, its `from_ends` seen
        ends.append(args[-1])
        return await shared(*args)

    monkeypatch.setattr(second_server, "second_of", second_of)
    monkeypatch.setattr(held_asks, "ask_all", ask_all)
    files = ["src/again.ts", "src/core.ts", "src/leaf.ts", "src/user.ts"]
    held = ("src/core.ts", CORE.replace("b: number", "b: string"))
    found = {
        "src/again.ts": [],
        "src/core.ts": [(2, 2322, "typescript-native")],
        "src/leaf.ts": [],
        "src/user.ts": [(2, 2345, "typescript-native")],
    }
    # Shared from two files: the second server answered with core.ts's held text too
    assert errors(native, 2, monkeypatch, held, files) == found
    assert len(seconds) == 1 and ends == [True]
    assert servers_in(native.root) == [session.pid]  # and is gone
    # One server alone says the same; the disk was never written
    assert errors(native, 100, monkeypatch, held, files) == found
    assert len(seconds) == 1 and ends == [True]
    assert (native.root / "src/core.ts").read_text() == CORE
