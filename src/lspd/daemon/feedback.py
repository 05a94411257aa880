"""What an agent's hooks are told, per agent session (`POST /hook`).

`lspd hook` is a short process with a budget of seconds; the check it asks for may need
more. So the check runs here (`lspd.ops.progressive_kept`: the engine's incremental whole
check against the baseline's kept result, as `lspd check --baseline`; before HEAD's result
is kept, that result's making, whose progress the hook tells), and goes on after the hook
has returned. What it finds later is told once, at the same agent session's next hook call
(keyed by the payload's `session_id`), unless the edit was undone or redone since. The
stop gate compares every file the session changed, completely if its budget allows: those
its edit hooks named, and every file the watcher saw change since its turn began (the
`turn` event, the agent's prompt hook; else its first hook call; a turn a daemon before
this one saw: `daemon/turns.py`), so a file a shell command wrote (`sed -i`, `git apply`,
`mv`, a formatter) is proved too; the errors (and checker stops) the work tree already held
against the baseline when the turn began are not the turn's: set aside (`Before`, taken in
the background at the turn's start: the files changed before it was taken held at their
texts then, `ops/turn_start.py`; where that is unsound, nothing, and the stop says so); it
never blocks twice for the same unchanged errors (the same set of the engine's keys, which
no line shift changes), whether or not the agent says its stop was blocked before; a check
that failed, or whose checker stopped at a syntax error (tsc, mypy: nothing else was
checked), blocks once, said as such, never as "no error".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lspd.daemon import turns
from lspd.daemon.hook_history import History, new_history, remember
from lspd.daemon.hook_loading import still_loading
from lspd.engine.revisions import is_configuration
from lspd.ops import progressive_kept, turn_start
from lspd.ops.check import running
from lspd.ops.models import FileDiagnostic
from lspd.ops.progressive import NOTHING_BEFORE, Before, Introduced, Key, Progress
from lspd.ops.turn_start import TurnStart
from lspd.tools import Activity
from lspd.workspace import Workspace

log = logging.getLogger(__name__)
MAX_SESSIONS = 64  # agent sessions remembered (the oldest is forgotten first)
MAX_WAIT_S = 600.0


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
    start: TurnStart | None = None  # what differed from the baseline as its turn began
    turned: bool = False  # a turn's start is known (its prompt hook, or a daemon before)

    def held(self, baseline: str) -> Before:
        """What its turn found held against `baseline` (nothing, when it was not taken)."""
        before = self.before
        return before if before is not None and before.baseline == baseline else NOTHING_BEFORE

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


class Feedback:
    """The hook checks of a workspace's agent sessions."""

    def __init__(self, ws: Workspace, activity: Activity | None = None) -> None:
        self.ws = ws
        self.activity = activity or Activity()  # a running check keeps the servers up
        self.sessions: dict[str, AgentSession] = {}

    async def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """`request`: `event` (`turn`, `edit`, `late` or `stop`), `session`, `baseline`,
        `wait` (seconds), `paths` (edited, relative to the root; `edit`)."""
        event = request.get("event")
        session = str(request.get("session") or "-")
        baseline = str(request.get("baseline") or "HEAD")
        wait = min(max(float(request.get("wait", 3.0)), 0.0), MAX_WAIT_S)
        paths = [self.ws.resolve(str(p)) for p in request.get("paths", [])]
        if event == "turn":
            answer = await self.turn(session, baseline)
        elif event == "edit":
            answer = await self.edit(session, paths, baseline, wait)
        elif event == "late":
            first = min(max(float(request.get("first", 3.0)), 0.0), MAX_WAIT_S)
            answer = await self.late(session, paths, baseline, wait, first)
        elif event == "stop":
            answer = await self.stop(session, baseline, wait)
        else:
            raise ValueError(f"`event` {event!r} is not one of turn, edit, late, stop")
        if (agent := self.sessions.get(session)) is not None:
            remember(agent.history, event, [self.ws.display(p) for p in paths], answer)
        return answer

    async def turn(self, session: str, baseline: str) -> dict[str, Any]:
        """A turn of the session begins (the agent's prompt hook): what changes from now on,
        by any tool, is its stop gate's to prove; what changed before is not its work, nor
        are the errors the work tree holds now (`Before`, taken in the background)."""
        agent = self._agent(session)
        agent.turned, agent.start = True, await turn_start.record(self.ws, baseline)  # cheap
        agent.since = await self._changes_now() if agent.start is None else agent.start.changes
        if agent.before_task is not None:
            agent.before_task.cancel()
        agent.before = None
        if agent.since is not None:  # a watcher tells whether a change came meanwhile
            agent.before_task = asyncio.create_task(self._take_before(agent, baseline))
        await asyncio.to_thread(turns.remember, self.ws.root, session, time.time_ns())
        return {"since": agent.since}

    async def _take_before(self, agent: AgentSession, baseline: str) -> None:
        """`agent.before`: the work tree's errors against `baseline` as the turn began:
        with its start recorded, the turn's changes since held at their texts then
        (`ops/turn_start.py`); else kept only if nothing changed before the check had read
        every file. Not taken, the turn's stop counts every error (and says so), as before
        issue 40's mixed examiner (1b) found a session blocked for another's earlier edit."""
        since, start = agent.since, agent.start
        self.activity.in_flight += 1
        try:
            if start is not None:
                before = await turn_start.held_then(self.ws, start)
            else:
                found, stops = await progressive_kept.held_before(self.ws, baseline)
                before = Before(baseline, found, stops)
        except Exception:  # the stop gate counts everything then
            log.exception("the errors held at the turn's start were not taken")
            return
        finally:
            self.activity.in_flight -= 1
        if agent.since == since and (start is not None or not await self._changed_since(agent)):
            agent.before = before

    async def edit(
        self, session: str, paths: list[Path], baseline: str, wait: float
    ) -> dict[str, Any]:
        """Check the edited files (and any an unfinished check of this session had left),
        for at most `wait` seconds; first, what the session's last check found since."""
        agent = self._agent(session)
        late = _untold(self.ws, agent)
        check = await self._start(agent, self._scope(agent, paths), baseline, wait)
        answer = _describe(self.ws, check, _untold(self.ws, agent), agent.held(baseline))
        check.answered.set()  # now a background hook may tell what comes after
        check.told_stops |= answer["complete"]  # the answer said them (`cli/hook.py`)
        answer["late"] = [_dump(i) for i in late]
        loading = answer.pop("loading")
        if loading is not None and not agent.told_loading:
            agent.told_loading = True
            answer["loading"] = loading
        # Said once this session; after that an unfinished check is told as one (the
        # hook's still-checking note), never silence.
        return answer

    async def late(
        self, session: str, paths: list[Path], baseline: str, wait: float, first: float
    ) -> dict[str, Any]:
        """What the check of an edit finds after its hook answered (for a background hook
        that wakes the model with it): as soon as it holds an error the model was not told,
        or when it ends, within `wait` seconds. The edit's own hook goes first: nothing is
        taken before it answered or its `first` seconds are over. Nothing when a later
        edit's check took over (that one's hooks tell)."""
        began = time.monotonic()
        agent = self._agent(session)
        check = await self._start(agent, self._scope(agent, paths), baseline, 0.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(check.answered.wait(), first)
        found: list[Introduced] = []
        while agent.check is check:
            found = _untold(self.ws, agent)
            left = wait - (time.monotonic() - began)
            if (
                check.done.is_set()
                or left <= 0
                or any(i.diagnostic.severity == "error" for i in found)
            ):
                break
            agent.reported -= {i.key for i in found}  # warnings wait for the errors
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(check.batch.wait(), left)
        superseded = agent.check is not check
        answer = _describe(self.ws, check, [] if superseded else found, agent.held(baseline))
        if check.told_stops:  # its edit's hook answered complete, its stops said
            answer["stopped"] = []
        return {**answer, "superseded": superseded}

    def _scope(self, agent: AgentSession, paths: list[Path]) -> list[Path]:
        """The files an edit's check covers: the edited ones, and those the session's
        unfinished check had left (the new check replaces it)."""
        scope = set(paths)
        if agent.check is not None and not agent.check.done.is_set():
            scope |= set(agent.check.edited)
        agent.edited |= set(paths)
        return sorted(scope)

    async def stop(self, session: str, baseline: str, wait: float) -> dict[str, Any]:
        """Check every file the session edited, for at most `wait` seconds: its errors
        (all of them, told before or not), and whether the stop was blocked for the same
        at the session's last stop (`repeat`: then it goes). The same: the same errors, a
        check failing again, the same checker stops (`stopped`: it checked nothing else, so
        no error found proves nothing; the same by `stop_keys`, its errors whatever their
        lines); of a check that ran out of time, errors all among those.
        Claude Code's `stop_hook_active` is not asked: it is false again at the next turn's
        stop, with the errors unchanged."""
        agent = self.sessions.get(session)
        changed = await self._changed_since(agent)
        if agent is None and (start := turns.began(self.ws.root, session)) is not None:
            # its turn began under the daemon before this one: what was written since
            agent = self._agent(session)
            agent.turned = True  # what the tree held then is not known: nothing is set aside
            changed = await asyncio.to_thread(turns.written_since, self.ws, start)
        if agent is None or not (agent.edited or changed):
            return {"complete": True, "errors": [], "repeat": False, "compared": 0, "total": 0}
        agent.edited |= changed  # its work from now on, as a file its edit hook named
        began = time.monotonic()
        check = await self._start(agent, sorted(agent.edited), baseline, wait)
        before = await self._before(agent, baseline, wait - (time.monotonic() - began))
        found = [i for i in check.introduced if check.current(i)]
        current = [i for i in found if i.key not in before.found]
        answer = _describe(self.ws, check, current, before)
        answer.pop("loading")
        errors = frozenset(i.key for i in current if i.diagnostic.severity == "error")
        answer["held_before"] = sum(
            i.key in before.found and i.diagnostic.severity == "error" for i in found
        )
        answer["held_unknown"] = agent.turned and before.baseline != baseline  # none aside
        partial = not answer["complete"] and check.failed is None
        failed = check.failed is not None and not errors
        stops = set(check.stop_keys) - before.stops
        unknown = frozenset({"failed"} if failed else stops)  # a stop: no proof
        answer["repeat"] = agent.stopped(errors, unknown, partial)
        agent.reported |= {i.key for i in current}
        return answer

    async def _before(self, agent: AgentSession, baseline: str, wait: float) -> Before:
        """What the session's turn found held against `baseline`, once taken (for at most
        `wait` seconds: not taken by then, nothing is set aside)."""
        if (task := agent.before_task) is not None and not task.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), max(wait, 0.0))
        return agent.held(baseline)

    async def close(self) -> None:
        """Cancel the checks still running (the daemon is stopping)."""
        tasks = [a.task for a in self.sessions.values() if a.task is not None]
        tasks += [a.before_task for a in self.sessions.values() if a.before_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _changes_now(self) -> int | None:
        """The workspace's change count once the watcher has told every change made before
        (None without a watcher: then nothing but the named edits is known)."""
        if self.ws.watcher is not None and self.ws.watcher.running:
            await self.ws.watcher.catch_up()
        return self.ws.changes_seen

    async def _changed_since(self, agent: AgentSession | None) -> set[Path]:
        """The source files of the root the watcher saw change since the session's turn
        began, whoever wrote them: deleted ones too (their importers break)."""
        now = await self._changes_now()
        if agent is None or agent.since is None or now is None:
            return set()
        changed = {p for p, n in self.ws.changed_at.items() if n > agent.since}
        return {p for p in changed if p.is_relative_to(self.ws.root) and self._proved(p)}

    def _proved(self, path: Path) -> bool:
        """Whether a changed file is one a check proves: a source file of a served language,
        a checker's configuration, a JSON a program may import (`resolveJsonModule`); not a
        log or a lock file the watcher saw written."""
        known = self.ws.handler(path) is not None or path.suffix == ".json"
        return known or is_configuration(path)

    def _agent(self, session: str) -> AgentSession:
        agent = self.sessions.pop(session, None) or AgentSession(since=self.ws.changes_seen)
        self.sessions[session] = agent  # the most recent last
        while len(self.sessions) > MAX_SESSIONS:
            forgotten = self.sessions.pop(next(iter(self.sessions)))
            for task in (forgotten.task, forgotten.before_task):
                if task is not None:
                    task.cancel()
        return agent

    async def _start(
        self, agent: AgentSession, paths: list[Path], baseline: str, wait: float
    ) -> Progress:
        """The session's check of `paths`, awaited for at most `wait` seconds: the last one
        while it covers them and none of them changed since it began, else a new one (the
        unfinished one stops: the new one covers its files)."""
        check = agent.check
        if check is None or not check.covers(paths, baseline) or check.failed is not None:
            if agent.task is not None and not agent.task.done():
                agent.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await agent.task
            check = agent.check = Progress(baseline, paths)
            agent.task = asyncio.create_task(self._run(check))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(check.done.wait()), wait)
        return check

    async def _run(self, check: Progress) -> None:
        self.activity.in_flight += 1  # the daemon stops no idle server meanwhile
        try:
            await progressive_kept.run(self.ws, check)
        finally:
            self.activity.in_flight -= 1


