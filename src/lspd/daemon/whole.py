"""The daemon's whole app, built in a thread once the first answers are served (`early`):
the MCP SDK imported, the tools and their schemas built (0.8-1.1 s quiet, 3-4 s loaded)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lspd.tools.calls import Activity
from lspd.tools.hints import Told
from lspd.workspace import Workspace

if TYPE_CHECKING:
    from lspd.daemon.early import Early
    from lspd.daemon.feedback import Feedback
    from lspd.daemon.live import Live
    from lspd.daemon.mcp_direct import Direct

log = logging.getLogger(__name__)


async def load(
    early: Early,
    build: Callable[[], tuple[Direct, Feedback]],
    listening: asyncio.Event,
    after_s: float,
    started_at: float,
) -> Feedback:
    """Once a request needs the SDK (`early.wanted`), or the first tool call was answered
    without it (`early.called`), or `after_s` after the sentinel (`listening`), `build` the
    whole app in a thread and hand it every request; the agents' hook checks it answers.

    Not before the first answer when the copy serves it: the import (a thread of this
    process, holding the interpreter's lock) would take the CPU from that answer, which
    waits for the language server and lspd's own work on 2 cores."""
    await _first(early.wanted, listening)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(_first(early.wanted, early.called), after_s)
    began = time.monotonic()
    app, feedback = await asyncio.to_thread(build)
    await early.take_over(app)
    log.info(
        "the MCP SDK answers from %.2f s after the start (imported and built in %.2f s; "
        "answered before it: %s)",
        time.monotonic() - started_at,
        time.monotonic() - began,
        early.answered or "nothing",
    )
    return feedback


async def _first(*events: asyncio.Event) -> None:
    """Until one of `events` is set."""
    waits = [asyncio.ensure_future(e.wait()) for e in events]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


def build(
    ws: Workspace,
    activity: Activity,
    live: Live,
    told: Told,
    options: dict[str, Any],
    early: Early,
) -> tuple[Direct, Feedback]:
    """The app (no guard: the daemon's is in front of `early`) sharing the first answers'
    state (`activity`, `live`'s calls, `told`) and telling `early` the envelopes it took,
    and the agents' hook checks it answers."""
    import_transport()
    from lspd.daemon.app import inner_app
    from lspd.tools import build_server

    server = build_server(ws, activity, live.calls, told)
    feedback = early.hooks.feedback()  # the one that answered the hooks before, if any
    kept = early.keep_envelope
    app = inner_app(ws, server, options=options, feedback=feedback, live=live, kept=kept)
    return app, feedback


def import_transport() -> None:
    """Import what serves MCP (the SDK: 0.8-1.1 s quiet) without cyclic collections: its
    objects live as long as the daemon, and scanning them as they are made cost 13 % of the
    import (0.49 -> 0.42 s)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        import lspd.daemon.app
        import lspd.daemon.server
        import lspd.tools.server  # noqa: F401
    finally:
        if collecting:
            gc.enable()
