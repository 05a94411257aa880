"""Benchmark of the daemon: MCP round trip vs the operation in-process vs raw LSP.

    .venv/bin/python bench/mcp.py [--iterations N] [--json FILE]

Runs on a temporary copy of tests/fixtures/py with basedpyright. Prints one table:
per tool, p50/p99 of (a) an MCP `tools/call` through the SDK client to a real daemon
(`python -m lspd serve`), (a') the same call as one raw JSON-RPC POST (the CLI's warm
path, `lspd.daemon.client`: shows what the SDK client adds), (b) the same `lspd.ops`
call in this process on a warm workspace, (c) the raw LSP request on that workspace's
session. Then the daemon's start
to sentinel time, its RSS without language servers, and a burst of 8 concurrent clients
(calls/s, p50 and p99 of each call) against the daemon's hover and status and, in the same
run, against the SDK alone: a minimal `MCPServer` with one trivial tool served by uvicorn on
127.0.0.1 with the daemon's uvicorn options (`lspd.daemon.app.UVICORN_OPTIONS`), the ceiling
of this machine for any tool.
`--json FILE` also writes the figures and the MCP round-trip samples of every tool.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]

import httpx  # noqa: E402
from mcp import Client  # noqa: E402
from processes import cpu_seconds, rss_mb, stop  # noqa: E402

from lspd.daemon import client as daemon_client  # noqa: E402
from lspd.daemon import finding  # noqa: E402
from lspd.lsp.text import path_to_uri  # noqa: E402
from lspd.ops import state as state_ops  # noqa: E402
from lspd.surface.table import operation  # noqa: E402
from lspd.workspace import Workspace  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "py"

# tool -> (MCP arguments, raw LSP method and params builder or None)
APP, GREETING = "pkg/app.py", "pkg/greeting.py"


def position(root: Path, path: str, line: int, column: int) -> dict[str, Any]:
    return {
        "textDocument": {"uri": path_to_uri(root / path)},
        "position": {"line": line - 1, "character": column - 1},
    }


CASES: list[tuple[str, dict[str, Any], str | None, Callable[[Path], Any] | None]] = [
    (
        "hover",
        {"path": APP, "line": 1, "column": 26},
        "textDocument/hover",
        lambda r: position(r, APP, 1, 26),
    ),
    (
        "definition",
        {"path": APP, "line": 5, "column": 15},
        "textDocument/definition",
        lambda r: position(r, APP, 5, 15),
    ),
    (
        "type_definition",
        {"path": APP, "line": 6, "column": 12},
        "textDocument/typeDefinition",
        lambda r: position(r, APP, 6, 12),
    ),
    (
        "references",
        {"path": GREETING, "line": 12, "column": 7},
        "textDocument/references",
        lambda r: {**position(r, GREETING, 12, 7), "context": {"includeDeclaration": True}},
    ),
    ("implementation", {"path": GREETING, "line": 18, "column": 9}, None, None),
    (
        "document_symbols",
        {"path": GREETING},
        "textDocument/documentSymbol",
        lambda r: {"textDocument": {"uri": path_to_uri(r / GREETING)}},
    ),
    ("workspace_symbols", {"query": "Greeter"}, "workspace/symbol", lambda r: {"query": "Greeter"}),
    (
        "call_hierarchy",
        {"path": GREETING, "line": 28, "column": 5},
        "textDocument/prepareCallHierarchy",
        lambda r: position(r, GREETING, 28, 5),
    ),
    (
        "diagnostics",
        {"path": "pkg/broken.py"},
        "textDocument/diagnostic",
        lambda r: {"textDocument": {"uri": path_to_uri(r / "pkg/broken.py")}},
    ),
    ("workspace_diagnostics", {}, None, None),
    ("status", {}, None, None),
]


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


async def timed(call: Callable[[], Awaitable[Any]], n: int) -> list[float]:
    for _ in range(3):
        await call()  # warm up
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - started)
    return samples


def start_daemon(root: Path, state: Path, *args: str) -> tuple[subprocess.Popen[bytes], int, float]:
    env = {**os.environ, "LSPD_STATE_DIR": str(state)}
    sentinel = root / ".vscode" / ".mcp-port"
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "lspd", "serve", str(root), *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    while not sentinel.exists():
        if process.poll() is not None:
            raise SystemExit("daemon exited")
        time.sleep(0.002)
    elapsed = time.perf_counter() - started
    return process, int(sentinel.read_text()), elapsed


@dataclass
class Burst:
    """Concurrent clients' calls: their rate and each call's round trip."""

    rate: float  # calls/s
    samples: list[float]  # seconds
    failures: int
    cpu_ms: float  # the server process's CPU time per call (its language servers not counted)

    def row(self, what: str) -> str:
        return (
            f"{what:<34}{self.rate:>9.0f}{pct(self.samples, 0.5):>9.2f}"
            f"{pct(self.samples, 0.99):>9.2f}{self.cpu_ms:>9.2f}{self.failures:>9}"
        )


async def burst(
    url: str, clients: int, calls: int, tool: str, arguments: dict[str, Any], server: int
) -> Burst:
    """`clients` SDK clients in this process, each connected and warmed up first, then
    `calls` calls each at once; `server` is the serving process's pid. Its CPU time per call
    changes less with the machine's load than the rate does: compare runs by it."""
    samples: list[float] = []
    failures = 0
    go = asyncio.Event()
    ready = 0

    async def one() -> None:
        nonlocal failures, ready
        async with Client(url) as client:
            await client.call_tool(tool, arguments)
            ready += 1
            if ready == clients:
                go.set()
            await go.wait()
            for _ in range(calls):
                started = time.perf_counter()
                result = await client.call_tool(tool, arguments)
                samples.append(time.perf_counter() - started)
                failures += bool(result.is_error)

    async def timed_run() -> tuple[float, float]:
        """Seconds and the server's CPU seconds of the calls (after every warm-up)."""
        await go.wait()
        cpu, started = cpu_seconds(server), time.perf_counter()
        await asyncio.gather(*tasks)
        return time.perf_counter() - started, cpu_seconds(server) - cpu

    tasks = [asyncio.ensure_future(one()) for _ in range(clients)]
    elapsed, cpu = await timed_run()
    cpu_ms = cpu * 1000 / (clients * calls)
    return Burst(clients * calls / elapsed, samples, failures, cpu_ms)


