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
from pathlib import Path
from typing import Any

from lspd.daemon import edited_alone, turns
from lspd.daemon.agent_session import (
    AgentSession,
    aside,
    awaited,
    changed_since,
    changes_now,
    describe,
    dump,
    untold,
)
from lspd.daemon.hook_history import remember
from lspd.ops import progressive_kept, turn_start
from lspd.ops.progressive import Before, Introduced, Progress
from lspd.tools import Activity
from lspd.workspace import Workspace

log = logging.getLogger(__name__)
MAX_SESSIONS = 64  # agent sessions remembered (the oldest is forgotten first)
MAX_WAIT_S = 600.0


class Feedback:
    """The hook checks of a workspace's agent sessions."""

    def __init__(self, ws: Workspace, activity: Activity | None = None) -> None:
        self.ws = ws
        self.activity = activity or Activity()  # a running check keeps the servers up
        self.sessions: dict[str, AgentSession] = {}
        self._resuming: dict[str, asyncio.Task[AgentSession | None]] = {}  # `_turned`

    async def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """`request`: `event` (`turn`, `edit`, `late` or `stop`), `session`, `baseline`,
        `wait` (seconds from `sent`), `paths` (edited, relative to the root; `edit`)."""
        event = request.get("event")
        session = str(request.get("session") or "-")
        baseline = str(request.get("baseline") or "HEAD")
        wait = _budget(request, "wait")
        paths = [self.ws.resolve(str(p)) for p in request.get("paths", [])]
        if event == "turn":
            answer = await self.turn(session, baseline)
        elif event == "edit":
            answer = await self.edit(session, paths, baseline, wait)
        elif event == "late":
            first = _budget(request, "first")
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
        agent.since = await changes_now(self.ws) if agent.start is None else agent.start.changes
        if agent.before_task is not None:
            agent.before_task.cancel()
        agent.before = agent.part = None  # an earlier turn's: not this one's
        if agent.since is not None:  # a watcher tells whether a change came meanwhile
            agent.before_task = asyncio.create_task(self._take_before(agent, baseline))
        await asyncio.to_thread(turns.remember, self.ws.root, session, time.time_ns())
        await asyncio.to_thread(turns.keep_start, self.ws.root, session, agent.start)
        return {"since": agent.since}

    async def _take_before(self, agent: AgentSession, baseline: str) -> None:
        """`agent.before`: the work tree's errors against `baseline` as the turn began:
        with its start recorded, the turn's changes since held at their texts then
        (`ops/turn_start.py`); else kept only if nothing changed before the check had read
        every file. Not taken, the turn's stop counts every error (and says so), as before
        issue 40's mixed examiner (1b) found a session blocked for another's earlier edit."""
        since, start = agent.since, agent.start
        self.activity.in_flight += 1
        part = agent.part_taker()  # the hooks' files' part, taken first
        try:
            if start is not None:
                before = await turn_start.held_then(self.ws, start, agent.first, part)
            else:
                found, stops = await progressive_kept.held_before(self.ws, baseline)
                before = Before(baseline, found, stops)
        except Exception:  # the stop gate counts everything then
            log.exception("the errors held at the turn's start were not taken")
            return
        finally:
            self.activity.in_flight -= 1
        if agent.since == since and (start is not None or not await changed_since(self.ws, agent)):
            agent.before = before

    async def edit(
        self, session: str, paths: list[Path], baseline: str, wait: float
    ) -> dict[str, Any]:
        """Check the edited files (and any an unfinished check of this session had left),
        for at most `wait` seconds; first, what the session's last check found since."""
        began = time.monotonic()
        agent = await self._turned(session, baseline) or self._agent(session)
        late = untold(self.ws, agent)
        scope = agent.scope(paths)
        check = await self._start(agent, scope, baseline, min(wait, edited_alone.AFTER_S))
        early = await edited_alone.beside(self.ws, check, paths, baseline, began + wait)
        if check.introduced or early:  # what the turn began with is not news: Before
            files = {i.key[0] for i in [*check.introduced, *early]}
            await self._before(agent, baseline, wait - (time.monotonic() - began), files)
        found = untold(self.ws, agent) + _told_alone(agent, early, baseline)
        answer = describe(self.ws, check, found, agent.held(baseline))
        check.answered.set()  # now a background hook may tell what comes after
        check.told_stops |= answer["complete"]  # the answer said them (`cli/hook.py`)
        answer["late"] = [dump(i) for i in late]
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
        agent = await self._turned(session, baseline) or self._agent(session)
        check = await self._start(agent, agent.scope(paths), baseline, 0.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(check.answered.wait(), first)
        found: list[Introduced] = []
        while agent.check is check:
            if check.introduced:  # what the turn began with is not news: Before, once taken
                files = {i.key[0] for i in check.introduced}
                await self._before(agent, baseline, wait - (time.monotonic() - began), files)
            found = untold(self.ws, agent)
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
        answer = describe(self.ws, check, [] if superseded else found, agent.held(baseline))
        if check.told_stops:  # its edit's hook answered complete, its stops said
            answer["stopped"] = []
        return {**answer, "superseded": superseded}

    async def stop(self, session: str, baseline: str, wait: float) -> dict[str, Any]:
        """Check every file the session edited, for at most `wait` seconds: its errors
        (all of them, told before or not), and whether the stop was blocked for the same
        at the session's last stop (`repeat`: then it goes). The same: the same errors, a
        check failing again, the same checker stops (`stopped`: it checked nothing else, so
        no error found proves nothing; the same by `stop_keys`, its errors whatever their
        lines); of a check that ran out of time, errors all among those.
        Claude Code's `stop_hook_active` is not asked: it is false again at the next turn's
        stop, with the errors unchanged."""
        agent = await self._turned(session, baseline)
        changed = await changed_since(self.ws, agent)
        if agent is None or not (agent.edited or changed):
            return {"complete": True, "errors": [], "repeat": False, "compared": 0, "total": 0}
        agent.edited |= changed  # its work from now on, as a file its edit hook named
        began = time.monotonic()
        check = await self._start(agent, sorted(agent.edited), baseline, wait)
        files = None if check.stop_keys else {i.key[0] for i in check.introduced}  # part: no stop
        before = await self._before(agent, baseline, wait - (time.monotonic() - began), files)
        found = [i for i in check.introduced if check.current(i)]
        current = [i for i in found if i.key not in before.found]
        answer = describe(self.ws, check, current, before)
        answer.pop("loading")
        errors = frozenset(i.key for i in current if i.diagnostic.severity == "error")
        answer["held_before"] = sum(
            i.key in before.found and i.diagnostic.severity == "error" for i in found
        )
        answer["held_unknown"] = agent.turned and before.baseline != baseline  # none aside
        partial = not answer["complete"] and check.failed is None
        failed = check.failed is not None and not errors
        stops = set(check.stop_keys) - aside(check, before)
        unknown = frozenset({"failed"} if failed else stops)  # a stop: no proof
        answer["repeat"] = agent.stopped(errors, unknown, partial)
        agent.reported |= {i.key for i in current}
        return answer

    async def _turned(self, session: str, baseline: str) -> AgentSession | None:
        """The session, its turn resumed at its first hook call here (`_resumed`), an edit's
        as a stop's: once, the calls meanwhile (two stops) awaiting the first's one Before."""
        agent = self.sessions.get(session)
        if agent is not None and agent.turned:
            return self._agent(session)  # the most recent now
        task = self._resuming.get(session)
        if task is None:
            task = self._resuming[session] = asyncio.create_task(self._resumed(session, baseline))
            task.add_done_callback(lambda _: self._resuming.pop(session, None))
        return await asyncio.shield(task)

    async def _resumed(self, session: str, baseline: str) -> AgentSession | None:
        """A session whose turn began under the daemon before this one (`turns.resumed`):
        the files changed since are its work, as a file its edit hook named, and what the
        tree held then is set aside as that daemon would have, from its start kept; else
        nothing is, and the stop says so. None seen begin: as it was."""
        resumed = await asyncio.to_thread(turns.resumed, self.ws, session, baseline)
        if resumed is None:
            return self.sessions.get(session)
        (start, changed), agent = resumed, self._agent(session)
        if start is not None and agent.since is not None:
            agent.start, agent.before = start, None
            agent.before_task = asyncio.create_task(self._take_before(agent, baseline))
        agent.edited |= changed
        agent.turned = True
        return agent

    async def _before(
        self, agent: AgentSession, baseline: str, wait: float, files: set[str] | None = None
    ) -> Before:
        """What the session's turn found held against `baseline`, once taken (for at most
        `wait` seconds: not taken by then, nothing is set aside); `files`: or its part taken
        first (`AgentSession.part`), once it knows of their findings."""
        await awaited(agent, files, wait)
        return agent.held(baseline, part=files is not None and agent.parted_in(files))

    async def close(self) -> None:
        """Cancel the checks still running (the daemon is stopping)."""
        tasks: list[asyncio.Task[Any]] = [*self._resuming.values()]
        tasks += [a.task for a in self.sessions.values() if a.task is not None]
        tasks += [a.before_task for a in self.sessions.values() if a.before_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

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


def _told_alone(agent: AgentSession, early: list[Introduced], baseline: str) -> list[Introduced]:
    """Of the edited files' findings asked alone (`edited_alone`), those the session was not
    told and its turn did not begin with, now told (the check's end does not repeat them)."""
    held = agent.held(baseline, part=True).found
    told = [i for i in early if i.key not in agent.reported and i.key not in held]
    agent.reported |= {i.key for i in told}
    return told


def _budget(request: dict[str, Any], name: str) -> float:
    """The seconds `request[name]` gives, from when the hook sent it (`sent`: its wall
    clock): a cold daemon's first hook waited for the app's build (3-10 s, the MCP SDK
    imported), then its whole budget again (trio's first edit hook: 4.3-7.1 s of its 3)."""
    sent = request.get("sent")
    late_by = max(time.time() - float(sent), 0.0) if isinstance(sent, int | float) else 0.0
    return min(max(float(request.get(name, 3.0)) - late_by, 0.0), MAX_WAIT_S)
