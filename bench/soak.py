"""Soak: many mixed tool calls from concurrent MCP clients against one daemon on real code.

    .venv/bin/python bench/soak.py [--calls 20000] [--clients 8] [--workspace DIR] [--json FILE]

Starts `python -m lspd serve` on a real code base (by default the pinned `rich` wheel from
the package index, unpacked into a temp dir; or `--workspace DIR`, used in place), learns
positions from `document_symbols`, then spreads `--calls` calls of every read tool over
`--clients` SDK clients. Every answer must be a result (no tool error). Prints per-tool
latency, failures, and the resident memory of the daemon and of each language server's
process tree at start, after a warm-up (every tool once on every target, then tenths of a
mixed run until memory settles), after every tenth of the calls and at the end; growth
after the warm-up must stay under 10 %. Exits 1 when a call failed or memory grew more.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]

import httpx  # noqa: E402
from mcp import Client  # noqa: E402
from processes import descendants, rss_mb, stop  # noqa: E402

from ops import download_library  # noqa: E402

LIBRARY = "rich==13.9.4"
MAX_GROWTH = 0.10
SETTLED = 0.02  # the warm-up ends when a tenth of the calls moves memory less than this
MAX_WARM_UP_ROUNDS = 10
FILES = 24  # source files whose symbols give the positions

# tool -> weight in the mix (roughly what agents ask most)
MIX = {
    "hover": 24,
    "definition": 18,
    "references": 10,
    "document_symbols": 10,
    "workspace_symbols": 10,
    "diagnostics": 10,
    "type_definition": 6,
    "implementation": 4,
    "call_hierarchy": 6,
    "status": 2,
}


# -- processes and memory --------------------------------------------------------------------


def memory(base: str) -> dict[str, float]:
    """RSS (MB) of the daemon alone and of each language server's process tree."""
    health = httpx.get(f"{base}/health", timeout=10).json()
    daemon = int(health["pid"])
    out = {"daemon": rss_mb(daemon)}
    for server in health["servers"]:
        if server["pid"]:
            label = f"{server['server']} ({server['project']})"
            out[label] = sum(rss_mb(pid) for pid in descendants(int(server["pid"])))
    return out


