"""The status page's snapshot: read from the live objects when the page asks (GET
/status/live), so that nothing is gathered for it while no one looks."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TypedDict

from lspd import __version__
from lspd.daemon.feedback import Feedback
from lspd.daemon.hook_history import HookEvent
from lspd.daemon.live import Live
from lspd.daemon.page_models import (
    PageCall,
    PageCheck,
    PageDaemon,
    PageHookEvent,
    PageKept,
    PageServer,
    PageSession,
    PageSnapshot,
)
from lspd.daemon.procfs import own_rss_mb
from lspd.engine.kept_memory import memory_of
from lspd.lsp.session import Session
from lspd.lsp.state import ServerState
from lspd.ops.check import running
from lspd.ops.state import status
from lspd.ops.state_models import ServerStatus
from lspd.tools.calls import Call
from lspd.workspace import Workspace

STDERR_LINES = 12  # a crashed server's last log lines shown
_TAIL_BYTES = 8192


def snapshot(
    ws: Workspace, live: Live, hooks: Feedback, token: bool, since: float = 0.0, after: int = 0
) -> PageSnapshot:
    """Everything the page shows now; of the memory samples those taken after `since`, of
    the tool calls those after number `after` (the page keeps the ones it has)."""
    now = status(ws)
    sessions = list(ws.sessions.values())
    servers = [_server(ws, live, shown, sessions) for shown in now.servers]
    live.cpu.forget_others({s.pid for s in servers if s.pid is not None} | {os.getpid()})
    daemon = PageDaemon(
        workspace=now.workspace,
        pid=now.pid,
        version=__version__,
        uptime_s=now.uptime_s,
        rss_mb=_rounded(own_rss_mb()),
        cpu_percent=live.cpu.percent(os.getpid(), tree=False),
        restricted=now.restricted,
        token=token,
    )
    warnings = [f"{f.path}: {f.reason}" for f in now.set_aside] + live.skipped
    if (problem := live.config_problem()) is not None:
        warnings.append(problem)
    if now.watch_problem:
        warnings.append(now.watch_problem)
    warnings += [f"{s.server}: {s.environment}" for s in now.servers if s.environment]
    return PageSnapshot(
        daemon=daemon,
        servers=servers,
        checks=_checks(ws, hooks, sessions),
        kept=_kept(ws),
        finished=list(live.finished),
        calls=[_call(c) for c in live.calls.recent if c.seq > after],
        calls_total=live.calls.count,
        latency=live.latency(),
        memory=[m for m in live.memory if m.at > since],
        sessions=[
            PageSession(
                session=name,
                edited=len(agent.edited),
                events=[_event(e) for e in agent.history],
            )
            for name, agent in hooks.sessions.items()
        ],
        warnings=warnings,
        states=server_states(ws),
    )


def server_states(ws: Workspace) -> str:
    """Each session's state and start count, in one string: a poll is held while it stays."""
    return ";".join(
        f"{s.name}@{ws.display(s.root)}:{s.display_state}:{s.starts}" for s in ws.sessions.values()
    )


# What a server's row takes from its `status` as it is.
_FROM_STATUS = {"language", "server", "project", "state", "pid", "toolchain", "rss_mb"}


class _Process(TypedDict):
    """What a server's session says of its process (PageServer's fields of that name)."""

    version: str | None
    shown: str
    uptime_s: float | None
    restarts: int
    owed: int
    working_on: str | None
    crash: str | None
    stderr: list[str]


def _server(ws: Workspace, live: Live, shown: ServerStatus, sessions: list[Session]) -> PageServer:
    """A server's row: its `status`, and what its session says of its process (nothing for
    a TypeScript builder or a stopped session)."""
    session = next((s for s in sessions if s.pid == shown.pid and s.name == shown.server), None)
    if session is None:
        session = next(
            (s for s in sessions if s.name == shown.server and ws.display(s.root) == shown.project),
            None,
        )
    facts = _no_process(shown) if session is None else _process(ws, shown, session)
    return PageServer(
        **facts, **shown.model_dump(include=_FROM_STATUS), cpu_percent=live.cpu.percent(shown.pid)
    )


def _no_process(shown: ServerStatus) -> _Process:
    return _Process(
        version=None,
        shown=shown.state,
        uptime_s=None,
        restarts=0,
        owed=0,
        working_on=None,
        crash=None,
        stderr=[],
    )


