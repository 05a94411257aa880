"""The daemon's work beside its answers: the watchdog kept told of the servers' process
groups, the files followed, the servers tidied when something falls due, the committed
state's result kept, prewarm's readiness logged, and the agents told the daemon's URL.

Each runs as a task of the daemon's (`daemon/run.py`), cancelled when it shuts down; the
heavy modules (the check, the agents' configs) are imported only when the work needs them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.daemon.watchdog import Watchdog
from lspd.lsp.process import GROUPS
from lspd.workspace import Workspace
from lspd.workspace.memory import next_tidy, tidy

if TYPE_CHECKING:
    from lspd.tools.calls import Activity

log = logging.getLogger(__name__)


async def watch_servers(watchdog: Watchdog) -> None:
    """Keep the watchdog told of the servers' process groups (each leads its own), as
    they start and go: every group this process started and has not killed."""
    while True:
        groups, version = GROUPS.snapshot()
        watchdog.watch(groups)
        await GROUPS.changed(version)


async def watch_files(ws: Workspace) -> None:
    """Follow the files (and read every source file's words: workspace/symbols/index.py)."""
    await ws.watch()


async def keep(ws: Workspace, activity: Activity) -> None:
    """Keep the committed state's result for baselines (`engine/keeping.py`), made of
    `ops`'s whole check (`check_all`) and results (`ops/committed.py`)."""
    from lspd.engine import keeping
    from lspd.ops.check import check_all
    from lspd.ops.committed import committed

    async def kept(head: str) -> None:
        await committed(ws, head, lambda: check_all(ws))

    if keeping.enabled():
        await keeping.keep_committed(
            ws,
            lambda: bool(activity.in_flight),
            lambda busy: check_all(ws, busy=busy),
            kept,
        )


async def tidy_when_due(ws: Workspace, idle_s: float, activity: Activity) -> None:
    """Tidy when something falls due (memory.next_tidy), or a server starts or goes."""
    version = GROUPS.snapshot()[1]
    while True:
        wait = next_tidy(ws, idle_s, busy=bool(activity.in_flight))
        version = await GROUPS.changed(version, wait)
        if activity.in_flight:  # a server starting for a call is not idle
            continue
        try:
            await tidy(ws, idle_s)
        except Exception:
            log.exception("tidying the servers failed")


def busy(activity: Activity, ws: Workspace) -> bool:
    """A call in flight, or a whole check running (`lspd check`'s GET /check, the committed
    state's keeping): not the time for a full collection's pause (`collector.sweep`)."""
    from lspd.ops.check_memory import running

    return bool(activity.in_flight) or running(ws) is not None


async def prewarmed(ws: Workspace, starts: list[asyncio.Task[None]]) -> None:
    """Log when the prewarmed servers answer completely (their readiness), not just
    when their processes run."""
    started = time.monotonic()
    await asyncio.gather(*starts)
    await asyncio.gather(*(s.wait_ready() for s in ws.sessions.values()), return_exceptions=True)
    names = ", ".join(f"{s.name} ({ws.display(s.root)})" for s in ws.sessions.values())
    log.info("prewarm done in %.2f s (servers: %s)", time.monotonic() - started, names or "-")


def tell_agents(root: Path, url: str, agents: tuple[str, ...]) -> None:
    """Tell the agents the new URL: the port may have changed since the last run."""
    from lspd.agents import sync_agents

    wanted = None if agents == ("all",) else list(agents)
    try:
        report = sync_agents(root, url, wanted)
    except Exception:
        log.exception("syncing agent configs failed")
        return
    for result in report.results:
        log.info("sync: %s", result)
