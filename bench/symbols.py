"""Benchmark of addressing symbols by name on a real project: click 8.1.7 through the daemon.

    .venv/bin/python bench/symbols.py [--rounds N] [--json FILE]

Downloads click 8.1.7's sdist (library, tests and examples: 71 Python files, 17.5k lines)
into a temp dir and serves it with a real daemon (`python -m lspd serve`, basedpyright).
Through the MCP SDK client: `definition` of 10 names N rounds (5: 50 calls) and
`references` of 5 names twice (10 calls, after one untimed search of each name by position:
the server's first search of a name takes about a second either way), by `symbol` and by
the position the name resolves to, interleaved; p50/p95 of each, the first ask of each name
by itself (its candidate files' symbols are read then; the warm rows are the other asks).
Cold, alternating, three times each in the same run: from spawning `lspd serve` (and `lspd
serve --no-prewarm`) to the first correct by-name definition, and basedpyright's own cold
start to a correct answer (spawned through lspd's LSP layer, no daemon nor workspace, asked
at once and again until the answer is right), as is (it finds `python3` on PATH itself) and
given the interpreter lspd hands it (the one behind a pyenv-style shim: the fair comparison,
since basedpyright runs a shim at each of its set-ups, 0.1-0.3 s each); then the phases of
lspd's cold path in-process, one after the other, to show where the difference goes.
Resident memory summed over the daemon's process tree after the cold start, the definitions
and the references (Serena: 409 MB on this work), and on a second daemon asked the same by
position only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]

from mcp import Client  # noqa: E402
from processes import descendants, rss_mb, stop  # noqa: E402

from lspd.lsp.session import Session  # noqa: E402
from lspd.ops import navigation  # noqa: E402
from lspd.servers.registry import ServerDefinition, definitions  # noqa: E402
from lspd.workspace import Workspace  # noqa: E402
from lspd.workspace.toolchain import Choice, adapt, settle  # noqa: E402

CLICK = "click==8.1.7"
DEFINITIONS = [
    "Context.invoke",
    "BaseCommand.main",
    "Group.add_command",
    "utils.echo",
    "Context.find_root",
    "Parameter.get_default",
    "style",
    "secho",
    "Context.forward",
    "HelpFormatter.write_usage",
]
REFERENCES = ["Context.invoke", "Group.add_command", "Context.find_root", "secho", "style"]
COLD_NAME = "Context.invoke"
COLD_FILE, COLD_LINE, COLD_COLUMN = "src/click/core.py", 715, 9  # where it is declared
PEER_RSS_MB = 409  # Serena's tree on the same work (docs/field notes)


def fetch_click(base: Path) -> Path:
    """click's sdist from the package index, unpacked under `base`."""
    downloads = base / "downloads"
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"),
            *("--disable-pip-version-check", "--quiet", "-d", str(downloads), CLICK),
        ],
        check=True,
        timeout=300,
    )
    with tarfile.open(next(downloads.glob("click-*.tar.gz"))) as archive:
        archive.extractall(base, filter="data")
    return (base / "click-8.1.7").resolve()


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def start_daemon(root: Path, state: Path, *options: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "lspd", "serve", str(root), *options],
        env={**os.environ, "LSPD_STATE_DIR": str(state)},
        cwd=state,  # not the root: its modules must not shadow lspd's imports
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def wait_sentinel(root: Path, process: subprocess.Popen[bytes]) -> int:
    sentinel = root / ".vscode" / ".mcp-port"
    while not sentinel.exists():
        if process.poll() is not None:
            raise SystemExit("the daemon exited before writing its sentinel")
        time.sleep(0.002)
    return int(sentinel.read_text())


def first_location(result: Any) -> tuple[str, int, int] | None:
    if result.is_error or not result.structured_content:
        return None
    locations = result.structured_content.get("locations") or []
    if not locations:
        return None
    first = locations[0]
    return (first["path"], first["line"], first["column"])


