"""What the work tree held as a turn began is set aside even when the turn's first edit
comes before it was taken (`ops/turn_start.py`): the files changed since the turn began are
held at their texts then (the earlier turn's uncommitted edit, the baseline's for the
others), and that state's errors against HEAD are the turn's `Before`. Before, such a
`Before` was dropped, and the stop gate blocked the agent for the earlier turn's error too.
A real git repository, basedpyright, a watched workspace; the edit is written while the
test holds the gate, so `Before` is taken after it, every time."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from lspd.cli.hook import stop_output
from lspd.daemon import turns
from lspd.daemon.feedback import Feedback
from lspd.workspace import Workspace
from tests.conftest import Warm, copy_fixture, warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed

STOP: dict[str, Any] = {"event": "stop", "session": "s", "baseline": "HEAD", "wait": 120.0}
TURN: dict[str, Any] = {**STOP, "event": "turn"}
EARLIER = 'earlier: int = "x"\n'  # an earlier turn's error, uncommitted
FILES = {
    "pyproject.toml": '[project]\nname = "before"\nversion = "0"\n',
    "pkg/__init__.py": "",
    "pkg/a.py": "def one() -> int:\n    return 1\n",
    "pkg/b.py": "from pkg.a import one\n\nvalue: int = one()\n",
}


def project(root: Path) -> Path:
    """`FILES` committed, then the earlier turn's error written in pkg/a.py."""
    root = committed(written(root, FILES))
    (root / "pkg/a.py").write_text(FILES["pkg/a.py"] + EARLIER)  # before the turn
    return root


def turn_then(warm: Warm, feedback: Feedback, path: Path, text: str) -> None:
    """The turn begins, and `path` is written at once: while the test holds the gate, so
    the turn's `Before` (its check waits for the gate) is taken after the edit."""

    async def run() -> None:
        async with warm.ws.gate.exclusive():
            await feedback.answer(TURN)
            path.write_text(text)
            assert warm.ws.watcher is not None
            await warm.ws.watcher.catch_up()

    warm.run(run())


def stopped_after(warm: Warm, path: Path, text: str) -> dict[str, Any]:
    """The stop's answer after a turn that wrote `text` in `path` at once (`turn_then`),
    complete, the earlier turn's error set aside."""
    feedback = Feedback(warm.ws)
    turn_then(warm, feedback, path, text)
    stop = warm.run(feedback.answer(STOP))
    warm.run(feedback.close())
    assert stop["complete"] is True
    assert (stop["held_before"], stop["held_unknown"]) == (1, False)
    return stop


def codes(answer: dict[str, Any]) -> list[tuple[str, int, str | None]]:
    return [(d["path"], d["line"], d.get("code")) for d in answer["introduced"]]


def test_an_edit_before_the_turns_before_is_taken_blocks_for_its_error_alone(
    tmp_path: Path,
) -> None:
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        later = FILES["pkg/b.py"] + "later: str = one()\n"
        stop = stopped_after(warm, root / "pkg/b.py", later)
        assert codes(stop) == [("pkg/b.py", 4, "reportAssignmentType")]
        said = stop_output(stop, 120.0)
        assert said is not None and said["decision"] == "block"
        assert "pkg/a.py" not in said["reason"]


def test_an_edit_of_the_file_holding_the_earlier_error_blocks_for_its_own(
    tmp_path: Path,
) -> None:
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        mine = FILES["pkg/a.py"] + EARLIER + "mine: bytes = 1\n"
        stop = stopped_after(warm, root / "pkg/a.py", mine)
        assert codes(stop) == [("pkg/a.py", 4, "reportAssignmentType")]


async def turn_while_watching_starts(ws: Workspace, feedback: Feedback) -> dict[str, Any]:
    """The turn's answer, asked as the daemon's watch task starts the watcher."""
    watching = asyncio.ensure_future(ws.watch())
    await asyncio.sleep(0)  # it runs to its start: the watcher made, not running
    assert ws.watcher is not None and not ws.watcher.running
    began = await feedback.answer(TURN)
    assert await watching
    return began


