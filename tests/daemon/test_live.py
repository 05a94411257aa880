"""What the status page's memory costs when no one looks: nothing is sampled before the page
polls, and sampling stops `WATCH_S` after its last poll (a running server being a real
process group in the daemon's registry, as a language server's start puts it there)."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.daemon import live as live_module
from lspd.daemon.live import Live
from lspd.lsp.process import GROUPS
from lspd.workspace import Workspace

pytestmark = pytest.mark.anyio

SAMPLE_S = 0.05
WATCH_S = 0.5


@pytest.fixture
def a_server_runs() -> Iterator[int]:
    """A process group registered as a started server's is (`GROUPS.add`)."""
    process = subprocess.Popen(["sleep", "60"], start_new_session=True)
    GROUPS.add(process.pid)
    try:
        yield process.pid
    finally:
        GROUPS.discard(process.pid)
        process.kill()
        process.wait()


async def samples_after(live: Live, seconds: float) -> int:
    """How many samples `seconds` more of sampling added."""
    before = len(live.memory)
    await asyncio.sleep(seconds)
    return len(live.memory) - before


async def test_memory_is_sampled_only_while_the_page_polls(
    tmp_path: Path, a_server_runs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_module, "SAMPLE_S", SAMPLE_S)
    monkeypatch.setattr(live_module, "WATCH_S", WATCH_S)
    live = Live(Workspace(tmp_path))
    sampler = asyncio.create_task(live.sample_memory())
    try:
        assert await samples_after(live, 4 * SAMPLE_S) == 0  # a server runs, no page yet

        live.polled()
        assert await samples_after(live, WATCH_S / 2) >= 2
        assert set(live.memory[-1].mb) == {"daemon"} and live.memory[-1].mb["daemon"] > 0

        await asyncio.sleep(WATCH_S)  # no poll since: the sampler stops
        assert not live.watched()
        assert await samples_after(live, 4 * SAMPLE_S) == 0

        live.polled()  # the page is back
        assert await samples_after(live, WATCH_S / 2) >= 2
    finally:
        sampler.cancel()