async def lspd_cold(
    root: Path, state: Path, *options: str
) -> tuple[subprocess.Popen[bytes], tuple[float, float], float]:
    """Spawn the daemon; seconds to its sentinel and to the MCP client's connection (its
    handshake done), and to the first correct by-name answer."""
    started = time.perf_counter()
    process = start_daemon(root, state, *options)
    port = wait_sentinel(root, process)
    sentinel = time.perf_counter() - started
    async with Client(f"http://127.0.0.1:{port}/mcp") as client:
        connected = time.perf_counter() - started
        while time.perf_counter() - started < 120:
            result = await client.call_tool("definition", {"symbol": COLD_NAME})
            if first_location(result) == (COLD_FILE, COLD_LINE, COLD_COLUMN):
                return process, (sentinel, connected), time.perf_counter() - started
    raise SystemExit(f"no correct answer for {COLD_NAME} within 120 s")


def given_interpreter(root: Path) -> ServerDefinition:
    """basedpyright as lspd runs it on `root`: `python3` on PATH found and, when that is a
    shim, the interpreter it runs (toolchain.settle), as `pythonPath`."""
    definition, found = adapt(definitions()["basedpyright"], root, root, Choice())
    return definition if found is None else settle(definition, found, root)[0]


async def server_cold(root: Path, logs: Path, definition: ServerDefinition) -> tuple[float, float]:
    """basedpyright alone: seconds to initialized, and to a correct definition."""
    started = time.perf_counter()
    session = Session(definition, root, logs)
    path = root / COLD_FILE
    try:
        await session.start()
        initialized = time.perf_counter() - started
        await session.sync_document(path, path.read_text(), "python")
        params = {
            "textDocument": {"uri": path.as_uri()},
            "position": {"line": COLD_LINE - 1, "character": COLD_COLUMN - 1},
        }
        while time.perf_counter() - started < 120:
            answer = await session.send("textDocument/definition", params, 30.0)
            items = answer if isinstance(answer, list) else [answer] if answer else []
            if any(
                (item.get("targetUri") or item.get("uri")) == path.as_uri()
                and (item.get("targetSelectionRange") or item.get("range"))["start"]["line"]
                == COLD_LINE - 1
                for item in items
            ):
                return initialized, time.perf_counter() - started
        raise SystemExit("basedpyright gave no correct definition within 120 s")
    finally:
        await session.stop()


async def phases(root: Path, logs: Path) -> list[tuple[str, float]]:
    """lspd's cold path in-process, one step after the other (in the daemon they overlap)."""
    out: list[tuple[str, float]] = []
    started = time.perf_counter()

    async def step(name: str, work: Awaitable[Any]) -> None:
        begin = time.perf_counter()
        await work
        out.append((name, time.perf_counter() - begin))

    ws = Workspace(root, log_dir=logs)
    try:
        await step("watcher in place (the word scan starts)", ws.watch())
        await step("word scan of every source file", ws.symbols.refresh())
        session = ws.session_for(root / COLD_FILE)
        await step("basedpyright started and initialized", session.start())
        parts = COLD_NAME.split(".")
        await step("candidate files' document symbols", ws.symbols.find(parts))
        await step(
            "definition (target opened, loaded)", navigation.definition(ws, symbol=COLD_NAME)
        )
        out.append(("total", time.perf_counter() - started))
    finally:
        await ws.close()
    return out


async def timed(call: Callable[[], Awaitable[Any]]) -> float:
    begin = time.perf_counter()
    result = await call()
    elapsed = (time.perf_counter() - begin) * 1000
    assert not result.is_error, result.content
    return elapsed


