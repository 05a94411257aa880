"""Files asked while texts never written are held (a preview's proposal): shared with a
second server that holds the same texts, gone afterwards; the answers are one server's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import second_server
from lspd.engine.held_asks import held_asked
from lspd.errors import ServerCrashed
from lspd.lsp.session import Session
from lspd.ops.check import check_all
from lspd.workspace.overlay import overlaid
from tests.conftest import Warm
from tests.engine.test_affected import watched, written
from tests.engine.test_native_check import servers_in
from tests.engine.test_second_server import FILES, RETURNS_STR

ASKED = ["pkg/again.py", "pkg/core.py", "pkg/leaf.py", "pkg/user.py"]


@pytest.fixture
def python(tmp_path: Path) -> Iterator[Warm]:
    """A small Python project on basedpyright, checked once, its watcher running."""
    for warm in watched(written(tmp_path / "py", FILES), tmp_path / "logs"):
        warm.run(check_all(warm.ws))
        yield warm


def errors(warm: Warm, split_at: int, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """Each asked file's errors (line, code, server) while core.py's other text is held."""
    monkeypatch.setattr(second_server, "SPLIT_AT", split_at)
    ws, core = warm.ws, warm.root / "pkg/core.py"
    files = [warm.root / name for name in ASKED]

    async def run() -> dict[str, object]:
        async with ws.gate.exclusive(), overlaid(ws, {core: RETURNS_STR}, files):
            heard = await held_asked(ws, files, {core: RETURNS_STR})
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