TRIVIAL = """\
import socket, uvicorn
from mcp.server.mcpserver import MCPServer
from lspd.daemon.app import UVICORN_OPTIONS
server = MCPServer(name="trivial", log_level="WARNING")
@server.tool()
async def ping() -> str:
    return "pong"
sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
sock.bind(("127.0.0.1", 0))
sock.listen(128)
print(sock.getsockname()[1], flush=True)
app = server.streamable_http_app(streamable_http_path="/mcp")
config = uvicorn.Config(app, log_config=None, access_log=False, **UVICORN_OPTIONS)
uvicorn.Server(config).run(sockets=[sock])
"""


def start_trivial() -> tuple[subprocess.Popen[bytes], str]:
    """The SDK alone in its own process: one trivial tool, `ping`; its URL."""
    process = subprocess.Popen(
        [sys.executable, "-c", TRIVIAL],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        cwd=tempfile.gettempdir(),
    )
    assert process.stdout is not None
    port = int(process.stdout.readline())
    with socket.create_connection(("127.0.0.1", port), timeout=30):
        pass  # queued until uvicorn accepts
    return process, f"http://127.0.0.1:{port}/mcp"


async def main(iterations: int, json_path: Path | None = None) -> None:
    base = Path(tempfile.mkdtemp(prefix="lspd-bench-"))
    root = base / "py"
    shutil.copytree(FIXTURE, root)
    state = base / "state"
    rows: list[str] = []
    samples: dict[str, list[float]] = {}  # MCP round trips (ms) per tool
    try:
        # Start -> sentinel and RSS without servers (median of 3 starts).
        starts, rss = [], []
        for _ in range(3):
            process, port, elapsed = start_daemon(root, state, "--no-prewarm")
            starts.append(elapsed)
            time.sleep(0.3)
            rss.append(rss_mb(process.pid))
            stop(process)

        process, port, _ = start_daemon(root, state)
        url = f"http://127.0.0.1:{port}/mcp"
        ws = Workspace(root, log_dir=base / "logs")
        try:
            found = finding.find_daemon(root)
            assert found is not None
            header = (
                f"{'tool':<22}{'MCP p50':>9}{'MCP p99':>9}{'HTTP p50':>9}{'HTTP p99':>9}"
                f"{'ops p50':>9}{'ops p99':>9}{'LSP p50':>9}{'LSP p99':>9}{'MCP-LSP':>9}"
                f"{'HTTP-LSP':>9}   (ms)"
            )
            rows += [header, "-" * len(header)]
            async with Client(url) as client, Client(url, mode="legacy") as legacy:
                for tool, arguments, method, params in CASES:
                    n = max(10, iterations // 10) if tool == "workspace_diagnostics" else iterations
                    raw = None if method is None or params is None else (method, params(root))
                    row, samples[tool] = await measure(client, found, ws, tool, arguments, raw, n)
                    rows.append(row)
                    if tool == "hover":
                        lg = await timed(partial(legacy.call_tool, "hover", arguments), n)
                        rows.append(
                            f"{'hover (legacy mode)':<22}{pct(lg, 0.5):>9.2f}{pct(lg, 0.99):>9.2f}"
                        )
            calls = max(50, iterations // 2)
            bursts = {
                "lspd hover": await burst(url, 8, calls, "hover", CASES[0][1], process.pid),
                "lspd status": await burst(url, 8, calls, "status", {}, process.pid),
            }
        finally:
            await ws.close()
            stop(process)
        trivial, trivial_url = start_trivial()
        try:
            sdk = await burst(trivial_url, 8, calls, "ping", {}, trivial.pid)
            bursts["SDK alone, trivial tool"] = sdk
        finally:
            stop(trivial)
        head = f"{'8 concurrent SDK clients, one process':<34}{'calls/s':>9}{'p50':>9}{'p99':>9}"
        head += f"{'CPU/call':>9}{'failures':>9}   (ms; CPU: the server process's)"
        rows += [
            "",
            f"daemon start -> sentinel: median {statistics.median(starts) * 1000:.0f} ms "
            f"(runs: {', '.join(f'{s * 1000:.0f}' for s in starts)})",
            f"daemon RSS without language servers: {statistics.median(rss):.1f} MB",
            "",
            head,
            "-" * len(head),
            *(b.row(what) for what, b in bursts.items()),
        ]
        print("\n".join(rows))
        if json_path is not None:
            figures = {
                "start_to_sentinel_ms": statistics.median(starts) * 1000,
                "rss_without_servers_mb": statistics.median(rss),
                "hover_calls_per_s_8_clients": bursts["lspd hover"].rate,
                "status_calls_per_s_8_clients": bursts["lspd status"].rate,
                "sdk_trivial_calls_per_s_8_clients": bursts["SDK alone, trivial tool"].rate,
                "bursts": {
                    what: {
                        "calls_per_s": b.rate,
                        "p50_ms": pct(b.samples, 0.5),
                        "p99_ms": pct(b.samples, 0.99),
                        "server_cpu_ms_per_call": b.cpu_ms,
                        "failures": b.failures,
                    }
                    for what, b in bursts.items()
                },
                "failures": sum(b.failures for b in bursts.values()),
            }
            json_path.write_text(json.dumps({**figures, "samples_ms": samples}))
    finally:
        shutil.rmtree(base, ignore_errors=True)


async def _status(ws: Workspace) -> Any:
    return state_ops.status(ws)


async def measure(
    client: Client,
    found: finding.Probe,
    ws: Workspace,
    tool: str,
    arguments: dict[str, Any],
    raw: tuple[str, Any] | None,
    n: int,
) -> tuple[str, list[float]]:
    """One table row: SDK client, raw HTTP, in-process and raw LSP timings of one tool;
    and the SDK client's samples (ms)."""

    async def mcp_call() -> None:
        result = await client.call_tool(tool, arguments)
        assert not result.is_error, result.content

    async def http_call() -> None:
        daemon_client.call_on(found, tool, arguments)

    async def in_process() -> None:
        await (operation(tool).function(ws, **arguments) if tool != "status" else _status(ws))

    mcp = await timed(mcp_call, n)
    http = await timed(http_call, n)
    inproc = await timed(in_process, n)
    cells = [pct(mcp, 0.5), pct(mcp, 0.99), pct(http, 0.5), pct(http, 0.99)]
    cells += [pct(inproc, 0.5), pct(inproc, 0.99)]
    if raw is not None:
        session = ws.session_for(ws.root / APP)
        lsp = await timed(partial(session.send, raw[0], raw[1], 30.0), n)
        lsp50 = pct(lsp, 0.5)
        cells += [lsp50, pct(lsp, 0.99), pct(mcp, 0.5) - lsp50, pct(http, 0.5) - lsp50]
    else:
        cells += [float("nan")] * 4
    return f"{tool:<22}" + "".join(f"{c:>9.2f}" for c in cells), [s * 1000 for s in mcp]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--json", type=Path, help="also write the figures and samples here")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.iterations, arguments.json))
    _ = httpx  # the daemon's client library, imported to count like the CLI
