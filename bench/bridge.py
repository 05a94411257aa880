"""Benchmark of `lspd mcp`: hover through the stdio bridge vs straight to the daemon.

    .venv/bin/python bench/bridge.py [--iterations N] [--rounds R]

Starts a daemon (`python -m lspd serve`) on a temporary copy of tests/fixtures/py, then
measures the same `hover` call with the MCP SDK's client two ways: over streamable HTTP
to the daemon's /mcp (direct), and over stdio to `lspd mcp` (bridge), which passes it to the
same daemon. Both eras of the protocol: the SDK's default (`auto`: 2026-07-28, one stateless
POST per call) and `legacy` (the initialize handshake and an HTTP session, as Claude Code,
Codex and the MCP Inspector connect). The calls alternate in rounds (direct, bridge,
direct, ...) so that the machine's load falls on both alike. Prints p50/p95 of each, the
bridge's extra time, the bridge's start (spawn to tools/list answered) and its RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from processes import rss_mb  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "py"
HOVER = {"path": "pkg/app.py", "line": 1, "column": 26}


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def bridge_params(root: Path, env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "lspd", "mcp", "--root", str(root)], env=env
    )


@asynccontextmanager
async def connected(target: Any, mode: str) -> AsyncIterator[Client]:
    async with Client(target, mode=mode, cache=None) as client:
        yield client


async def calls(client: Client, n: int, into: list[float]) -> None:
    for _ in range(n):
        started = time.perf_counter()
        result = await client.call_tool("hover", HOVER)
        into.append(time.perf_counter() - started)
        if result.is_error:
            raise SystemExit(f"hover failed: {result.content}")


async def compare(url: str, params: StdioServerParameters, mode: str, n: int, rounds: int):
    direct: list[float] = []
    bridged: list[float] = []
    async with connected(url, mode) as http, connected(params, mode) as stdio:
        await calls(http, 5, [])
        await calls(stdio, 5, [])  # warm up both
        for _ in range(rounds):
            await calls(http, n // rounds, direct)
            await calls(stdio, n // rounds, bridged)
    return direct, bridged


async def bridge_start(params: StdioServerParameters) -> tuple[float, float]:
    """Seconds from spawning `lspd mcp` to tools/list answered, and its RSS then (MB)."""
    started = time.perf_counter()
    async with connected(params, "legacy") as client:
        await client.list_tools()
        elapsed = time.perf_counter() - started
        pid = bridge_pid(params)
        return elapsed, rss_mb(pid) if pid else float("nan")


def bridge_pid(params: StdioServerParameters) -> int | None:
    """The pid of the `lspd mcp` this process started (the newest)."""
    found = subprocess.run(
        ["pgrep", "-n", "-P", str(os.getpid()), "-f", "lspd mcp"], capture_output=True, text=True
    )
    return int(found.stdout.split()[0]) if found.stdout.strip() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=400, help="calls per way and era")
    parser.add_argument("--rounds", type=int, default=8, help="alternations of the two ways")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="lspd-bench-bridge-"))
    root = base / "ws"
    shutil.copytree(FIXTURE, root)
    env = {**os.environ, "LSPD_STATE_DIR": str(base / "state")}
    lspd = [sys.executable, "-m", "lspd"]
    started = subprocess.run([*lspd, "serve", str(root), "--detach"], env=env, capture_output=True)
    url = started.stdout.decode().strip()
    try:
        params = bridge_params(root, env)
        load = os.getloadavg()
        print(f"hover, {args.iterations} calls per row, load {load[0]:.2f} {load[1]:.2f}")
        print(f"{'era':<10}{'way':<10}{'p50 ms':>9}{'p95 ms':>9}{'extra p50':>11}{'extra p95':>11}")
        for mode in ("auto", "legacy"):
            direct, bridged = asyncio.run(compare(url, params, mode, args.iterations, args.rounds))
            base50, base95 = pct(direct, 0.5), pct(direct, 0.95)
            print(f"{mode:<10}{'direct':<10}{base50:>9.2f}{base95:>9.2f}")
            p50, p95 = pct(bridged, 0.5), pct(bridged, 0.95)
            extra = f"{p50 - base50:>11.2f}{p95 - base95:>11.2f}"
            print(f"{mode:<10}{'bridge':<10}{p50:>9.2f}{p95:>9.2f}{extra}")
        elapsed, rss = asyncio.run(bridge_start(params))
        print(f"bridge start to tools/list answered (daemon up): {elapsed * 1000:.0f} ms")
        print(f"bridge RSS: {rss:.0f} MB; load after: {os.getloadavg()[0]:.2f}")
    finally:
        subprocess.run([*lspd, "stop", str(root)], env=env, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
