"""What the daemon keeps for its status page, all of it bounded: the last tool calls, the
last whole checks, and the memory of the daemon and its servers over the last hour.

The memory is read every `SAMPLE_S` (one /proc read per process) once the page has polled,
until an hour (`WATCH_S`) after its last poll, and only while language servers run: with
no page open, or no server, the sampler sleeps until one comes (as the tidy loop waits for
a server). Everything else is read from the live objects when the page asks, and only then.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import defaultdict, deque
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.daemon.page_models import MemorySample, PageFinished, ToolLatency
from lspd.daemon.procfs import CpuMeter, own_rss_mb
from lspd.errors import LspdError
from lspd.lsp.process import GROUPS
from lspd.tools.calls import Call, Calls
from lspd.workspace import Workspace
from lspd.workspace.config import CONFIG_NAME, load_config
from lspd.workspace.memory import running, tree_rss_mb

if TYPE_CHECKING:
    from lspd.ops.checked import Checked

SAMPLE_S = 15.0
KEEP_SAMPLES = 240  # an hour of samples
WATCH_S = 3600.0  # after the page's last poll, how long the memory is still sampled
KEEP_FINISHED = 10  # whole checks remembered


class Live:
    """The status page's memory of one daemon (see the module's docstring)."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.calls = Calls(str(ws.root))
        self.memory: deque[MemorySample] = deque(maxlen=KEEP_SAMPLES)
        self.finished: deque[PageFinished] = deque(maxlen=KEEP_FINISHED)
        self.skipped: list[str] = []  # the last whole check's files left out, and why
        self.cpu = CpuMeter()
        self._config: tuple[float | None, str | None] = (None, None)  # mtime, its problem
        self._latency: tuple[int, list[ToolLatency]] = (0, [])  # at which call, made
        self._polled: float | None = None  # when the page last polled (monotonic)
        self._looking = asyncio.Event()  # set by a poll: the sampler wakes

    def latency(self) -> list[ToolLatency]:
        """p50 and p95 per tool of the calls listed, made again only after a new call."""
        if self._latency[0] != self.calls.count:
            self._latency = (self.calls.count, latency(self.calls.recent))
        return self._latency[1]

    def checked(self, checked: Checked, seconds: float) -> None:
        """A whole check ended (`lspd check`, GET /check)."""
        self.finished.append(
            PageFinished(
                at=time.time(),
                seconds=round(seconds, 2),
                files_matched=checked.matched,
                files_checked=len(checked.results),
                errors=sum(r.errors for r in checked.results),
                warnings=sum(r.warnings for r in checked.results),
                skipped=len(checked.skipped),
            )
        )
        self.skipped = [f"{s.path}: {s.reason}" for s in checked.skipped]
        outside = 0 if checked.scope is None else checked.scope.outside
        if outside:
            self.skipped.append(
                f"{outside} source file(s) outside the gate: the last check left them out "
                "(`lspd check --all` checks them)"
            )

    def sample(self) -> MemorySample:
        """The memory of the daemon and each running server now."""
        ws = self.ws
        mb = {"daemon": own_rss_mb() or 0.0}
        for session in running(ws):
            if session.pid is not None and (rss := tree_rss_mb(session.pid)) is not None:
                mb[f"{session.name} {ws.display(session.root)}"] = round(rss, 1)
        for builder in ws.builders.values():
            if builder.pid is not None and (rss := tree_rss_mb(builder.pid)) is not None:
                mb[f"{builder.name} {ws.display(builder.package)}"] = round(rss, 1)
        mb["daemon"] = round(mb["daemon"], 1)
        return MemorySample(at=round(time.time(), 1), mb=mb)

    def polled(self) -> None:
        """The page asked (GET /status/live): memory is sampled until `WATCH_S` after."""
        self._polled = time.monotonic()
        self._looking.set()

    def watched(self) -> bool:
        """Whether the page polled within the last `WATCH_S`."""
        return self._polled is not None and time.monotonic() - self._polled < WATCH_S

    async def sample_memory(self) -> None:
        """Every `SAMPLE_S` while the page is watched and a server runs; asleep until
        the page polls, or a server starts, otherwise."""
        while True:
            if not self.watched():
                self._looking.clear()
                await self._looking.wait()
                continue
            groups, version = GROUPS.snapshot()
            if not groups:
                await GROUPS.changed(version)
                continue
            self.memory.append(self.sample())
            await asyncio.sleep(SAMPLE_S)

    def config_problem(self) -> str | None:
        """What is wrong with lspd.toml as it is now (read again only once it changed):
        the daemon goes on with the configuration it started with."""
        path: Path = self.ws.root / CONFIG_NAME
        try:
            mtime: float | None = path.stat().st_mtime
        except OSError:
            mtime = None
        if mtime != self._config[0]:
            problem = None
            if mtime is not None:
                try:
                    load_config(self.ws.root)
                except LspdError as exc:
                    problem = f"{exc}; the daemon runs with the configuration it started with"
            self._config = (mtime, problem)
        return self._config[1]


def latency(calls: Iterable[Call]) -> list[ToolLatency]:
    """p50 and p95 of each tool's calls (nearest rank)."""
    by_tool: dict[str, list[Call]] = defaultdict(list)
    for call in calls:
        by_tool[call.tool].append(call)
    out = []
    for tool, mine in sorted(by_tool.items()):
        ms = sorted(c.seconds * 1000 for c in mine)
        out.append(
            ToolLatency(
                tool=tool,
                count=len(ms),
                errors=sum(1 for c in mine if c.error is not None),
                p50_ms=round(_rank(ms, 0.50), 2),
                p95_ms=round(_rank(ms, 0.95), 2),
            )
        )
    return out


def _rank(ordered: list[float], fraction: float) -> float:
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]
