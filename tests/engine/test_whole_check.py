"""The whole check's run (`engine/whole_check.py`, asked through `ops/check.check_all`) on
basedpyright: kept open in a daemon, made again only for what changed, and the same JSON
however it is made."""

from __future__ import annotations

import json
import logging
import os
import signal
from collections.abc import Iterator

import pytest

from lspd.ops.budget import compact
from lspd.ops.check import check_all, running, summary
from tests.conftest import Warm, warm_workspace

FILES = [
    "pkg/__init__.py",
    "pkg/app.py",
    "pkg/broken.py",
    "pkg/extra.py",
    "pkg/greeting.py",
    "pkg/unicode_names.py",
]


@pytest.fixture
def watched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The Python fixture with its watcher running, as in the daemon."""
    yield from warm_workspace("py", tmp_path_factory, watch=True)


@pytest.fixture
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from warm_workspace("py", tmp_path_factory)


def codes(warm: Warm, path: str) -> list[tuple[int, str | None]]:
    checked = warm.run(check_all(warm.ws, [path]))
    [result] = checked.results
    return [(d.line, d.code) for d in result.diagnostics]


def test_a_check_after_an_edit_makes_again_only_what_changed(watched: Warm) -> None:
    first = watched.run(check_all(watched.ws, ["pkg/*.py"]))
    assert all(watched.ws.holds(watched.root / f) for f in FILES)  # kept open
    before = {r.path: r for r in first.results}
    everything = first.everything
    broken = watched.root / "pkg" / "broken.py"
    broken.write_text(broken.read_text() + "y: str = 1\n")
    second = watched.run(check_all(watched.ws, ["pkg/*.py"]))
    after = {r.path: r for r in second.results}
    assert [p for p in after if after[p] is not before[p]] == ["pkg/broken.py"]
    assert [(d.line, d.code) for d in after["pkg/broken.py"].diagnostics] == [
        (2, "reportReturnType"),
        (3, "reportAssignmentType"),
    ]
    # Each unchanged file's diagnostics (with their path) are last time's, not copies.
    reused = {id(d) for d in everything if d.path != "pkg/broken.py"}
    assert reused <= {id(d) for d in second.everything}
    assert json.loads(second.json_text()) == compact(summary(second))


def test_without_a_watcher_the_files_are_closed_again(plain: Warm) -> None:
    checked = plain.run(check_all(plain.ws, ["pkg/*.py"]))
    assert [r.path for r in checked.results] == FILES
    assert not any(plain.ws.holds(plain.root / f) for f in FILES)
    assert json.loads(checked.json_text()) == compact(summary(checked))


def test_the_running_check_says_how_far_it_is(plain: Warm) -> None:
    seen = []

    def progress(done: int, total: int) -> None:
        now = running(plain.ws)  # what GET /check/progress answers `lspd check` with
        seen.append(None if now is None else (now.done, now.total, done, total))

    plain.run(check_all(plain.ws, ["pkg/*.py"], progress))
    assert seen[0] == (0, 6, 0, 6) and seen[-1] == (6, 6, 6, 6) and len(seen) == 7
    assert running(plain.ws) is None


def test_a_file_changed_while_kept_open_is_answered_afresh(watched: Warm) -> None:
    assert codes(watched, "pkg/app.py") == []
    greeting = watched.root / "pkg" / "greeting.py"
    greeting.write_text(greeting.read_text().replace("(name: str)", "(name: str, loud: bool)"))
    # app.py itself did not change: the server re-checks it as a dependent of greeting.py.
    assert codes(watched, "pkg/app.py") == [
        (5, "reportCallIssue"),
        (5, "reportUnknownVariableType"),
        (6, "reportUnknownMemberType"),
        (6, "reportUnknownVariableType"),
    ]


def test_files_gone_are_forgotten(watched: Warm) -> None:
    extra = watched.root / "pkg" / "extra.py"
    extra.write_text("z: int = ''\n")
    first = watched.run(check_all(watched.ws))
    assert len(first.everything) == 4 and "pkg/extra.py" in first.stamped
    extra.unlink()
    checked = watched.run(check_all(watched.ws))
    assert "pkg/extra.py" not in {r.path for r in checked.results}
    assert "pkg/extra.py" not in checked.stamped


def test_files_whose_server_died_under_them_are_asked_again(
    plain: Warm, caplog: pytest.LogCaptureFixture
) -> None:
    """The server killed as a check begins: the files in flight fail with it, and are asked
    again once the others are answered; the check answers every file."""
    first = plain.run(check_all(plain.ws, ["pkg/*.py"]))
    [session] = plain.ws.sessions.values()
    killed: list[int] = []

    def kill(done: int, total: int) -> None:
        if not killed and session.pid is not None:
            killed.append(session.pid)
            os.kill(session.pid, signal.SIGKILL)

    with caplog.at_level(logging.INFO, logger="lspd.engine.check_files"):
        again = plain.run(check_all(plain.ws, ["pkg/*.py"], kill))
    assert killed and session.pid not in (None, killed[0])  # started again
    assert any("asking again, alone" in r.getMessage() for r in caplog.records)
    assert again.skipped == []
    assert summary(again).model_dump() == summary(first).model_dump()


def test_a_file_the_walk_leaves_out_is_checked_when_named(watched: Warm) -> None:
    # `lspd check gen/g.py` of a file the .gitignore lists said "0 files, 0 errors" (exit 0);
    # named, it is checked, as a checker checks a file its command names. A glob is the
    # walk's; the watcher does not follow it, so its edit is told by its stamp.
    (watched.root / ".gitignore").write_text("gen/\n")
    generated = watched.root / "gen" / "g.py"
    generated.parent.mkdir()
    generated.write_text('x: int = "s"\n')
    assert codes(watched, "gen/g.py") == [(1, "reportAssignmentType")]
    assert watched.run(check_all(watched.ws, ["gen/*.py"])).results == []
    generated.write_text("x: int = 1\n")
    assert codes(watched, "gen/g.py") == []