async def warm(
    client: Client, rounds: int, pid: int, memory: dict[str, tuple[float, float]]
) -> tuple[dict[str, list[float]], list[float], dict[str, dict[str, Any]]]:
    """By name and by position, interleaved: samples (ms) per row, the first asks and the
    position of each name; the daemon's tree's memory after each part into `memory`."""
    rows: dict[str, list[float]] = {
        "definition by name": [],  # warm: the first ask of each name is kept apart
        "definition by position": [],
        "references by name": [],
        "references by position": [],
    }
    first: list[float] = []
    where: dict[str, dict[str, Any]] = {}
    for round_ in range(rounds):
        for name in DEFINITIONS:
            ms = await timed(partial(client.call_tool, "definition", {"symbol": name}))
            (first if round_ == 0 else rows["definition by name"]).append(ms)
            if name not in where:
                hover = await client.call_tool("hover", {"symbol": name})
                found = hover.structured_content or {}
                where[name] = {k: found[k] for k in ("path", "line", "column")}
            position = where[name]
            rows["definition by position"].append(
                await timed(partial(client.call_tool, "definition", position))
            )
    memory["after definitions"] = tree_memory(pid)
    for name in REFERENCES:  # not timed: the server's first search of each name (~1 s)
        await timed(partial(client.call_tool, "references", where[name]))
    for round_ in range(2):
        for name in REFERENCES:
            by_name = partial(client.call_tool, "references", {"symbol": name})
            by_position = partial(client.call_tool, "references", where[name])
            order = [("name", by_name), ("position", by_position)]
            for how, call in order if round_ == 0 else order[::-1]:
                rows[f"references by {how}"].append(await timed(call))
    memory["after references"] = tree_memory(pid)
    return rows, first, where


async def by_position_only(
    root: Path, state: Path, rounds: int, where: dict[str, dict[str, Any]]
) -> dict[str, tuple[float, float]]:
    """The same questions by position only, on a daemon of their own: its tree's memory
    after the definitions and after the references (what addressing by name adds)."""
    memory: dict[str, tuple[float, float]] = {}
    process = start_daemon(root, state)
    try:
        port = wait_sentinel(root, process)
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            for _ in range(rounds * 2):
                for name in DEFINITIONS:
                    await timed(partial(client.call_tool, "definition", where[name]))
            memory["by position only, after definitions"] = tree_memory(process.pid)
            for _ in range(5):
                for name in REFERENCES:
                    await timed(partial(client.call_tool, "references", where[name]))
            memory["by position only, after references"] = tree_memory(process.pid)
    finally:
        stop(process)
    return memory


def tree_memory(pid: int) -> tuple[float, float]:
    """(the daemon's own RSS, the whole tree's) in MB."""
    return rss_mb(pid), sum(rss_mb(p) for p in descendants(pid))


async def main(rounds: int, json_path: Path | None) -> None:
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="lspd-bench-symbols-") as temp:
        base = Path(temp)
        root = fetch_click(base)
        state = base / "state"
        state.mkdir()
        cold: dict[str, list[float]] = {
            "server": [],
            "server_init": [],
            "server_given": [],
            "lspd": [],
            "lspd_no_prewarm": [],
        }
        sentinels: list[tuple[float, float]] = []
        process = None
        memory: dict[str, tuple[float, float]] = {}
        try:
            given = given_interpreter(root)
            for _ in range(3):
                bare = definitions()["basedpyright"]
                initialized, answer = await server_cold(root, base / "raw-logs", bare)
                cold["server_init"].append(initialized)
                cold["server"].append(answer)
                _, answer = await server_cold(root, base / "raw-logs", given)
                cold["server_given"].append(answer)
                if process is not None:
                    stop(process)
                process, _, answer = await lspd_cold(root, state, "--no-prewarm")
                cold["lspd_no_prewarm"].append(answer)
                stop(process)
                process, sentinel, answer = await lspd_cold(root, state)
                sentinels.append(sentinel)
                cold["lspd"].append(answer)
            assert process is not None
            port = wait_sentinel(root, process)
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                memory["after cold start"] = tree_memory(process.pid)
                rows, first, where = await warm(client, rounds, process.pid, memory)
                status = (await client.call_tool("status", {})).structured_content or {}
        finally:
            if process is not None:
                stop(process)
        memory.update(await by_position_only(root, state, rounds, where))
        steps = await phases(root, base / "phase-logs")
    report(rows, first, cold, sentinels, steps, status, memory, load_start)
    if json_path is not None:
        json_path.write_text(
            json.dumps(
                {
                    "cold_s": cold,
                    "sentinel_s": sentinels,
                    "rss_mb": memory,
                    "samples_ms": {"definition by name, first ask": first, **rows},
                }
            )
        )


