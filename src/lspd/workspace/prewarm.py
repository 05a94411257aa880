"""Which language servers start before the first question (the daemon's prewarm), and
starting them.

One session per server and toolchain, with only the folders it needs: a project nested in
a folder that already covers it (`covers_nested` in servers.toml: basedpyright, tsserver)
gets its own folder when a file of it is asked, not before, since basedpyright loads every
folder before it answers (0.5 s more on click, whose examples/ hold 10 projects). Go
modules get a folder each; a nested project with its own toolchain gets its own session.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Protocol

from lspd.lsp.process import GROUPS
from lspd.lsp.session import Session
from lspd.servers.registry import ServerDefinition
from lspd.workspace import files
from lspd.workspace.pool import SessionPool

log = logging.getLogger(__name__)

PREWARM_PROJECTS = 4  # per server; the rest start when asked


class _Trees(Protocol):
    async def tree(self, path: Path) -> object: ...


class Servers(Protocol):
    """What prewarm uses of the workspace: its session pool and the symbols of a file
    (`Workspace`; a protocol, so that this module need not import the workspace)."""

    @property
    def pool(self) -> SessionPool: ...
    @property
    def symbols(self) -> _Trees: ...


def sessions(ws: Servers) -> list[Session]:
    """The sessions of the projects present (a directory holding one of its server's
    markers: a Python project's docs/*.js start no TypeScript server), the first
    `PREWARM_PROJECTS` of each server in scan order, made but not started."""
    counted: dict[str, int] = {}
    chosen: list[Session] = []
    for project in ws.pool.projects.present():
        definition, name = project.definition, project.definition.name
        markers = definition.roots
        if markers and not any((project.root / m).is_file() for m in markers):
            continue  # stray files (a docs/ script), no project: they start when asked
        if _covered(ws, project.definition, project.root):
            log.debug("%s answers %s from a folder above it", name, project.root)
            continue
        counted[name] = counted.get(name, 0) + 1
        if counted[name] > PREWARM_PROJECTS:
            log.info("not prewarming %s for %s", name, ws.pool.display(project.root))
            continue
        session = ws.pool.session(definition, project.root)
        if session not in chosen:
            chosen.append(session)
    return chosen


def _covered(ws: Servers, definition: ServerDefinition, project: Path) -> bool:
    """Whether `project`'s session holds it in a folder already (`covers_nested`)."""
    session = ws.pool.sessions.get(ws.pool.key(definition, project))
    if session is None or not session.definition.covers_nested:  # as it runs there
        return False
    return any(project.is_relative_to(f) for f in session.folders)


def start(ws: Servers, chosen: list[Session]) -> list[asyncio.Task[None]]:
    """Start `chosen` together, in the background (and warm those whose definition says
    `warm_up`); a server that cannot start is logged."""
    return [asyncio.create_task(_start(ws, session)) for session in chosen]


async def _start(ws: Servers, session: Session) -> None:
    try:
        await session.start()
        if session.definition.warm_up:
            await _warm_up(ws, session)
    except Exception as exc:
        log.warning("prewarm of %s failed: %s", session.name, exc)


WARM_UP_LOOKED_AT = 20  # source files of the project; the smallest is asked


async def _warm_up(ws: Servers, session: Session) -> None:
    """The symbols of a small file of the session's project, once it is ready: the server's
    first request pays a one-time cost (basedpyright: 0.13 s on click, beside 0.09 s for
    core.py itself), best paid while nobody waits for an answer."""

    def smallest() -> Path | None:
        found: list[tuple[int, Path]] = []
        for path in ws.pool.projects.source_files():
            handler = ws.pool.handler(path)
            if handler is None or handler.name != session.name:
                continue
            if not path.is_relative_to(session.root):
                continue
            stamp = files.stamp(path)
            if stamp is not None:
                found.append((stamp[1], path))
            if len(found) == WARM_UP_LOOKED_AT:
                break
        return min(found)[1] if found else None

    path = await asyncio.to_thread(smallest)
    if path is not None:
        await session.wait_ready()
        if session.state == "ready":  # not stopped meanwhile: a warm-up never starts it
            await ws.symbols.tree(path)


async def spawned(
    chosen: list[Session], starts: list[asyncio.Task[None]], timeout: float = 10.0
) -> None:
    """Until each of `chosen` runs its server's process (its `initialize` is written) or
    its start (from `start`) has ended; at most `timeout` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    version = GROUPS.snapshot()[1]
    while waiting := [t for s, t in zip(chosen, starts, strict=True) if not (s.pid or t.done())]:
        left = deadline - loop.time()
        if left <= 0:
            return
        changed = asyncio.ensure_future(GROUPS.changed(version, left))
        await asyncio.wait([changed, *waiting], return_when=asyncio.FIRST_COMPLETED)
        if changed.done():
            version = changed.result()
        else:
            changed.cancel()
