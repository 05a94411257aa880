"""The hook on a TypeScript project (`daemon/feedback.py`): the check is the project's own
TypeScript builder's, so once that builder checked the tsconfig no hook says the servers
load (tsserver, asked for no file, never loads a project and was taken for loading on
mongodb 7.9.0, "224 s since it started"); an edit whose check outlasts its budget is told
so at every hook, the loading note included once, never silence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lspd.cli.hook import edit_output
from lspd.daemon.feedback import Feedback
from lspd.ops.check import workspace_diagnostics
from tests.conftest import Warm, copy_fixture, warm_root
from tests.ops.test_baseline import committed

STILL = "lspd: still checking"


def edited(root: Path) -> dict[str, Any]:
    """`add` takes a string: its body returns one, and its two callers pass numbers."""
    shapes = root / "src/shapes.ts"
    shapes.write_text(shapes.read_text().replace("add(a: number", "add(a: string"))
    return {"event": "edit", "session": "s", "paths": ["src/shapes.ts"], "baseline": "HEAD"}


def note(answer: dict[str, Any]) -> str:
    """What the model reads of an answer (Codex's shape: the text alone)."""
    told = edit_output("codex", answer, 3.0)
    assert told is not None, answer
    return str(told["hookSpecificOutput"]["additionalContext"])


def test_an_edit_past_its_budget_is_told_not_called_loading(tmp_path: Path) -> None:
    root = committed(copy_fixture("ts", tmp_path))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))  # the builder checked it
        feedback = Feedback(warm.ws)
        request = edited(root)
        for _ in range(2):
            answer = warm.run(feedback.answer({**request, "wait": 0.0}))
            assert answer.get("loading") is None and not answer.get("quiet")
            assert answer["complete"] or note(answer).startswith(STILL)
        answer = warm.run(feedback.answer({**request, "wait": 120.0}))
        assert answer["complete"] is True
        told = [*answer["late"], *answer["introduced"]]
        assert {(i["path"], i["line"], i["code"]) for i in told} == {
            ("src/shapes.ts", 22, "2322"),
            ("src/main.ts", 3, "2345"),
            ("src/more.ts", 3, "2345"),
        }


def test_loading_is_told_once_then_the_unfinished_check(tmp_path: Path) -> None:
    root = committed(copy_fixture("ts", tmp_path))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        loading_said_once(warm, edited(root), "typescript builder for tsconfig.json")


def loading_said_once(warm: Warm, request: dict[str, Any], server: str) -> None:
    """The hook's first answer says `server` loads; the next one says the check runs."""
    feedback = Feedback(warm.ws)
    first = warm.run(feedback.answer({**request, "wait": 0.0}))
    assert first["loading"]["servers"] == [server]
    assert note(first).startswith(f"lspd is loading {server} (")
    second = warm.run(feedback.answer({**request, "wait": 0.0}))
    assert second.get("loading") is None and not second.get("quiet")
    assert second["complete"] or note(second).startswith(STILL)
    warm.run(feedback.close())
