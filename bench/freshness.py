"""File write → fresh diagnostics, beside the server's own floor and the cold CLI; idle CPU.

    .venv/bin/python bench/freshness.py [--rounds 30] [--idle 30] [--json FILE]

For each file, every round writes the file on disk (alternately with and without a type
error) and at once asks lspd for its diagnostics, as an agent does
(`file_diagnostics.diagnostics` on a workspace whose file watcher runs, as in the daemon).
Every answer is checked: a stale one (the wrong error count) is counted, not hidden. In the
same run, interleaved, the floor is measured on a second copy of the file: the raw
`didChange` sent straight to the session, then the server's diagnostics for that version (no
watcher, no stat, no catch-up). The cold CLI is `basedpyright FILE` and `tsc --noEmit -p .`
(median of 3).

Files: a small module, a real ~2,000-line module (httpx's `_client.py`, with its package),
and for TypeScript the fixture project and a generated 3,000-line module. Idle CPU: a real
daemon (`lspd serve`) on a 10,000-file tree, servers warm, measured over `--idle` seconds
from /proc, for the daemon alone and with its language servers.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from lspd.lsp import diagnostics as lsp_diagnostics
from lspd.ops import file_diagnostics
from lspd.servers.registry import definitions
from lspd.workspace import Workspace

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]

from processes import descendants, stop  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"


@dataclass
class Case:
    label: str
    root: Path
    path: str  # relative to root
    error_line: str  # appended to make one type error
    language_id: str


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def python_workspace(into: Path) -> tuple[Path, list[Case]]:
    root = into / "py"
    shutil.copytree(FIXTURES / "py", root)
    shutil.copytree(Path(httpx.__file__).parent, root / "httpx")
    (root / "pkg" / "small.py").write_text("def area(w: int, h: int) -> int:\n    return w * h\n")
    line = '\n_lspd_bench: int = "not an int"\n'
    return root, [
        Case("python small", root, "pkg/small.py", line, "python"),
        Case("python httpx/_client.py", root, "httpx/_client.py", line, "python"),
    ]


def typescript_workspace(into: Path) -> tuple[Path, list[Case]]:
    root = into / "ts"
    shutil.copytree(FIXTURES / "ts", root)
    (root / "src" / "small.ts").write_text(
        "export function area(w: number, h: number): number {\n  return w * h;\n}\n"
    )
    blocks = []
    for index in range(300):  # 10 lines each: classes, generics, calls across them
        blocks.append(
            f"export class Shape{index}<T extends number> {{\n"
            f"  constructor(private readonly size: T) {{}}\n"
            f"  area(): number {{\n"
            f"    return this.size * {index + 1};\n"
            f"  }}\n"
            f"  grow(by: number): Shape{index}<number> {{\n"
            f"    return new Shape{index}(this.size + by);\n"
            f"  }}\n"
            f"}}\n"
            f"export const shape{index} = new Shape{index}({index}).grow(1).area();\n"
        )
    (root / "src" / "large.ts").write_text("".join(blocks))
    line = '\nexport const lspdBench: number = "not a number";\n'
    return root, [
        Case("typescript small", root, "src/small.ts", line, "typescript"),
        Case("typescript 3,000 lines", root, "src/large.ts", line, "typescript"),
    ]


async def fresh(ws: Workspace, case: Case, text: str, want: int) -> tuple[float, bool]:
    """Write the file, ask lspd at once: seconds, and whether the answer was right."""
    path = case.root / case.path
    started = time.perf_counter()
    path.write_text(text)
    result = await file_diagnostics.diagnostics(ws, case.path)
    return time.perf_counter() - started, result.errors == want


async def floor(ws: Workspace, case: Case, mirror: Path, text: str) -> float:
    """The server alone: didChange straight to the session, then its diagnostics."""
    session = ws.session_for(mirror)
    started = time.perf_counter()
    document = await session.sync_document(mirror, text, case.language_id)
    await lsp_diagnostics.fetch(session, document, 30.0)
    return time.perf_counter() - started


async def measure_case(ws: Workspace, case: Case, rounds: int) -> dict[str, Any]:
    path = case.root / case.path
    clean = path.read_text()
    mirror = path.with_name(f"_floor_{path.name}")  # same text, same folder, other file
    mirror.write_text(clean)
    broken = clean + case.error_line
    baseline = (await file_diagnostics.diagnostics(ws, case.path)).errors
    await file_diagnostics.diagnostics(
        ws, ws.display(mirror)
    )  # open it: the floor measures a change
    lspd_s: list[float] = []
    floor_s: list[float] = []
    stale = 0
    for index in range(rounds):
        bad = index % 2 == 0
        seconds, right = await fresh(ws, case, broken if bad else clean, baseline + bad)
        lspd_s.append(seconds)
        stale += not right
        floor_s.append(await floor(ws, case, mirror, broken if bad else clean))
    path.write_text(clean)
    mirror.unlink()
    return {"lspd": lspd_s, "floor": floor_s, "stale": stale, "lines": clean.count("\n")}


def cold_cli(case: Case) -> float:
    if case.language_id == "python":
        command = [str(Path(sys.executable).parent / "basedpyright"), case.path]
    else:
        tsls = definitions()["typescript-language-server"]
        tsc = tsls.expand("{npm_root}/typescript/bin/tsc")
        command = [tsls.expand("{node}"), tsc, "--noEmit", "-p", "."]
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run(command, cwd=case.root, capture_output=True, check=False)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def idle_cpu(into: Path, seconds: float) -> dict[str, float]:
    """CPU % of a real daemon, servers warm, on an idle tree of 10,000 source files."""
    root = into / "idle"
    for folder in range(100):
        package = root / f"pkg{folder}"
        package.mkdir(parents=True)
        for index in range(100):
            (package / f"m{index}.py").write_text(f"VALUE_{index}: int = {index}\n")
    (root / "pyproject.toml").write_text('[project]\nname = "idle"\nversion = "0"\n')
    env = {**os.environ, "LSPD_STATE_DIR": str(into / "state")}
    daemon = subprocess.Popen(
        [sys.executable, "-m", "lspd", "serve", str(root)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        sentinel = root / ".vscode" / ".mcp-port"
        deadline = time.monotonic() + 120
        while not sentinel.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        port = int(sentinel.read_text())
        while time.monotonic() < deadline:  # until prewarm has brought the server up
            health = httpx.get(f"http://127.0.0.1:{port}/health").json()
            if health["servers"] and all(s["state"] == "ready" for s in health["servers"]):
                break
            time.sleep(0.5)
        time.sleep(3)  # let the first analysis end
        servers = descendants(daemon.pid)[1:]  # without the daemon itself
        tick = os.sysconf("SC_CLK_TCK")
        before_daemon = cpu_ticks(daemon.pid)
        before_all = before_daemon + sum(cpu_ticks(p) for p in servers)
        time.sleep(seconds)
        after_daemon = cpu_ticks(daemon.pid)
        after_all = after_daemon + sum(cpu_ticks(p) for p in servers)
        return {
            "daemon_pct": 100 * (after_daemon - before_daemon) / tick / seconds,
            "with_servers_pct": 100 * (after_all - before_all) / tick / seconds,
            "files": 10_000,
            "seconds": seconds,
        }
    finally:
        stop(daemon)


async def run_workspace(root: Path, cases: list[Case], rounds: int) -> dict[str, dict[str, Any]]:
    ws = Workspace(root, log_dir=root.parent / "logs")
    try:
        await ws.watch()
        return {case.label: await measure_case(ws, case, rounds) for case in cases}
    finally:
        await ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="writes per file")
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle CPU sampling")
    parser.add_argument("--json", type=Path, help="also write the figures and samples here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lspd-freshness-") as temp:
        into = Path(temp)
        measured: dict[str, dict[str, Any]] = {}
        cold: dict[str, float] = {}
        for build in (python_workspace, typescript_workspace):
            root, cases = build(into)
            measured |= asyncio.run(run_workspace(root, cases, args.rounds))
            for case in cases:
                cold[case.label] = cold_cli(case)
        idle = idle_cpu(into, args.idle)

    header = (
        f"{'file':<26} {'lines':>6} {'lspd p50':>9} {'p95':>7} {'floor p50':>10} {'p95':>7} "
        f"{'over floor':>11} {'cold CLI':>9} {'CLI/lspd':>9} {'stale':>6}"
    )
    print(header)
    print("-" * len(header))
    rows = []
    for label, m in measured.items():
        ms = [s * 1000 for s in m["lspd"]]
        fl = [s * 1000 for s in m["floor"]]
        row = {
            "file": label,
            "lines": m["lines"],
            "lspd_p50_ms": statistics.median(ms),
            "lspd_p95_ms": percentile(ms, 0.95),
            "floor_p50_ms": statistics.median(fl),
            "floor_p95_ms": percentile(fl, 0.95),
            "cold_cli_ms": cold[label] * 1000,
            "stale": m["stale"],
            "rounds": len(ms),
        }
        rows.append(row)
        print(
            f"{label:<26} {row['lines']:>6} {row['lspd_p50_ms']:>7.1f}ms "
            f"{row['lspd_p95_ms']:>5.0f}ms {row['floor_p50_ms']:>8.1f}ms "
            f"{row['floor_p95_ms']:>5.0f}ms {row['lspd_p50_ms'] - row['floor_p50_ms']:>+9.1f}ms "
            f"{row['cold_cli_ms']:>7.0f}ms {row['cold_cli_ms'] / row['lspd_p50_ms']:>8.1f}x "
            f"{row['stale']:>3}/{row['rounds']}"
        )
    print(
        f"\nidle CPU over {idle['seconds']:.0f} s, {idle['files']} files, servers warm: "
        f"daemon {idle['daemon_pct']:.2f} %, daemon + language servers "
        f"{idle['with_servers_pct']:.2f} %"
    )
    if args.json is not None:
        samples = {
            f"{label} ({kind})": [s * 1000 for s in m[kind]]
            for label, m in measured.items()
            for kind in ("lspd", "floor")
        }
        args.json.write_text(json.dumps({"rows": rows, "idle": idle, "samples_ms": samples}))


if __name__ == "__main__":
    main()