def start_daemon(root: Path, state: Path) -> tuple[subprocess.Popen[bytes], str]:
    sentinel = root / ".vscode" / ".mcp-port"
    sentinel.unlink(missing_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "lspd", "serve", str(root), "--idle-timeout", "0"],
        env={**os.environ, "LSPD_STATE_DIR": str(state)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    try:
        while not sentinel.exists():
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the daemon did not start; see {state}")
            time.sleep(0.02)
        base = f"http://127.0.0.1:{int(sentinel.read_text())}"
        while True:  # prewarm: the servers of the languages present are running
            servers = httpx.get(f"{base}/health", timeout=10).json()["servers"]
            if servers and all(s["state"] in ("indexing", "ready") and s["pid"] for s in servers):
                return process, base
            if time.monotonic() > deadline:
                raise SystemExit(f"the language servers did not become ready: {servers}")
    except BaseException:  # the caller only stops a daemon it was given
        stop(process)
        raise
        time.sleep(0.1)


# -- the calls -----------------------------------------------------------------------------


@dataclass
class Targets:
    """What the calls are about: files, symbol positions and names, all from the server."""

    files: list[str] = field(default_factory=list)
    positions: list[dict[str, Any]] = field(default_factory=list)  # path, line, column
    callables: list[dict[str, Any]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


def flatten(symbols: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for symbol in symbols:
        out.append(symbol)
        out += flatten(symbol.get("children", []))
    return out


async def learn(url: str, root: Path, count: int) -> Targets:
    sources = sorted(
        (p for p in root.rglob("*.py") if ".vscode" not in p.parts),
        key=lambda p: -p.stat().st_size,
    )
    targets = Targets()
    async with Client(url) as client:
        for path in sources[:count]:
            shown = path.relative_to(root).as_posix()
            result = await client.call_tool("document_symbols", {"path": shown})
            if result.is_error or result.structured_content is None:
                raise SystemExit(f"document_symbols {shown} failed: {result.content}")
            targets.files.append(shown)
            for symbol in flatten(result.structured_content["symbols"]):
                position = {"path": shown, "line": symbol["line"], "column": symbol["column"]}
                if symbol["kind"] in ("class", "function", "method"):
                    targets.positions.append(position)
                    targets.names.append(symbol["name_path"].rpartition(".")[2])
                if symbol["kind"] in ("function", "method"):
                    targets.callables.append(position)
    if not targets.callables:
        raise SystemExit(f"no function found in {root}")
    return targets


def arguments(tool: str, targets: Targets, pick: random.Random) -> dict[str, Any]:
    if tool in ("hover", "definition", "type_definition", "references"):
        return dict(pick.choice(targets.positions))
    if tool in ("implementation", "call_hierarchy"):
        call = dict(pick.choice(targets.callables))
        if tool == "call_hierarchy":
            call["direction"] = pick.choice(("incoming", "outgoing"))
        return call
    if tool in ("document_symbols", "diagnostics"):
        return {"path": pick.choice(targets.files)}
    if tool == "workspace_symbols":
        return {"query": pick.choice(targets.names)}
    return {}


@dataclass
class Run:
    samples: dict[str, list[float]] = field(default_factory=lambda: {t: [] for t in MIX})
    failures: dict[str, list[str]] = field(default_factory=lambda: {t: [] for t in MIX})
    done: int = 0


Plan = list[tuple[str, dict[str, Any]]]


def mixed(targets: Targets, calls: int, seed: int) -> Plan:
    """`calls` calls of the tools in the proportions of `MIX`, about random targets."""
    pick = random.Random(seed)
    tools = pick.choices(list(MIX), weights=list(MIX.values()), k=calls)
    return [(tool, arguments(tool, targets, pick)) for tool in tools]


def warm_up(targets: Targets) -> Plan:
    """Every tool once on every target it takes, so that later growth is what the calls
    leave behind, not the server loading more of the program into its caches."""
    plan: Plan = []
    for path in targets.files:
        plan += [("diagnostics", {"path": path}), ("document_symbols", {"path": path})]
    for position in targets.positions:
        for tool in ("hover", "definition", "type_definition", "references"):
            plan.append((tool, dict(position)))
    for call in targets.callables:
        plan += [("implementation", dict(call))]
        plan += [("call_hierarchy", {**call, "direction": d}) for d in ("incoming", "outgoing")]
    plan += [("workspace_symbols", {"query": name}) for name in sorted(set(targets.names))]
    return plan


async def settle(url: str, base: str, targets: Targets, args: argparse.Namespace) -> Any:
    """Warm up: every tool on every target, then tenths of a mixed run until the memory of
    every process changes less than `SETTLED` from one tenth to the next."""
    print(f"warm-up: every tool on every target ({len(warm_up(targets))} calls)", file=sys.stderr)
    warming, _, seconds = await drive(url, base, warm_up(targets), args.clients)
    before = memory(base)
    for round in range(1, MAX_WARM_UP_ROUNDS + 1):
        plan = mixed(targets, max(1, args.calls // 10), args.seed + round)
        more, _, more_seconds = await drive(url, base, plan, args.clients)
        warming.done += more.done
        for tool, failures in more.failures.items():
            warming.failures[tool] += failures
        seconds += more_seconds
        after = memory(base)
        if all(abs(after.get(k, 0) - v) <= SETTLED * v for k, v in before.items()):
            break
        before = after
    return warming, seconds


async def drive(url: str, base: str, plan: Plan, clients: int) -> Any:
    """Run `plan` over `clients` clients; memory is read after every tenth of it."""
    calls = len(plan)
    run = Run()
    step = max(1, calls // 10)
    readings: list[asyncio.Task[dict[str, float]]] = []
    queue = iter(plan)

    async def client_loop() -> None:
        async with Client(url) as client:
            for tool, args in queue:  # shared: each call is taken by one client
                started = time.perf_counter()
                try:
                    result = await client.call_tool(tool, args)
                    error = None if not result.is_error and result.structured_content else result
                except Exception as exc:  # a transport failure is a failure too
                    error = exc
                run.samples[tool].append((time.perf_counter() - started) * 1000)
                if error is not None:
                    run.failures[tool].append(f"{args}: {getattr(error, 'content', error)}")
                run.done += 1
                if run.done % step == 0:
                    readings.append(asyncio.create_task(asyncio.to_thread(memory, base)))
                    print(f"{run.done}/{calls} calls", file=sys.stderr, flush=True)

    started = time.perf_counter()
    await asyncio.gather(*(client_loop() for _ in range(clients)))
    elapsed = time.perf_counter() - started
    return run, list(await asyncio.gather(*readings)), elapsed


# -- report ----------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=True)]
    lines = [header, ["-" * w for w in widths], *rows]
    return "\n".join(
        "  ".join(str(c).rjust(w) for c, w in zip(row, widths, strict=True)) for row in lines
    )


def report(
    run: Run,
    rss: dict[str, dict[str, float]],
    series: list[dict[str, float]],
    elapsed: float,
    label: str,
) -> bool:
    all_samples = [s for samples in run.samples.values() for s in samples]
    failures = sum(len(f) for f in run.failures.values())
    rows = [
        [
            tool,
            str(len(samples)),
            str(len(run.failures[tool])),
            f"{statistics.median(samples):.2f}",
            f"{pct(samples, 0.99):.2f}",
            f"{max(samples):.1f}",
        ]
        for tool, samples in run.samples.items()
        if samples
    ]
    rows.append(
        [
            "all",
            str(len(all_samples)),
            str(failures),
            f"{statistics.median(all_samples):.2f}",
            f"{pct(all_samples, 0.99):.2f}",
            f"{max(all_samples):.1f}",
        ]
    )
    print(f"soak on {label}: {run.done} calls in {elapsed:.1f} s ({run.done / elapsed:.0f}/s)\n")
    print(table(["tool", "calls", "failures", "p50 ms", "p99 ms", "max ms"], rows))
    growth_ok = True
    memory_rows = []
    for name in rss["start"]:
        warm, end = rss["warm"].get(name, 0.0), rss["end"].get(name, 0.0)
        growth = (end - warm) / warm if warm else float("inf")
        growth_ok &= growth < MAX_GROWTH
        memory_rows.append(
            [name, f"{rss['start'][name]:.0f}", f"{warm:.0f}", f"{end:.0f}", f"{growth:+.1%}"]
        )
    print("\nresident memory (MB): at start, after warm-up, at the end; growth after warm-up\n")
    print(table(["process", "start", "warm", "end", "growth"], memory_rows))
    print("\nresident memory (MB) after every tenth of the calls\n")
    for name in rss["start"]:
        print(f"{name:>24}: " + " ".join(f"{reading.get(name, 0):.0f}" for reading in series))
    for tool, messages in run.failures.items():
        for message in messages[:3]:
            print(f"FAILED {tool}: {message[:300]}")
    ok = failures == 0 and growth_ok
    verdict = "PASS" if ok else "FAIL"
    print(f"\n{verdict}: {failures} failures; memory growth after warm-up < {MAX_GROWTH:.0%}")
    return ok


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--library", default=LIBRARY, help="a pure-Python wheel to download")
    parser.add_argument("--workspace", type=Path, help="serve this directory instead")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--files", type=int, default=FILES, help="files the calls are about")
    parser.add_argument("--json", type=Path, help="also write the figures and samples here")
    args = parser.parse_args()
    temp = Path(tempfile.mkdtemp(prefix="lspd-soak-"))
    process = None
    try:
        if args.workspace is not None:
            root, label = args.workspace.resolve(), str(args.workspace)
        else:
            root, label = download_library(args.library, temp), args.library
            # A wheel holds no pyproject.toml; the library's repository does, and a
            # directory without a project marker is not prewarmed (it starts when asked).
            name = args.library.partition("==")[0]
            (root / "pyproject.toml").write_text(f'[project]\nname = "{name}"\n')
        process, base = start_daemon(root, temp / "state")
        url = f"{base}/mcp"
        targets = await learn(url, root, args.files)
        rss = {"start": memory(base)}
        warming, warm_seconds = await settle(url, base, targets, args)
        rss["warm"] = memory(base)
        plan = mixed(targets, args.calls, args.seed)
        run, series, elapsed = await drive(url, base, plan, args.clients)
        rss["end"] = memory(base)
        warm_failures = [m for messages in warming.failures.values() for m in messages]
        print(
            f"warm-up: {warming.done} calls in {warm_seconds:.0f} s, "
            f"{len(warm_failures)} failures {warm_failures[:3]}\n"
        )
        ok = report(run, rss, series, elapsed, label) and not warm_failures
        if args.json is not None:
            data = {
                "workspace": label,
                "calls": run.done,
                "clients": args.clients,
                "seconds": elapsed,
                "failures": {t: len(f) for t, f in run.failures.items()},
                "warm_up": {"calls": warming.done, "failures": len(warm_failures)},
                "samples_ms": run.samples,
                "rss_mb": rss,
                "rss_series_mb": series,
                "ok": ok,
            }
            args.json.write_text(json.dumps(data))
        return 0 if ok else 1
    finally:
        if process is not None:
            stop(process)
        shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
