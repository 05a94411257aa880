"""What one question costs through lspd beside raw basedpyright, on click (issue 43).

    .venv/bin/python bench/latency.py [--rounds N] [--colds N] [--json FILE]

click 8.1.7's sdist (bench/symbols.py fetches it). Cold, `--colds` times: from spawning `lspd
serve` to the first correct definition of `Context.invoke` by name (target <= 2 s). Then, on
that warm daemon, through the MCP SDK client, and on a basedpyright of its own spawned
through lspd's LSP layer (no daemon, no workspace: the raw server, given the interpreter
lspd hands it), the two interleaved pair by pair, `--rounds` times each:
- hover at four positions whose hovers name classes, type variables and no alias
  (target: lspd's p50 <= raw's + 3 ms);
- definition of `Context.invoke` by name (target p50 <= 3 ms) and by its position;
- `status` (the MCP round trip with no language server in it: the floor of every row).
Every answer is checked. The machine is shared: its load is printed with the figures.
Where an lspd row's milliseconds go: the SDK client's own CPU per call (this process, p50),
the daemon's CPU per call (/proc), and the same three questions as the CLI sends them (one
plain JSON-RPC POST, `lspd.daemon.client.call_on`: no SDK client) and over one connection
kept open (an MCP client's least cost: what lspd itself adds); cold, the spawn to the
sentinel (the daemon accepting connections), to the SDK client connected, to basedpyright's
process (its start time in /proc, read once after the answer: nothing polls while a cold start
is timed) and to its readiness (the daemon's log) beside the spawn to the first right answer.
The cold starts share one state directory, as a user's restarts do: the second and later
start the server the last one ran before lspd's own imports (`lspd.daemon.head_start`);
with `--fresh N` every Nth gets a state directory of its own (1: each; 2: every other, the
ones between reusing the one before), nothing remembered, as a harness's fresh copy or a
workspace never served has it: those start what the workspace's markers make certain
(`lspd.daemon.head_start_markers`). Each cold start says which kind it was, and the medians
are printed per kind.
A daemon of this version answers those before its MCP SDK is imported (`lspd.daemon.early`)
once an earlier run kept the SDK's answers (`lspd.daemon.kept_wire`, in the user's cache:
the bench's cold starts after the first ever have them).
Also the table printer (`print_table`) of bench/cli.py and bench/hooks.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)


def print_table(
    title: str, rows: dict[str, list[float]], json_path: Path | None, decimals: int = 0
) -> None:
    """`title`, then one line per row: its p50 and max in ms (`decimals` after the point);
    the samples into `json_path`."""
    print(f"{title}\n")
    print(f"{'what':34}  {'p50':>6}  {'max':>6}")
    print(f"{'-' * 34}  {'-' * 6}  {'-' * 6}")
    for name, samples in rows.items():
        p50, most = statistics.median(samples), max(samples)
        print(f"{name:34}  {p50:6.{decimals}f}  {most:6.{decimals}f}")
    if json_path is not None:
        json_path.write_text(json.dumps({"samples_ms": rows}, indent=1))


HOVERS = [  # file, line, column: each hover names classes or type variables, no alias
    ("src/click/core.py", 715, 9),  # Context.invoke
    ("src/click/core.py", 907, 9),  # BaseCommand.make_context
    ("src/click/utils.py", 219, 5),  # echo
    ("src/click/termui.py", 462, 5),  # style
]
BY_NAME = "Context.invoke"
CPU_CALLS_PER_ROUND = 5  # the daemon's CPU per call is read over 5 calls per round
DECLARED = ("src/click/core.py", 715, 9)


async def cold(root: Path, state: Path) -> tuple[Any, float, float, float, list[float | None]]:
    """A daemon spawned now; the seconds to its sentinel, to the SDK client connected (its
    `server/discover`) and to its first correct by-name definition; and to basedpyright's
    process's start (`/proc`) and to its readiness (the daemon's log). The client is
    imported first: an agent's client is loaded before it connects (it was imported after
    the sentinel, in the first cold start's figure, before 2026-11-29 14:30). `state` is
    the last cold start's (as a user's: what that run kept, `lspd.daemon.head_start`)."""
    from mcp import Client
    from symbols import start_daemon, wait_sentinel

    state.mkdir(exist_ok=True)
    for old in state.glob("*/daemon.log"):
        old.unlink()  # the last daemon's
    began, wall, boot = time.perf_counter(), time.time(), time.clock_gettime(time.CLOCK_BOOTTIME)
    process = start_daemon(root, state)
    port = await asyncio.to_thread(wait_sentinel, root, process)
    listening = time.perf_counter() - began
    async with Client(f"http://127.0.0.1:{port}/mcp") as client:
        connected = time.perf_counter() - began
        while True:
            result = await client.call_tool("definition", {"symbol": BY_NAME})
            if _declared(result.structured_content):
                answered = time.perf_counter() - began
                break
    spans = [server_started(process.pid, boot), ready_at(state, wall)]
    return process, listening, connected, answered, spans


SPANS = ("basedpyright's process", "basedpyright ready and warmed up (log)")
NOTHING, REMEMBERED = "nothing remembered", "remembered"  # the kinds of cold start


def server_started(pid: int, boot: float) -> float | None:
    """The seconds from `boot` (CLOCK_BOOTTIME at the spawn) to the start of the first
    process under `pid` running basedpyright's language server: its start time in /proc
    (clock ticks since boot: 10 ms steps), read after the answer, so nothing polls the
    machine while the cold start is timed (a thread looked every 5 ms before)."""
    ticks, todo = [], [pid]
    while todo:
        here = todo.pop()
        with contextlib.suppress(OSError):
            if b"langserver" in Path(f"/proc/{here}/cmdline").read_bytes():
                stat = Path(f"/proc/{here}/stat").read_text().rsplit(")", 1)[1].split()
                ticks.append(int(stat[19]))  # field 22, starttime
            for task in os.listdir(f"/proc/{here}/task"):
                todo += map(int, Path(f"/proc/{here}/task/{task}/children").read_text().split())
    return min(ticks) / os.sysconf("SC_CLK_TCK") - boot if ticks else None


def taken_ahead(state: Path) -> str:
    """What the daemon's session took of what `lspd serve` started ahead (its log): the
    server (`head_start`), the `python3` shim's answer (`interpreter_ask`), both or none."""
    log = "".join(path.read_text() for path in state.glob("*/daemon.log"))
    said = {
        "server": r"started ahead \(pid \d+\): taken",
        "shim": r"was asked ahead which interpreter it runs: taken",
    }
    taken = [what for what, line in said.items() if re.search(line, log)]
    return "+".join(taken) or "-"


