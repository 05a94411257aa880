"""A daemon started mid-turn (an `lspd restart`, an upgrade, a crash) sets aside what the
work tree held as the turn began, from the turn's start its predecessor kept in the state
directory (`daemon/turns.py`): the files whose text is not their text then (compared by
content: no watcher of its own saw them written) held at their texts then. Before, it set
nothing aside (`held_unknown`) and blocked the agent for the earlier turn's error too.
Real git repositories, basedpyright and TypeScript's builder, two workspaces one after the
other (the daemons), the turn's edits written while none runs."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from lspd.cli.hook import stop_output
from lspd.daemon import turns
from lspd.daemon.feedback import Feedback
from lspd.dirs import state_dir
from lspd.ops import turn_start
from lspd.ops.progressive import Before
from lspd.workspace import Workspace
from tests.conftest import copy_fixture, warm_root
from tests.daemon.test_feedback_before import EARLIER, FILES, STOP, TURN, codes, project
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed


def restarted(
    root: Path, logs: Path, edits: dict[Path, str | None], lost: bool = False
) -> dict[str, Any]:
    """The stop's answer of a daemon started after the turn began under another one, which
    stopped before the turn's `edits` were written (None: deleted). `lost`: turns.json lost
    the session's line (two prompts at once wrote it), its start kept all the same."""
    [stop] = answered(root, logs, edits, [[STOP]], lost)
    assert (stop["complete"], stop["held_unknown"]) == (True, False)
    return stop


def answered(
    root: Path,
    logs: Path,
    edits: dict[Path, str | None],
    asked: list[list[dict[str, Any]]],
    lost: bool = False,
) -> list[dict[str, Any]]:
    """The answers of the daemon started after the turn's `edits` (`restarted`) to the hook
    calls `asked`, one list after the other, the calls of each list at once."""
    for warm in warm_root(root, logs / "first", watch=True):
        first = Feedback(warm.ws)
        warm.run(first.answer(TURN))
        warm.run(first.close())
    if lost:
        (state_dir(root) / turns.FILE).unlink()
    for path, text in edits.items():
        if text is None:
            path.unlink()
        else:
            path.write_text(text)
    said: list[dict[str, Any]] = []
    for warm in warm_root(root, logs / "next", watch=True):
        again = Feedback(warm.ws)
        for calls in asked:
            said += warm.run(at_once(again, calls))
        warm.run(again.close())
    return said


def test_a_daemon_restarted_mid_turn_sets_aside_the_earlier_turns_error(
    tmp_path: Path,
) -> None:
    """pkg/a.py held the earlier turn's error at the prompt (recorded); the turn broke
    pkg/b.py, and touched pkg/a.py (its mtime moved, its bytes the same: no change)."""
    root = project(tmp_path / "p")
    a, b = root / "pkg/a.py", root / "pkg/b.py"
    later = FILES["pkg/b.py"] + "later: str = one()\n"
    stop = restarted(root, tmp_path / "logs", {b: later, a: a.read_text()})
    assert stop["held_before"] == 1
    assert codes(stop) == [("pkg/b.py", 4, "reportAssignmentType")]
    said = stop_output(stop, 120.0)
    assert said is not None and said["decision"] == "block"
    assert "pkg/a.py" not in said["reason"] and "set aside" not in said["reason"]


@pytest.mark.parametrize("lost", [False, True])
def test_a_file_deleted_mid_turn_under_no_daemon_is_the_turns(tmp_path: Path, lost: bool) -> None:
    """A deletion leaves no modification time: the content's comparison with the turn's
    start finds it, and its importer's error is the turn's; the earlier one is not. With
    turns.json's line lost, the start's own time is the turn's (before: nothing was
    compared, the stop let the broken importer through)."""
    importer = FILES["pkg/b.py"] + "from pkg.c import two\n"
    more = {**FILES, "pkg/b.py": importer, "pkg/c.py": "def two() -> int:\n    return 2\n"}
    root = committed(written(tmp_path / "p", more))
    (root / "pkg/a.py").write_text(FILES["pkg/a.py"] + EARLIER)  # before the turn
    stop = restarted(root, tmp_path / "logs", {root / "pkg/c.py": None}, lost)
    assert (stop["held_before"], stop["compared"]) == (1, 2)
    assert sorted(codes(stop)) == [
        ("pkg/b.py", 4, "reportMissingImports"),
        ("pkg/b.py", 4, "reportUnknownVariableType"),  # `two`, not found
    ]