def _process(ws: Workspace, shown: ServerStatus, session: Session) -> _Process:
    """What a session says of its server's process: version, uptime, restarts, the requests
    it owes and the oldest, and while crashed why and its log's last lines."""
    owed, oldest = session.working_on()
    crash, version = session.crash_reason, session.info.get("version")
    running = shown.pid is not None
    return _Process(
        version=None if version is None else str(version),
        shown=_words(shown, session.state, owed, session.starts),
        uptime_s=round(time.monotonic() - session.started_at, 1) if running else None,
        restarts=max(session.starts - 1, 0),
        owed=owed,
        working_on=None if oldest is None else oldest.on(ws.display),
        crash=crash,
        stderr=[] if crash is None else _tail(session.log_path),
    )


def _words(shown: ServerStatus, life: ServerState, owed: int, starts: int) -> str:
    """The state in words; a server started again is `restarting` until its first ready
    (its life's `indexing`, not a later re-index), a start alone being shorter than a poll."""
    if life in ("starting", "indexing") and starts > 1:
        return "restarting"
    if shown.state == "busy" and shown.busy:
        return f"busy: {shown.busy}"
    if shown.state in ("ready", "indexing") and owed:
        return f"{shown.state}, busy with {owed} request{'s' if owed > 1 else ''}"
    return shown.state


def _checks(ws: Workspace, hooks: Feedback, sessions: list[Session]) -> list[PageCheck]:
    """`lspd check`'s check (GET /check/progress reads the same), and the hooks' checks."""
    current = sorted(
        {oldest.on(ws.display) for s in sessions if (oldest := s.working_on()[1]) is not None}
    )
    out = []
    now = time.monotonic()
    check = running(ws)
    if check is not None:
        elapsed = now - check.began
        out.append(
            PageCheck(
                kind="check",
                done=check.done,
                total=check.total,
                elapsed_s=round(elapsed, 1),
                estimate_s=_estimate(check.done, check.total, elapsed),
                current=current,
                baseline=None,
            )
        )
    for name, agent in hooks.sessions.items():
        progress = agent.check
        if progress is None or progress.done.is_set():
            continue
        elapsed = now - progress.began
        # Its files are known once compared: while the whole check it waits for runs, that
        # check's files (as the hook's own answer says them), not 0 of 0.
        done, total, pace = progress.compared, progress.total, elapsed
        if check is not None:
            done, total, pace = check.done, check.total, now - check.began
        out.append(
            PageCheck(
                kind=f"hook {name}",
                done=done,
                total=total,
                elapsed_s=round(elapsed, 1),
                estimate_s=_estimate(done, total, pace),
                current=current,
                baseline=progress.baseline,
            )
        )
    return out


def _kept(ws: Workspace) -> PageKept | None:
    """The committed state's result kept (`engine/committed.py`), once made."""
    memory = memory_of(ws)
    state = memory.state
    if state is None:
        return None
    moved = None if memory.moved is None else " -> ".join(c[:12] for c in memory.moved)
    return PageKept(
        commit=state.key.commit[:12],
        files=len(state.files),
        made=state.made,
        asked=state.asked,
        moved=moved,
    )


def _estimate(done: int, total: int, elapsed: float) -> float | None:
    if done <= 0 or total <= done:
        return None
    return round(elapsed / done * (total - done), 1)


def _call(call: Call) -> PageCall:
    return PageCall.model_construct(  # made of checked values: no validation (200 per poll)
        seq=call.seq,
        tool=call.tool,
        arguments=call.arguments,
        at=round(call.at, 3),
        ms=round(call.seconds * 1000, 2),
        size=call.size,
        error=call.error,
    )


def _tail(path: Path) -> list[str]:
    """The last lines of a server's log (its stderr and lspd's notes on it)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, handle.seek(0, os.SEEK_END) - _TAIL_BYTES))
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return []
    return [line[:300] for line in text.splitlines()[-STDERR_LINES:]]


def _event(event: HookEvent) -> PageHookEvent:
    return PageHookEvent(
        at=event.at,
        event=event.event,
        paths=list(event.paths),
        told=list(event.told),
        complete=event.complete,
        decision=event.decision,
    )


def _rounded(mb: float | None) -> float | None:
    return None if mb is None else round(mb, 1)