def ready_at(state: Path, wall: float) -> float | None:
    """The seconds from `wall` (the spawn) to the daemon's log saying its prewarmed
    servers are ready (daemon/background.py's "prewarm done": its asctime, to the ms)."""
    for path in state.glob("*/daemon.log"):
        for line in path.read_text().splitlines():
            if "prewarm done" in line:
                stamp = time.mktime(time.strptime(line[:19], "%Y-%m-%d %H:%M:%S"))
                return stamp + int(line[20:23]) / 1000 - wall
    return None


def _declared(answer: dict[str, Any] | None) -> bool:
    first = ((answer or {}).get("locations") or [{}])[0]
    return (first.get("path"), first.get("line"), first.get("column")) == DECLARED


def cpu_ms(pid: int) -> float:
    """User + system CPU milliseconds of one process so far (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


async def warm(
    root: Path, port: int, rounds: int, logs: Path, pid: int
) -> tuple[dict[str, list[float]], dict[str, float], dict[str, list[float]]]:
    """Samples (ms) per row, lspd and raw interleaved pair by pair; the daemon's own CPU
    per call of three of them (ms: what lspd spends, whatever the machine's load); and the
    SDK client's CPU (ms) per call of each lspd row."""
    from mcp import Client
    from symbols import given_interpreter

    from lspd.daemon.client import call_on, stateless_post
    from lspd.daemon.finding import find_daemon
    from lspd.lsp.session import Session

    rows: dict[str, list[float]] = {}
    client_cpu: dict[str, list[float]] = {}
    found = find_daemon(root)
    assert found is not None and found.port == port, found
    raw = Session(given_interpreter(root), root, logs)
    await raw.start()
    try:
        for path, _, _ in HOVERS:
            await raw.sync_document(root / path, (root / path).read_text(), "python")
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:

            async def lspd(row: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
                began, cpu_began = time.perf_counter(), time.process_time()
                result = await client.call_tool(tool, arguments)
                rows.setdefault(row, []).append((time.perf_counter() - began) * 1000)
                client_cpu.setdefault(row, []).append((time.process_time() - cpu_began) * 1000)
                assert not result.is_error and result.structured_content, result
                return result.structured_content

            def posted(row: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
                """The same call as the CLI sends it: one JSON-RPC POST, no SDK client."""
                began = time.perf_counter()
                answer = call_on(found, tool, arguments)
                rows.setdefault(row, []).append((time.perf_counter() - began) * 1000)
                return answer

            alive = http.client.HTTPConnection("127.0.0.1", port)  # one, kept open

            def kept_alive(row: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
                """The same call over one connection kept open, as an MCP client that is not
                the Python SDK's keeps it (what lspd adds, with a client's least cost)."""
                call = {"name": tool, "arguments": arguments}
                began = time.perf_counter()
                body, headers = stateless_post("tools/call", call, tool)
                alive.request("POST", "/mcp", body, headers)
                response = alive.getresponse()
                message = json.loads(response.read())
                rows.setdefault(row, []).append((time.perf_counter() - began) * 1000)
                assert response.status == 200 and "result" in message, message
                structured: dict[str, Any] = message["result"]["structuredContent"]
                return structured

            async def server(row: str, method: str, path: str, line: int, column: int) -> Any:
                params = {
                    "textDocument": {"uri": (root / path).as_uri()},
                    "position": {"line": line - 1, "character": column - 1},
                }
                began = time.perf_counter()
                answer = await raw.send(method, params, 30.0)
                rows.setdefault(row, []).append((time.perf_counter() - began) * 1000)
                assert answer, (method, path, line)
                return answer

            for round_ in range(rounds + 2):  # two rounds to warm up, not kept
                for path, line, column in HOVERS:
                    where = f"{Path(path).name}:{line}"
                    at = {"path": path, "line": line, "column": column}
                    mine = await lspd(f"hover {where} lspd", "hover", at)
                    theirs = await server(
                        f"hover {where} raw", "textDocument/hover", path, line, column
                    )
                    assert mine["contents"] and theirs["contents"]
                    if (path, line, column) == HOVERS[0]:
                        posted_hover = posted(f"hover {where} lspd, CLI POST", "hover", at)
                        assert posted_hover["contents"] == mine["contents"], posted_hover
                        alive_hover = kept_alive(
                            f"hover {where} lspd, kept-alive POST", "hover", at
                        )
                        assert alive_hover["contents"] == mine["contents"], alive_hover
                answer = await lspd("definition by name lspd", "definition", {"symbol": BY_NAME})
                assert _declared(answer), answer
                by_name = {"symbol": BY_NAME}
                assert _declared(posted("definition by name lspd, CLI POST", "definition", by_name))
                named = kept_alive(
                    "definition by name lspd, kept-alive POST", "definition", by_name
                )
                assert _declared(named), named
                at = dict(zip(("path", "line", "column"), DECLARED, strict=True))
                await lspd("definition by position lspd", "definition", at)
                await server("definition raw", "textDocument/definition", *DECLARED)
                await lspd("status lspd (MCP floor)", "status", {})
                posted("status lspd, CLI POST", "status", {})
                kept_alive("status lspd, kept-alive POST", "status", {})
                if round_ < 2:
                    rows.clear()
                    client_cpu.clear()
            alive.close()
            cpu: dict[str, float] = {}
            for row, tool, arguments in [
                (
                    "hover core.py:715",
                    "hover",
                    dict(zip(("path", "line", "column"), HOVERS[0], strict=True)),
                ),
                ("definition by name", "definition", {"symbol": BY_NAME}),
                ("status (MCP floor)", "status", {}),
            ]:
                before, calls = cpu_ms(pid), CPU_CALLS_PER_ROUND * rounds  # /proc: 10 ms ticks
                for _ in range(calls):
                    await client.call_tool(tool, arguments)
                cpu[row] = (cpu_ms(pid) - before) / calls
    finally:
        await raw.stop()
    return rows, cpu, client_cpu


async def main(
    rounds: Annotated[int, "warm rounds of every row (0: the cold starts only)"] = 30,
    colds: Annotated[int, "cold starts"] = 3,
    fresh: Annotated[
        int, "every Nth cold start gets a state directory of its own (0: they share one)"
    ] = 0,
    json_path: Annotated[Path | None, "also write the samples here"] = None,
) -> None:
    sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]
    from symbols import fetch_click, stop

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: byte code is cached
    load = [os.getloadavg()]
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        root = fetch_click(base)
        starts: list[float] = []
        listening: list[float] = []
        connected: list[float] = []
        spans: list[list[float | None]] = []
        aheads: list[str] = []
        kinds: list[str] = []
        process, state = None, base / "state-0"
        for n in range(colds):
            if process is not None:
                stop(process)
            if fresh and n % fresh == 0:
                state = base / f"state-{n}"  # nothing remembered
            kinds.append(REMEMBERED if any(state.glob("*/head-start.json")) else NOTHING)
            process, sentinel, connect, seconds, span = await cold(root, state)
            listening.append(sentinel)
            connected.append(connect)
            starts.append(seconds)
            spans.append(span)
            aheads.append(taken_ahead(state))
        assert process is not None
        rows: dict[str, list[float]] = {}
        cpu: dict[str, float] = {}
        client_cpu: dict[str, list[float]] = {}
        try:
            port = int((root / ".vscode" / ".mcp-port").read_text())
            if rounds:
                rows, cpu, client_cpu = await warm(root, port, rounds, base / "logs", process.pid)
        finally:
            stop(process)
    load.append(os.getloadavg())
    if rounds:
        print_warm(rounds, rows, cpu, client_cpu)
    colds_s = ", ".join(f"{s:.2f}" for s in starts)
    print(f"cold start to the first right definition: {colds_s} s (target <= 2)")
    print(f"  of which spawn to sentinel: {', '.join(f'{s:.2f}' for s in listening)} s")
    print(f"  spawn to the SDK client connected: {', '.join(f'{s:.2f}' for s in connected)} s")
    for n, what in enumerate(SPANS):
        seconds_to = ", ".join("-" if s[n] is None else f"{s[n]:.2f}" for s in spans)
        print(f"  spawn to {what}: {seconds_to} s")
    print(f"  taken of what serve started ahead (the daemon's log): {', '.join(aheads)}")
    print(f"  the last run's record (head-start.json): {', '.join(kinds)}")
    print_kinds(kinds, starts, listening, spans)
    print(f"load average (1, 5, 15 min) before {load[0]}, after {load[1]}")
    if json_path is not None:
        json_path.write_text(
            json.dumps(
                {
                    "samples_ms": rows,
                    "cpu_ms": cpu,
                    "client_cpu_ms": client_cpu,
                    "cold_s": starts,
                    "sentinel_s": listening,
                    "connected_s": connected,
                    "spans_s": {what: [s[n] for s in spans] for n, what in enumerate(SPANS)},
                    "taken_ahead": aheads,
                    "kinds": kinds,
                    "load": load,
                }
            )
        )


def print_kinds(
    kinds: list[str], starts: list[float], listening: list[float], spans: list[list[float | None]]
) -> None:
    """The medians of each kind of cold start: nothing remembered, or the last run's record."""
    for kind in (NOTHING, REMEMBERED):
        picked = [n for n, k in enumerate(kinds) if k == kind]
        if not picked:
            continue
        medians = [statistics.median(starts[n] for n in picked)]
        medians.append(statistics.median(listening[n] for n in picked))
        for m in range(len(SPANS)):
            known = [x for n in picked if (x := spans[n][m]) is not None]
            medians.append(statistics.median(known) if known else float("nan"))
        print(
            f"  median of {len(picked)} with {kind}: {medians[0]:.2f} s (sentinel"
            f" {medians[1]:.2f}, {SPANS[0]} {medians[2]:.2f}, ready {medians[3]:.2f})"
        )


def print_warm(
    rounds: int,
    rows: dict[str, list[float]],
    cpu: dict[str, float],
    client_cpu: dict[str, list[float]],
) -> None:
    """The warm rows, lspd beside raw, and where an lspd row's milliseconds go."""
    print_table(
        f"click 8.1.7, {rounds} rounds, lspd and raw basedpyright interleaved (ms)", rows, None, 1
    )
    print()
    for path, line, _ in HOVERS:
        where = f"{Path(path).name}:{line}"
        mine, theirs = rows[f"hover {where} lspd"], rows[f"hover {where} raw"]
        added = statistics.median(mine) - statistics.median(theirs)
        print(f"hover {where}: lspd p50 - raw p50 = {added:+.1f} ms (target <= +3)")
        if (alive := rows.get(f"hover {where} lspd, kept-alive POST")) is not None:
            added = statistics.median(alive) - statistics.median(theirs)
            print(f"  through one connection kept open (no SDK client): {added:+.1f} ms")
    for row, ms in cpu.items():
        print(f"daemon CPU per call, {row}: {ms:.1f} ms")
    for row, samples in client_cpu.items():
        print(f"SDK client CPU per call, {row}: p50 {statistics.median(samples):.1f} ms")
    ways = {"SDK client": "", "CLI POST": ", CLI POST", "kept-alive POST": ", kept-alive POST"}
    for way, row in ways.items():  # the MCP round trip alone (status) beside it: the floor
        by_name = statistics.median(rows[f"definition by name lspd{row}"])
        floor = statistics.median(rows[f"status lspd{row or ' (MCP floor)'}"])
        print(f"definition by name p50 {by_name:.1f} ms by {way} (target <= 3; status {floor:.1f})")


if __name__ == "__main__":
    from options import arguments  # (this directory)

    asyncio.run(main(**arguments(main, __doc__)))
