"""What the status page says of each hook call: the findings told and a stop's decision."""

from __future__ import annotations

from lspd.daemon.hook_history import MAX_EVENTS, new_history, remember

ERROR = {"path": "a.py", "line": 3, "column": 5, "severity": "error", "message": "boom"}
WARNING = {**ERROR, "severity": "warning", "message": "meh"}


def test_an_edit_keeps_what_it_was_told_late_findings_first() -> None:
    history = new_history()
    answer = {"complete": False, "introduced": [ERROR], "late": [WARNING]}
    remember(history, "edit", ["a.py"], answer)
    [event] = history
    assert (event.event, event.paths, event.complete) == ("edit", ("a.py",), False)
    assert event.told == ("a.py:3:5 warning meh", "a.py:3:5 error boom")
    assert event.decision is None


def test_a_stop_says_whether_it_blocked() -> None:
    history = new_history()
    remember(history, "stop", [], {"complete": True, "introduced": [ERROR], "repeat": False})
    remember(history, "stop", [], {"complete": True, "introduced": [ERROR], "repeat": True})
    remember(history, "stop", [], {"complete": False, "introduced": [WARNING]})
    remember(history, "stop", [], {"complete": True, "introduced": []})
    failed = {"complete": False, "introduced": [], "failed": "MypyFailed: mypy failed"}
    remember(history, "stop", [], {**failed, "repeat": False})
    remember(history, "stop", [], {**failed, "repeat": True})
    assert [e.decision for e in history] == [
        "blocked: 1 error(s) introduced",
        "let go: the same 1 error(s) it was blocked for",
        "let go: the check did not finish",
        "let go",
        "blocked: the check failed",
        "let go: the check failed again",
    ]


def test_the_history_is_bounded() -> None:
    history = new_history()
    for i in range(MAX_EVENTS + 3):
        remember(history, "edit", [f"f{i}.py"], {"complete": True})
    assert len(history) == MAX_EVENTS and history[0].paths == ("f3.py",)
