"""Cold start and warm hover latency of every language server the tests run on.

    .venv/bin/python bench/languages.py [--iterations N]

For each server, on a temporary copy of its test fixture (with an lspd.toml choosing it):
cold = a new Workspace to the first correct hover through `lspd.ops` (process start,
initialize, readiness, open); warm = median and p99 of N more hovers; then one fresh
diagnostics call of a type error. Prints one table.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from lspd.ops import file_diagnostics, navigation
from lspd.workspace import Workspace

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"

# server, language, fixture, hover position, text the hover must show, file with a type error
CASES = [
    ("basedpyright", "python", "py", ("pkg/app.py", 5, 5), "Greeter", "pkg/broken.py"),
    ("ty", "python", "py", ("pkg/app.py", 5, 5), "Greeter", "pkg/broken.py"),
    ("pyrefly", "python", "py", ("pkg/app.py", 5, 5), "Greeter", "pkg/broken.py"),
    (
        "typescript-language-server",
        "typescript",
        "ts",
        ("src/main.ts", 3, 23),
        "add(a: number",
        "src/broken.ts",
    ),
    (
        "typescript-native",
        "typescript",
        "ts",
        ("src/main.ts", 3, 23),
        "add(a: number",
        "src/broken.ts",
    ),
    ("gopls", "go", "go", ("main.go", 10, 19), "func shapes.Add", "broken.go"),
    ("clangd", "c", "c", ("main.c", 6, 18), "int add(int a, int b)", "broken.c"),
]


async def measure(case: tuple, iterations: int, scratch: Path) -> list[str]:
    server, language, fixture, (path, line, column), expected, broken = case
    root = scratch / server
    shutil.copytree(FIXTURES / fixture, root)
    (root / "lspd.toml").write_text(f'[languages.{language}]\nserver = "{server}"\n')
    start = time.perf_counter()
    ws = Workspace(root, log_dir=scratch / "logs")
    try:
        first = await navigation.hover(ws, path, line, column)
        cold = time.perf_counter() - start
        assert expected in first.contents, (server, first.contents)
        times = []
        for _ in range(iterations):
            began = time.perf_counter()
            await navigation.hover(ws, path, line, column)
            times.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        result = await file_diagnostics.diagnostics(ws, broken)
        diagnostics_ms = (time.perf_counter() - began) * 1000
        assert result.fresh and result.errors >= 1, (server, result)
    finally:
        await ws.close()
    times.sort()
    p99 = times[min(len(times) - 1, round(len(times) * 0.99))]
    return [
        server,
        f"{cold:.2f} s",
        f"{statistics.median(times):.2f} ms",
        f"{p99:.2f} ms",
        f"{diagnostics_ms:.0f} ms",
    ]


async def main(iterations: int) -> None:
    header = ["server", "cold (to first hover)", "warm hover p50", "p99", "diagnostics"]
    rows = [header]
    with tempfile.TemporaryDirectory() as scratch:
        for case in CASES:
            rows.append(await measure(case, iterations, Path(scratch)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    asyncio.run(main(parser.parse_args().iterations))
