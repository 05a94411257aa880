"""Benchmark of the status page: what it costs the daemon to be looked at.

    .venv/bin/python bench/status_page.py [--seconds S] [--rounds R] [--hovers N]

Starts a daemon (`python -m lspd serve --detach`) on a temporary copy of tests/fixtures/py
and waits until basedpyright is ready. Then, R times, a window of S seconds with the page
closed and one with it open (apt's headless chromium driven by Playwright, the page polling
every 0.75 s), alternating so that the machine's load falls on both alike. In each window:
the daemon's CPU seconds (its own process, from /proc) and its RSS at the window's end; after
each window N MCP `hover` calls (the SDK's client over streamable HTTP) with the page still in
that state, for p50/p95. Then what one poll costs (GET /status/live, in this process) and
what recording a tool call costs (`Calls.record`). Prints one table, with the load (uptime)
at the start and the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path
from typing import Any

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]
sys.path.insert(0, str(Path(HERE).parent))  # the repository: tests.daemon.support

import httpx  # noqa: E402
from mcp import Client  # noqa: E402
from playwright.async_api import Browser, async_playwright  # noqa: E402
from processes import cpu_seconds, rss_mb  # noqa: E402
from tests.daemon.support import CHROMIUM_ARGS  # noqa: E402

from lspd.tools.calls import Calls  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "py"
HOVER = {"path": "pkg/app.py", "line": 1, "column": 26}


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


async def hovers(url: str, n: int) -> list[float]:
    """Seconds each of `n` hover calls took, one after another, after 5 to warm up."""
    async with Client(url) as client:
        return [await hover(client) for _ in range(5 + n)][5:]


async def hover(client: Client) -> float:
    began = time.perf_counter()
    result = await client.call_tool("hover", HOVER)
    if result.is_error:
        raise SystemExit(f"hover failed: {result.content}")
    return time.perf_counter() - began


async def window(
    pid: int, base: str, browser: Browser | None, seconds: float, n: int
) -> dict[str, Any]:
    """One window: idle `seconds` with the page open (`browser`) or closed, then `n` hovers."""
    page = None
    polls: list[str] = []
    if browser is not None:
        page = await browser.new_page()
        page.on("request", lambda r: polls.append(r.url) if "/status/live" in r.url else None)
        await page.goto(base + "/")
        await page.wait_for_selector("#servers tbody tr[data-server]")
    cpu, began = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(seconds)
    used, wall = cpu_seconds(pid) - cpu, time.monotonic() - began
    rss = rss_mb(pid)
    took = await hovers(base + "/mcp", n)
    if page is not None:
        await page.close()
    return {
        "page": "open" if browser is not None else "closed",
        "cpu_percent": 100 * used / wall,
        "rss_mb": rss,
        "hover_p50_ms": pct(took, 0.5),
        "hover_p95_ms": pct(took, 0.95),
        "polls": len(polls),
    }


def poll_cost(base: str, first: bool, n: int = 200) -> tuple[float, float, int]:
    """GET /status/live as the page asks it, its `first` poll (every call and sample) or a
    steady one (nothing new): p50 and p95 in ms, and its size."""
    took, size = [], 0
    with httpx.Client() as client:
        calls = client.get(base + "/status/live").json()["calls_total"]
        query = "" if first else f"?since={time.time()}&after={calls}"
        for _ in range(n):
            began = time.perf_counter()
            answer = client.get(base + "/status/live" + query)
            took.append(time.perf_counter() - began)
            size = len(answer.content)
    return pct(took, 0.5), pct(took, 0.95), size


def record_cost() -> float:
    """Microseconds `Calls.record` takes for a hover's arguments, the buffer full."""
    calls = Calls("/work/project")
    arguments = {"path": "/work/project/src/app.py", "line": 12, "column": 5, "symbol": None}
    for _ in range(300):
        calls.record("hover", arguments, 0.01, 300, None)
    n = 100_000
    spent = timeit.timeit(lambda: calls.record("hover", arguments, 0.01, 300, None), number=n)
    return spent / n * 1e6


async def run(seconds: float, rounds: int, n: int) -> None:
    work = Path(tempfile.mkdtemp(prefix="lspd-page-bench-"))
    root = work / "py"
    shutil.copytree(FIXTURE, root)
    env = {**os.environ, "LSPD_STATE_DIR": str(work / "state")}
    lspd = [sys.executable, "-m", "lspd"]
    started = subprocess.run(
        [*lspd, "serve", "--detach", str(root)], env=env, capture_output=True, text=True
    )
    base = started.stdout.strip().removesuffix("/mcp")
    load_before = load()
    try:
        for _ in range(600):  # basedpyright ready
            health = httpx.get(base + "/health").json()
            if health["servers"] and all(s["state"] == "ready" for s in health["servers"]):
                break
            await asyncio.sleep(0.1)
        pid = health["pid"]
        await hovers(base + "/mcp", 20)
        rows = []
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS
            )
            for _ in range(rounds):
                rows.append(await window(pid, base, None, seconds, n))
                rows.append(await window(pid, base, browser, seconds, n))
            await browser.close()
        polls = poll_cost(base, first=True), poll_cost(base, first=False)
    finally:
        subprocess.run([*lspd, "stop", str(root)], env=env, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    print(table(rows, seconds, load_before, load(), polls, record_cost()))
    print(json.dumps(rows))


def table(
    rows: list[dict[str, Any]],
    seconds: float,
    before: str,
    after: str,
    polls: tuple[tuple[float, float, int], ...],
    record_us: float,
) -> str:
    lines = [
        f"status page: windows of {seconds:g} s, load before {before}, after {after}",
        "| page | daemon CPU % | daemon RSS MB | hover p50 ms | hover p95 ms | polls |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines += [
        f"| {r['page']} | {r['cpu_percent']:.2f} | {r['rss_mb']:.1f} | {r['hover_p50_ms']:.1f} "
        f"| {r['hover_p95_ms']:.1f} | {r['polls']} |"
        for r in rows
    ]
    for state in ("closed", "open"):
        mine = [r for r in rows if r["page"] == state]
        lines.append(
            f"| {state} (mean) | {statistics.mean(r['cpu_percent'] for r in mine):.2f} "
            f"| {statistics.mean(r['rss_mb'] for r in mine):.1f} "
            f"| {statistics.mean(r['hover_p50_ms'] for r in mine):.1f} "
            f"| {statistics.mean(r['hover_p95_ms'] for r in mine):.1f} | |"
        )
    for what, (p50, p95, size) in zip(("first", "steady"), polls, strict=True):
        lines.append(
            f"GET /status/live, {what} poll (HTTP round trip included): p50 {p50:.1f} ms, "
            f"p95 {p95:.1f} ms, {size:,} bytes"
        )
    lines.append(f"recording a tool call (`Calls.record`): {record_us:.2f} µs")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="length of each window")
    parser.add_argument("--rounds", type=int, default=2, help="closed/open pairs of windows")
    parser.add_argument("--hovers", type=int, default=200, help="hover calls after each window")
    args = parser.parse_args()
    asyncio.run(run(args.seconds, args.rounds, args.hovers))


if __name__ == "__main__":
    main()
