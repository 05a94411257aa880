"""Benchmark of one heavy file beside a small one, on real basedpyright (issue 27).

    .venv/bin/python bench/heavy.py [--restart-after S]

A workspace holds `small.py` (two lines) and the two kinds of generated module that keep
basedpyright busy for minutes: `generated.py`, 200,000 lines of `xN = N` (3.2 MB), and
`onevar.py`, 50,000 lines assigning one variable. The whole-workspace check runs while a
hover on `small.py` is asked again and again (0.1 s apart); printed: the check's time, the
files it checked and skipped, and the hover's latency during and after the check. Twice:
with the default size limits (both heavy files left out), and with the limits raised so
both are checked (then the server stalls on each and is restarted past `restart_after`,
given here). The machine is shared: the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.navigation import hover
from lspd.workspace import Workspace


def make(root: Path, config: str) -> None:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (root / "small.py").write_text("x: int = 1\ny = x\n")
    (root / "generated.py").write_text("".join(f"x{i} = {i}\n" for i in range(200_000)))
    (root / "onevar.py").write_text("v = 0\n" + "".join(f"v = v + {i}\n" for i in range(50_000)))
    (root / "lspd.toml").write_text(config)


async def hover_s(ws: Workspace) -> float:
    began = time.monotonic()
    await hover(ws, "small.py", 2, 1)
    return time.monotonic() - began


async def run(root: Path, label: str) -> None:
    ws = Workspace(root, log_dir=root.parent / f"{root.name}-logs")
    try:
        await hover_s(ws)  # started and warm
        during: list[float] = []
        began = time.monotonic()
        check = asyncio.create_task(workspace_diagnostics(ws))
        while not check.done():
            during.append(await hover_s(ws))
            await asyncio.sleep(0.1)
        result = await check
        took = time.monotonic() - began
        after = [await hover_s(ws) for _ in range(20)]
        print(
            f"| {label} | {took:.1f} s | {result.files_checked} | "
            f"{', '.join(s.path for s in result.skipped)} | {len(during)} | "
            f"{statistics.median(during) * 1000:.0f} / {max(during) * 1000:.0f} ms | "
            f"{statistics.median(after) * 1000:.1f} / {max(after) * 1000:.1f} ms | "
            f"{os.getloadavg()[0]:.1f} |",
            flush=True,
        )
    finally:
        await ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restart-after", type=float, default=10.0)
    args = parser.parse_args()
    print(
        "| limits | check | files checked | skipped | hovers during | hover during "
        "p50 / max | hover after p50 / max | load |"
    )
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="lspd-heavy-") as temp:
        base = Path(temp).resolve()
        make(base / "skip", "")
        asyncio.run(run(base / "skip", "default (2,560,000 bytes, 20,000 lines)"))
        raised = "max_file_lines = 1000000\nmax_file_bytes = 100000000\nbusy_after = 2\n"
        make(base / "stall", raised + f"restart_after = {args.restart_after:g}\n")
        label = f"raised, restart_after = {args.restart_after:g}"
        asyncio.run(run(base / "stall", label))


if __name__ == "__main__":
    main()