def report(
    rows: dict[str, list[float]],
    first: list[float],
    cold: dict[str, list[float]],
    sentinels: list[tuple[float, float]],
    steps: list[tuple[str, float]],
    status: dict[str, Any],
    memory: dict[str, tuple[float, float]],
    load_start: tuple[float, float, float],
) -> None:
    header = f"{'click 8.1.7, through MCP':<34}{'calls':>6}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}"
    lines = [header, "-" * len(header)]
    for name, samples in rows.items():
        lines.append(
            f"{name:<34}{len(samples):>6}{statistics.median(samples):>9.1f}"
            f"{pct(samples, 0.95):>9.1f}{max(samples):>9.1f}"
        )
    lines.insert(
        2,
        f"{'definition by name, first ask':<34}{len(first):>6}"
        f"{statistics.median(first):>9.1f}{pct(first, 0.95):>9.1f}{max(first):>9.1f}",
    )
    for kind in ("definition", "references"):
        gap = statistics.median(rows[f"{kind} by name"]) - statistics.median(
            rows[f"{kind} by position"]
        )
        lines.append(f"{kind}, warm: by name - by position, p50: {gap:+.1f} ms (target <= +5 ms)")
    server, lspd = statistics.median(cold["server_given"]), statistics.median(cold["lspd"])
    alone = statistics.median(cold["server"])
    lines += [
        "",
        "cold (s)                              runs                median",
        f"basedpyright alone: to initialized  {_runs(cold['server_init'])}",
        f"basedpyright alone: correct answer  {_runs(cold['server'])}",
        f"  given lspd's interpreter          {_runs(cold['server_given'])}",
        f"lspd serve: sentinel written        {_runs([s for s, _ in sentinels])}",
        f"  MCP client connected              {_runs([c for _, c in sentinels])}",
        f"lspd serve: correct by-name answer  {_runs(cold['lspd'])}",
        f"  the same with --no-prewarm        {_runs(cold['lspd_no_prewarm'])}",
        f"lspd - basedpyright as it runs alone: {lspd - alone:+.2f} s (target <= +0.20 s)",
        f"lspd - basedpyright given the same interpreter: {lspd - server:+.2f} s",
        "",
        "lspd's cold path in-process, step by step (s):",
        *(f"  {name:<44}{seconds:>7.2f}" for name, seconds in steps),
        "",
    ]
    for server_status in status.get("servers", []):
        lines.append(
            f"after the run: {server_status.get('server')} holds "
            f"{server_status.get('open_documents')} open documents, "
            f"{server_status.get('rss_mb') or 0:.0f} MB"
        )
    for when, (own, total) in memory.items():
        lines.append(
            f"RSS of lspd's process tree {when}: {total:.0f} MB (daemon {own:.0f} MB, "
            f"servers {total - own:.0f} MB)"
        )
    lines += [
        f"target after the run: <= 400 MB; Serena's tree on the same work: {PEER_RSS_MB} MB",
        f"load average: {load_start[0]:.2f} at start, {os.getloadavg()[0]:.2f} at the end "
        f"({os.cpu_count()} cores, {cpu()})",
    ]
    print("\n".join(lines))


def cpu() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


def _runs(values: list[float]) -> str:
    listed = ", ".join(f"{v:.2f}" for v in values)
    return f"{listed:<14}{statistics.median(values):>6.2f}"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the 10 definitions")
    parser.add_argument("--json", type=Path, help="also write the figures and samples here")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.rounds, arguments.json))
