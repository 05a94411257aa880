"""An agent session as the hook checks of `daemon/feedback.py` saw it, and their answers:
the files changed since its turn began, what its check found that it was not told, what a
hook is answered (`describe`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lspd.daemon.hook_history import History, new_history
from lspd.daemon.hook_loading import restarted, still_loading
from lspd.engine.revisions import is_configuration
from lspd.ops.check import running
from lspd.ops.models import FileDiagnostic
from lspd.ops.progressive import NOTHING_BEFORE, Before, Introduced, Key, Progress
from lspd.ops.turn_start import TurnStart
from lspd.workspace import Workspace


@dataclass
class AgentSession:
    """One agent session, as its hooks have seen it."""

    edited: set[Path] = field(default_factory=set)  # every file it edited
    since: int | None = None  # the workspace's change count when its turn began
    check: Progress | None = None  # its latest check
    task: asyncio.Task[None] | None = None
    reported: set[Key] = field(default_factory=set)  # findings it was told
    told_loading: bool = False
    last_block: frozenset[Key] | None = None  # the errors its last stop was blocked for
    last_unknown: frozenset[str] = frozenset()  # what it was told is not checked then
    history: History = field(default_factory=new_history)  # its hook calls (status page)
    before: Before | None = None  # what the work tree held when its turn began
    before_task: asyncio.Task[None] | None = None  # `before` being taken
    part: Before | None = None  # of `before`, the findings of `part_of` (taken first)
    part_of: frozenset[str] = frozenset()  # the files (as shown) `part` knows the findings of
    parted: asyncio.Event = field(default_factory=asyncio.Event)  # `part` is there
    start: TurnStart | None = None  # what differed from the baseline as its turn began
    turned: bool = False  # a turn's start is known (its prompt hook, or a daemon before)

    def held(self, baseline: str, part: bool = False) -> Before:
        """What its turn found held against `baseline` (nothing, when it was not taken);
        with `part`, what it found first (the findings of `part_of` alone) meanwhile."""
        before = self.before or (self.part if part else None)
        return before if before is not None and before.baseline == baseline else NOTHING_BEFORE

    def parted_in(self, files: set[str]) -> bool:
        """Whether what the turn began with is known of `files`' findings."""
        return self.before is not None or (self.part is not None and files <= self.part_of)

    def scope(self, paths: list[Path]) -> list[Path]:
        """The files an edit's check covers: the edited ones, and those its unfinished
        check had left (the new check replaces it)."""
        scope = set(paths)
        if self.check is not None and not self.check.done.is_set():
            scope |= set(self.check.edited)
        self.edited |= set(paths)
        return sorted(scope)

    def first(self) -> set[Path]:
        """The files whose findings its hooks tell: `Before`'s part taken first."""
        check = self.check
        return self.edited | ({i.file for i in check.introduced} if check else set())

    def part_taker(self) -> Callable[[Before, frozenset[str]], None]:
        """`part` forgotten; what sets it while the turn is the same (`since`)."""
        since, self.part, self.parted = self.since, None, asyncio.Event()

        def taken(part: Before, files: frozenset[str]) -> None:
            if self.since == since:
                self.part, self.part_of = part, files
                self.parted.set()

        return taken

    def stopped(self, errors: frozenset[Key], unknown: frozenset[str], partial: bool) -> bool:
        """Whether a stop finding `errors` (or, none found, what is `unknown`: a check that
        failed, a checker stopped at a syntax error) is blocked for the same as the last one
        (then it goes), remembered for the next. Out of time (`partial`), what was found so
        far proves nothing fixed: errors all among those blocked for are not news, and
        those stay remembered whole (with any new one)."""
        blocked = self.last_block or frozenset()
        if errors and partial:
            repeat = errors <= blocked
        elif errors:
            repeat = errors == self.last_block and unknown <= self.last_unknown
        else:
            repeat = bool(unknown) and unknown == self.last_unknown
        self.last_block = (blocked | errors if partial else errors) or None
        if not partial:  # out of time, no stop is known: the last one stays remembered
            self.last_unknown = unknown
        return repeat