def test_a_turn_begun_while_the_watcher_starts_awaits_it(tmp_path: Path) -> None:
    """A prompt hook in a daemon's first seconds: its watcher, begun at the sentinel, is not
    running yet. The turn's start awaits it (`turn_start.WATCH_S`), so the earlier turn's
    error is set aside; before, nothing was recorded and the stop said it could not be."""
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs"):
        warm.ws.will_watch()  # as the daemon, before its servers start
        feedback = Feedback(warm.ws)
        assert warm.run(turn_while_watching_starts(warm.ws, feedback))["since"] is not None
        (root / "pkg/b.py").write_text(FILES["pkg/b.py"] + "later: str = one()\n")
        stop = warm.run(feedback.answer(STOP))
        warm.run(feedback.close())
        assert (stop["held_before"], stop["held_unknown"]) == (1, False)
        assert codes(stop) == [("pkg/b.py", 4, "reportAssignmentType")]


def test_a_daemon_started_mid_turn_says_what_it_could_not_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn began under another daemon (`daemon/turns.py`), its start not kept (past
    the cap): no `Before` was taken, so every error is counted, and the stop gate says the
    earlier ones could not be told apart. (Kept: tests/daemon/test_feedback_before_kept.py.)"""
    monkeypatch.setattr(turns, "MAX_BYTES", 16)
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        first = Feedback(warm.ws)
        warm.run(first.answer(TURN))
        warm.run(first.close())
        again = Feedback(warm.ws)  # the next daemon: the turn's start read from the state dir
        b = root / "pkg/b.py"
        b.write_text(FILES["pkg/b.py"] + "later: str = one()\n")
        stop = warm.run(again.answer(STOP))
        assert stop["held_unknown"] is True
        said = stop_output(stop, 120.0)
        assert said is not None and said["decision"] == "block"
        assert "could not be set aside" in said["reason"]
        warm.run(again.close())


def test_a_file_touched_in_the_turn_its_bytes_the_same_is_no_change(tmp_path: Path) -> None:
    """`touch` moves a file's modification time, and the watcher is not told (no write):
    before, such a file (written since the turn began, by its mtime, and not seen) made the
    turn's start unknown, so nothing was set aside and the earlier turn's error blocked.
    Its text is its text then (the recorded one, pkg/a.py; the commit's, pkg/__init__.py)."""
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        later = FILES["pkg/b.py"] + "later: str = one()\n"
        turn_then(warm, feedback, root / "pkg/b.py", later)
        for name in ("pkg/a.py", "pkg/__init__.py"):
            os.utime(root / name)  # now
        stop = warm.run(feedback.answer(STOP))
        warm.run(feedback.close())
        assert (stop["complete"], stop["held_before"], stop["held_unknown"]) == (True, 1, False)
        assert codes(stop) == [("pkg/b.py", 4, "reportAssignmentType")]


def test_a_configuration_written_again_with_its_bytes_the_same_is_no_change(
    tmp_path: Path,
) -> None:
    """The watcher sees the write, but the configuration's text is its text then (the
    commit's): before, any configuration written in the turn set nothing aside."""
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        turn_then(warm, feedback, root / "pyproject.toml", FILES["pyproject.toml"])
        (root / "pkg/b.py").write_text(FILES["pkg/b.py"] + "later: str = one()\n")
        stop = warm.run(feedback.answer(STOP))
        warm.run(feedback.close())
        assert (stop["complete"], stop["held_before"], stop["held_unknown"]) == (True, 1, False)
        assert codes(stop) == [("pkg/b.py", 4, "reportAssignmentType")]


def test_a_file_made_before_the_turns_before_is_taken_is_held_absent(tmp_path: Path) -> None:
    """A file the turn made (absent at the commit and at the turn's start): held absent, so
    its error is the turn's; the earlier one is not."""
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        made = "from pkg.a import one\n\nnew: str = one()\n"
        stop = stopped_after(warm, root / "pkg/c.py", made)
        assert codes(stop) == [("pkg/c.py", 3, "reportAssignmentType")]


@pytest.mark.parametrize("added", ['dependencies = ["attrs"]\n', "# a comment\n"])
def test_a_root_pyproject_edit_configuring_no_checker_sets_the_earlier_error_aside(
    tmp_path: Path, added: str
) -> None:
    """The root pyproject.toml's `[project]` edited (or a comment): what the checkers read
    of it is the same (`config_parts.same_settings`), so the turn's start is replayed as
    for a source edit. Before, any configuration edited in the turn set nothing aside."""
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        turn_then(warm, feedback, root / "pyproject.toml", FILES["pyproject.toml"] + added)
        (root / "pkg/b.py").write_text(FILES["pkg/b.py"] + "later: str = one()\n")
        stop = warm.run(feedback.answer(STOP))
        warm.run(feedback.close())
        assert (stop["complete"], stop["held_before"], stop["held_unknown"]) == (True, 1, False)
        assert codes(stop) == [("pkg/b.py", 4, "reportAssignmentType")]


def test_a_configuration_edited_before_the_turns_before_is_taken_is_replayed_too(
    tmp_path: Path,
) -> None:
    """A checker's configuration edited in the turn (pyproject.toml's `[tool.pyright]`): the
    turn's start is made under its text then, as HEAD's state under HEAD's configuration
    (`ops/turn_configured.py`: basedpyright rooted at a copy), and the earlier turn's error
    is set aside. Before, nothing was: the stop blocked for pkg/a.py's error too and said
    it could not be set aside. (Its `[tool.pyright]` at HEAD: the stop's check compares
    under the commit's configuration.)"""
    read = FILES["pyproject.toml"] + '\n[tool.pyright]\nreportMissingModuleSource = "warning"\n'
    root = committed(written(tmp_path / "p", {**FILES, "pyproject.toml": read}))
    (root / "pkg/a.py").write_text(FILES["pkg/a.py"] + EARLIER)  # before the turn
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        config = root / "pyproject.toml"
        turn_then(warm, feedback, config, read.replace('"warning"', '"error"'))
        (root / "pkg/b.py").write_text(FILES["pkg/b.py"] + "later: str = one()\n")
        stop = warm.run(feedback.answer(STOP))
        warm.run(feedback.close())
        assert (stop["complete"], stop["held_before"], stop["held_unknown"]) == (True, 1, False)
        assert codes(stop) == [("pkg/b.py", 4, "reportAssignmentType")]
        said = stop_output(stop, 120.0)
        assert said is not None and "pkg/a.py" not in said["reason"]


def test_a_file_the_watcher_did_not_see_written_in_the_turn_sets_nothing_aside(
    tmp_path: Path,
) -> None:
    """A source file written since the turn began (its modification time says so) that the
    watcher did not count (here its count forgotten, as an overflowed queue would): its
    text then is not known, so nothing is set aside, and the stop gate says so."""
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        b = root / "pkg/b.py"
        turn_then(warm, feedback, b, FILES["pkg/b.py"] + "later: str = one()\n")
        del warm.ws.changed_at[b]  # the watcher's miss
        agent = feedback.sessions["s"]
        task = agent.before_task
        assert task is not None

        warm.run(asyncio.wait_for(task, 120))
        assert agent.before is None
        warm.run(feedback.close())


def test_a_typescript_edit_before_the_turns_before_is_taken_blocks_for_its_errors_alone(
    tmp_path: Path,
) -> None:
    """The same on TypeScript's builder: the turn start's state is the builder's run over
    a host serving the edited file's text then; the edit's errors in it and in its importers
    block, the earlier turn's error in src/more.ts (an importer too) does not."""
    root = committed(copy_fixture("ts", tmp_path))
    more = root / "src/more.ts"
    more.write_text(more.read_text() + '\nexport const earlier: number = "x";\n')
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        shapes = root / "src/shapes.ts"
        broken = shapes.read_text().replace("add(a: number", "add(a: string")
        stop = stopped_after(warm, shapes, broken)
        assert sorted(codes(stop)) == [
            ("src/main.ts", 3, "2345"),
            ("src/more.ts", 3, "2345"),  # its call of `add` the edit broke: the turn's
            ("src/shapes.ts", 22, "2322"),
        ]
