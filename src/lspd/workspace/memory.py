"""What the language servers cost over a long day, and keeping it bounded.

The daemon calls `tidy` when something falls due (`next_tidy`): servers (and TypeScript
builders, `workspace/tsbuilder.py`) idle longer than the idle timeout stop (the next
question starts them again), documents nobody asked about for
`DOCUMENT_IDLE_S` are closed (a server holding a whole monorepo's files open grows without
end), and when the servers together pass the workspace's memory ceiling (`memory_mb` in
lspd.toml) the least recently used ones stop until they fit again; the one used last always
stays (a builder counts as a server there, and in `status`). Between deadlines the daemon
sleeps: an idle daemon must cost nothing.

A server is judged by what it is doing as `status` shows it (`Session.display_state`), not by
its lifecycle's state: a TypeScript server started with no file open (prewarmed) stays in
`indexing` until one opens, with nothing to load (`ready = "diagnostics"`): it is shown
ready, and idle it is, so its idle time counts; one stuck on a request a caller waits for
(`busy`) or working through a progress (`indexing` once ready) is not idle yet.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from lspd.workspace.tsbuilder import Builder

if TYPE_CHECKING:
    from lspd.lsp.session import Session
    from lspd.workspace.workspace import Workspace

log = logging.getLogger(__name__)

DOCUMENT_IDLE_S = 600.0  # an open document nobody asked about for this long is closed
# How often what has no deadline is looked at again: memory under a ceiling (it grows by
# itself), a server still starting or indexing, a call in flight.
RECHECK_S = 30.0


def tree_rss_mb(pid: int) -> float | None:
    """Resident memory of `pid` and every process below it, in MB (None once it is gone):
    typescript-language-server's memory is mostly its tsserver children."""
    total, todo, seen = 0.0, [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            with open(f"/proc/{current}/status", encoding="ascii") as handle:
                total += next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:"))
            with open(f"/proc/{current}/task/{current}/children", encoding="ascii") as handle:
                todo += [int(child) for child in handle.read().split()]
        except (OSError, StopIteration, ValueError):
            if current == pid:
                return None
    return total / 1024


def running(ws: Workspace) -> list[Session]:
    """The sessions whose server process is up: the ones that hold memory."""
    return [s for s in ws.sessions.values() if s.pid is not None and s.state != "stopped"]


def next_tidy(ws: Workspace, idle_s: float, busy: bool = False) -> float | None:
    """Seconds until `tidy` has something to do; None: nothing, until a server starts.

    Deadlines are exact (a server's last use + `idle_s`, a document's + DOCUMENT_IDLE_S);
    they move when the server or document is used again, so tidy looks and sleeps again.
    """
    sessions = running(ws)
    builders = [b for b in ws.builders.values() if b.pid is not None]
    # dmypy: as a builder; one checking too, pid or not: the server it starts is told to
    # the watchdog (waking this) before it writes the status file its pid is read from, and
    # nothing wakes this again: a workspace asking dmypy alone never stopped it
    daemons = [d for d in ws.pool.mypy.values() if d.pid is not None or d.busy]
    if not sessions and not builders and not daemons:
        return None
    now = time.monotonic()
    recheck = max(0.05, min(idle_s / 4, RECHECK_S)) if idle_s > 0 else RECHECK_S
    if busy:  # tidy waits for the calls in flight
        return recheck
    due = [recheck] if ws.config.memory_mb is not None else []
    for session in sessions:
        shown = session.display_state  # what it is doing, as status shows it
        if shown in ("starting", "indexing", "busy"):  # its idle time counts once ready
            due.append(recheck)
        elif idle_s > 0 and shown == "ready":
            due.append(session.last_used + idle_s - now)
        due += [d.used + DOCUMENT_IDLE_S - now for d in list(session.documents.values())]
    if idle_s > 0:
        due += [b.last_used + idle_s - now for b in builders]
        due += [recheck if d.busy else d.last_used + idle_s - now for d in daemons]
    return max(0.05, min(due)) if due else None


async def tidy(ws: Workspace, idle_s: float) -> None:
    """Stop idle servers (`idle_s` > 0), close idle documents, keep under the ceiling."""
    now = time.monotonic()
    for session in running(ws):
        idle = session.display_state == "ready" and now - session.last_used > idle_s
        if idle_s > 0 and idle:
            log.info("stopping %s after %.0f s idle", session.name, now - session.last_used)
            await session.stop()
    for builder in ws.builders.values():  # a TypeScript builder holds a program: as a server
        idle = builder.pid is not None and not builder.busy and now - builder.last_used > idle_s
        if idle_s > 0 and idle:
            log.info("stopping the TypeScript builder of %s after idle", builder.package)
            await builder.stop()
    for daemon in ws.pool.mypy.values():  # a project's dmypy holds its program: the same
        idle = now - daemon.last_used > idle_s
        if idle_s > 0 and daemon.pid is not None and not daemon.busy and idle:
            log.info("stopping the dmypy of %s after idle", daemon.project)
            await daemon.stop()
    close_idle_documents(ws, DOCUMENT_IDLE_S)
    if ws.config.memory_mb is not None:
        await keep_under(ws, ws.config.memory_mb)


def close_idle_documents(ws: Workspace, idle_s: float) -> int:
    """Close the documents not asked about for `idle_s`; returns how many."""
    now = time.monotonic()
    stale = [
        d.path
        for session in running(ws)
        for d in list(session.documents.values())
        if now - d.used > idle_s
    ]
    for path in stale:
        ws.close_document(path)
    return len(stale)


async def keep_under(ws: Workspace, ceiling_mb: float) -> list[str]:
    """Stop the least recently used servers and TypeScript builders (a builder holds a whole
    program: as much as `tsc --watch`) while all of them together use more than
    `ceiling_mb`; never the one used last, nor a builder in the middle of a check. The
    servers of the copy kept warm for Python previews (`workspace/kept_copy.py`) count too
    and go first. Returns the names of those stopped."""
    users: list[Session | Builder] = [*running(ws), *(b for b in ws.builders.values() if b.pid)]
    users.sort(key=lambda user: user.last_used)
    sizes = {id(u): tree_rss_mb(u.pid) or 0.0 for u in users if u.pid is not None}
    copy = ws.kept_copy  # a cache of previews' servers: the first to go, unless in use
    copy_mb = sum(tree_rss_mb(h.pid) or 0.0 for h in copy.helpers.values() if h.pid)
    total = sum(sizes.values()) + copy_mb
    stopped = []
    if total > ceiling_mb and copy_mb and not copy.lock.locked():
        log.info(
            "servers use %.0f MB, over the %.0f MB ceiling: stopping the preview copy's",
            total,
            ceiling_mb,
        )
        await copy.end()
        total -= copy_mb
        stopped.append("the preview copy's servers")
    for user in users[:-1]:
        if total <= ceiling_mb:
            break
        if isinstance(user, Builder) and user.busy:
            continue
        name = user.name
        log.info(
            "servers use %.0f MB, over the %.0f MB ceiling: stopping %s (least recently used)",
            total,
            ceiling_mb,
            name,
        )
        total -= sizes.get(id(user), 0.0)
        await user.stop()
        stopped.append(name)
    return stopped
