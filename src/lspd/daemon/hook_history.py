"""What each agent session's hooks were told, for the status page: its last `MAX_EVENTS`
hook calls (edits, late findings, stops), kept beside the session in `Feedback`."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any

MAX_EVENTS = 50  # hook calls remembered per agent session
MAX_TOLD = 20  # findings kept per call


@dataclass(frozen=True, slots=True)
class HookEvent:
    """One hook call of an agent session and its answer."""

    at: float  # wall-clock time it was answered
    event: str  # edit, late or stop
    paths: tuple[str, ...]  # the files edited (an edit), as the user reads them
    told: tuple[str, ...]  # what it was told: `path:line:col severity message`
    complete: bool  # the check covered everything it had to
    decision: str | None  # a stop's: blocked, or let go (and why)


History = deque[HookEvent]


def new_history() -> History:
    return deque(maxlen=MAX_EVENTS)


def remember(history: History, event: str, paths: list[str], answer: dict[str, Any]) -> None:
    """Add a hook call's `answer` (`Feedback.answer`'s) to the session's history."""
    found = [*answer.get("late", []), *answer.get("introduced", [])]
    told = tuple(_finding(d) for d in found[:MAX_TOLD])
    decision = None
    if event == "stop":
        errors = sum(1 for d in answer.get("introduced", []) if d.get("severity") == "error")
        if errors and answer.get("repeat"):
            decision = f"let go: the same {errors} error(s) it was blocked for"
        elif errors:
            decision = f"blocked: {errors} error(s) introduced"
        elif answer.get("failed"):
            again = answer.get("repeat")
            decision = "let go: the check failed again" if again else "blocked: the check failed"
        elif answer.get("stopped"):
            again = answer.get("repeat")
            decision = "let go: stopped again" if again else "blocked: a checker stopped"
        else:
            decision = "let go" if answer.get("complete") else "let go: the check did not finish"
    complete = bool(answer.get("complete"))
    history.append(HookEvent(time.time(), event, tuple(paths), told, complete, decision))


def _finding(diagnostic: dict[str, Any]) -> str:
    where = f"{diagnostic.get('path')}:{diagnostic.get('line')}:{diagnostic.get('column')}"
    return f"{where} {diagnostic.get('severity')} {diagnostic.get('message', '')}"[:300]