def test_a_typescript_daemon_restarted_mid_turn_blocks_for_the_turns_errors_alone(
    tmp_path: Path,
) -> None:
    """TypeScript's builder: the edit's errors in src/shapes.ts and its importers block, the
    earlier turn's error in src/more.ts (uncommitted at the prompt) does not."""
    root = committed(copy_fixture("ts", tmp_path))
    more = root / "src/more.ts"
    more.write_text(more.read_text() + '\nexport const earlier: number = "x";\n')
    shapes = root / "src/shapes.ts"
    broken = shapes.read_text().replace("add(a: number", "add(a: string")
    stop = restarted(root, tmp_path / "logs", {shapes: broken})
    assert stop["held_before"] == 1
    assert sorted(codes(stop)) == [
        ("src/main.ts", 3, "2345"),
        ("src/more.ts", 3, "2345"),
        ("src/shapes.ts", 22, "2322"),
    ]


async def at_once(feedback: Feedback, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(await asyncio.gather(*(feedback.answer(call) for call in calls)))


@pytest.mark.parametrize("event", ["edit", "late"])
def test_an_edit_hook_of_a_daemon_restarted_mid_turn_tells_the_turns_error_alone(
    tmp_path: Path, event: str
) -> None:
    """The edit's hook (and its background one) is the first call the next daemon sees of
    the session: it resumes the turn as the stop does, and waits for its Before before it
    tells. Before, it told the earlier turn's error in pkg/a.py as this edit's."""
    root = project(tmp_path / "p")
    a = root / "pkg/a.py"
    mine = FILES["pkg/a.py"] + EARLIER + "mine: bytes = 1\n"
    edit = {**STOP, "event": event, "paths": ["pkg/a.py"], "first": 0.0}
    told, stop = answered(root, tmp_path / "logs", {a: mine}, [[edit], [STOP]])
    assert told["complete"] is True
    assert codes(told) == [("pkg/a.py", 4, "reportAssignmentType")]
    assert codes(stop) == [("pkg/a.py", 4, "reportAssignmentType")]
    assert (stop["held_before"], stop["held_unknown"]) == (1, False)


def test_two_stops_at_once_of_a_session_never_seen_take_one_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both resume the turn its predecessor kept; the second awaits the first's resuming,
    so the turn's Before (a whole check and a replay) is taken once. Before, twice."""
    taken: list[Path] = []  # by the next daemon (the first's start is not `kept`)
    held_then = turn_start.held_then

    async def counted(ws: Workspace, start: turn_start.TurnStart, *rest: Any) -> Before | None:
        taken.extend([ws.root] if start.kept else [])
        return await held_then(ws, start, *rest)

    monkeypatch.setattr(turn_start, "held_then", counted)
    root = project(tmp_path / "p")
    b = root / "pkg/b.py"
    later = FILES["pkg/b.py"] + "later: str = one()\n"
    stops = answered(root, tmp_path / "logs", {b: later}, [[STOP, STOP]])
    assert taken == [root]
    for stop in stops:
        assert codes(stop) == [("pkg/b.py", 4, "reportAssignmentType")]
        assert (stop["held_before"], stop["held_unknown"]) == (1, False)


def test_the_late_hook_tells_the_edits_error_before_the_rest_of_before_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the edited file held as the turn began is taken first (the replay asking it
    alone), so the background hook tells the edit's error while the whole replay (every
    importer of the edited file asked again) is still to come. Before, it waited for the
    whole: on trio after a cold restart 55-146 s after the edit, and here the test's 20."""
    released = asyncio.Event()  # the whole replay held back until the late hook answered
    overlaid_state = turn_start.overlaid_state

    async def held_back(ws: Workspace, texts: Any, checked: Any, only: Any = None) -> Any:
        if only is None:
            await released.wait()
        return await overlaid_state(ws, texts, checked, only)

    monkeypatch.setattr(turn_start, "overlaid_state", held_back)
    root = project(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs" / "first", watch=True):
        first = Feedback(warm.ws)
        warm.run(first.answer(TURN))
        warm.run(first.close())
    (root / "pkg/a.py").write_text(FILES["pkg/a.py"] + EARLIER + "mine: bytes = 1\n")
    late = {**STOP, "event": "late", "paths": ["pkg/a.py"], "first": 0.0, "wait": 20.0}
    for warm in warm_root(root, tmp_path / "logs" / "next", watch=True):
        again = Feedback(warm.ws)
        told = warm.run(again.answer(late))
        assert codes(told) == [("pkg/a.py", 4, "reportAssignmentType")]
        agent = again.sessions["s"]
        assert (agent.before, agent.part_of) == (None, frozenset({"pkg/a.py"}))
        released.set()
        stop = warm.run(again.answer(STOP))
        assert codes(stop) == [("pkg/a.py", 4, "reportAssignmentType")]
        assert (stop["held_before"], stop["held_unknown"]) == (1, False)
        warm.run(again.close())