async def awaited(agent: AgentSession, files: set[str] | None, wait: float) -> None:
    """Until what the session's turn began with is taken, or (`files`) what it held of
    those files' findings, taken first (`AgentSession.part`), for at most `wait` seconds."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(_parted(agent, files), max(wait, 0.0))


async def _parted(agent: AgentSession, files: set[str] | None) -> None:
    while (task := agent.before_task) is not None and not task.done():
        if files is not None and agent.parted_in(files):
            return
        parted = asyncio.ensure_future(agent.parted.wait())
        try:  # `parted` once set (another part) leaves the task alone to wait for
            waits = {task} if agent.parted.is_set() else {task, parted}
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            parted.cancel()


async def changes_now(ws: Workspace) -> int | None:
    """The workspace's change count once the watcher has told every change made before
    (None without a watcher: then nothing but the named edits is known)."""
    if ws.watcher is not None and ws.watcher.running:
        await ws.watcher.catch_up()
    return ws.changes_seen


async def changed_since(ws: Workspace, agent: AgentSession | None) -> set[Path]:
    """The source files of the root the watcher saw change since the session's turn
    began, whoever wrote them: deleted ones too (their importers break)."""
    now = await changes_now(ws)
    if agent is None or agent.since is None or now is None:
        return set()
    changed = {p for p, n in ws.changed_at.items() if n > agent.since}
    return {p for p in changed if p.is_relative_to(ws.root) and _proved(ws, p)}


def _proved(ws: Workspace, path: Path) -> bool:
    """Whether a changed file is one a check proves: a source file of a served language,
    a checker's configuration, a JSON a program may import (`resolveJsonModule`); not a
    log or a lock file the watcher saw written."""
    known = ws.handler(path) is not None or path.suffix == ".json"
    return known or is_configuration(path)


def untold(ws: Workspace, agent: AgentSession) -> list[Introduced]:
    """What the session's check found that still holds and it was not told (now it
    is); findings it was told that a later comparison no longer found are forgotten,
    so the same error coming back is told again."""
    check = agent.check
    if check is None:
        return []
    if check.done.is_set() and check.failed is None and not check.changed:
        agent.reported.clear()  # its edits are undone: an error coming back is news
    for path, keys in check.keys.items():
        shown = ws.display(path)
        agent.reported -= {k for k in agent.reported if k[0] == shown and k not in keys}
    held = agent.held(check.baseline, part=True).found  # there when its turn began: not news
    untold = [
        i
        for i in check.introduced
        if i.key not in agent.reported and i.key not in held and check.current(i)
    ]
    agent.reported |= {i.key for i in untold}
    return untold


def aside(check: Progress, before: Before) -> frozenset[str]:
    """The checkers' stops of `check` not told: those its turn began with, and a
    configuration's options error the baseline stopped at too (a jsconfig's TS5102 at HEAD
    blocked the stop gate after a tsconfig edit: the turn's start replayed with the
    tsconfig's text then says no configuration's stop; `check --baseline HEAD`: 0 new)."""
    return before.stops | check.stops_then


def describe(
    ws: Workspace, check: Progress, found: list[Introduced], before: Before = NOTHING_BEFORE
) -> dict[str, Any]:
    """The answer: what was found, the checkers' stops but those `before` its turn, and
    while the check runs, how far the whole check is (`checking`: files answered of the
    gate's; HEAD's result made first, when it was not kept, so a cold workspace's first
    check takes a while)."""
    complete = check.done.is_set() and check.failed is None
    loading, checking = None, None
    if not complete and check.compared == 0 and (starting := still_loading(ws, check.edited)):
        since = round(time.monotonic() - ws.started)
        loading = {"servers": starting, "seconds": since}
        if (again := restarted(ws, check.edited)) is not None:
            loading["restarted"] = round(time.monotonic() - again)
    if not check.done.is_set() and (whole := running(ws)) is not None:
        checking = {"done": whole.done, "total": whole.total}
    return {
        "baseline": check.baseline,
        "complete": complete,
        "failed": check.failed,
        # a comparison failed: the errors the edited files hold (not known to be new)
        "now": [as_json(d) for d in check.now] if check.failed is not None else [],
        "stopped": [
            said
            for said, key in zip(check.stopped, check.stop_keys, strict=True)
            if key not in aside(check, before)
        ],
        "introduced": [dump(i) for i in found],
        "compared": check.compared,
        "total": check.total if check.changed else None,
        "remaining_count": 0 if checking is None else checking["total"] - checking["done"],
        "checking": checking,
        "loading": loading,
        "elapsed": round(time.monotonic() - check.began, 2),
    }


def dump(item: Introduced) -> dict[str, Any]:
    return as_json(item.diagnostic)


def as_json(diagnostic: FileDiagnostic) -> dict[str, Any]:
    return diagnostic.model_dump(mode="json", exclude_none=True)