def _untold(ws: Workspace, agent: AgentSession) -> list[Introduced]:
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
    held = agent.held(check.baseline).found  # there when its turn began: not news
    untold = [
        i
        for i in check.introduced
        if i.key not in agent.reported and i.key not in held and check.current(i)
    ]
    agent.reported |= {i.key for i in untold}
    return untold


def _describe(
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
    if not check.done.is_set() and (whole := running(ws)) is not None:
        checking = {"done": whole.done, "total": whole.total}
    return {
        "baseline": check.baseline,
        "complete": complete,
        "failed": check.failed,
        # a comparison failed: the errors the edited files hold (not known to be new)
        "now": [_json(d) for d in check.now] if check.failed is not None else [],
        "stopped": [
            said
            for said, key in zip(check.stopped, check.stop_keys, strict=True)
            if key not in before.stops
        ],
        "introduced": [_dump(i) for i in found],
        "compared": check.compared,
        "total": check.total if check.changed else None,
        "remaining_count": 0 if checking is None else checking["total"] - checking["done"],
        "checking": checking,
        "loading": loading,
        "elapsed": round(time.monotonic() - check.began, 2),
    }


def _dump(item: Introduced) -> dict[str, Any]:
    return _json(item.diagnostic)


def _json(diagnostic: FileDiagnostic) -> dict[str, Any]:
    return diagnostic.model_dump(mode="json", exclude_none=True)
