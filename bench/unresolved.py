"""Benchmark of `unresolved` in references on a real project: Django 5.1.4 through the daemon.

    .venv/bin/python bench/unresolved.py [--rounds N] [--json FILE]

Downloads Django 5.1.4's sdist (2,788 Python files with its tests) and gives it the gate a
project checks its package with, `pyrightconfig.json` `{"include": ["django"]}`: 879 files,
the 880 modules issue 32 measured. Serves it with a real daemon (`python -m lspd serve`,
basedpyright) and asks through the MCP SDK client `references` of four methods, each once
untimed both ways (the server's first search of a name is slow either way), then N rounds
(5) with `unresolved: false` and with the scan, interleaved, a file written before each
round (else the scan recalls the last round's answers): p50 of each and of the time
the scan adds (paired per round), the references, the unresolved uses and the textual
candidates. `QuerySet.filter` is the issue's case (7 typed uses, 82 on receivers the
checker cannot type, of 195 `.filter` in code); `QuerySet.get` has 853 candidates.
Then the lexical scan against Python's `tokenize` on every gate file holding each name:
the same uses (files that differ: must be 0) and the CPU each takes. The machine is shared:
the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import statistics
import sys
import tempfile
import time
import tokenize
from pathlib import Path
from typing import Any

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]

from gate import sdist  # noqa: E402
from mcp import Client  # noqa: E402
from processes import stop  # noqa: E402
from symbols import start_daemon, wait_sentinel  # noqa: E402

from lspd.ops.uses import PYTHON, find_uses  # noqa: E402

DJANGO = "Django==5.1.4"
GATE = {"include": ["django"]}
SYMBOLS = ["QuerySet.filter", "QuerySet.get", "Model.save", "HttpRequest.get_host"]


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def project(base: Path) -> Path:
    root = sdist(DJANGO, base / "downloads")
    (root / "pyrightconfig.json").write_text(json.dumps(GATE))
    return root.resolve()


async def ask(client: Client, symbol: str, unresolved: bool) -> tuple[float, dict[str, Any]]:
    arguments = {"symbol": symbol, "unresolved": unresolved}
    began = time.perf_counter()
    result = await client.call_tool("references", arguments)
    took = time.perf_counter() - began
    if result.is_error or result.structured_content is None:
        raise SystemExit(f"references {symbol}: {result.content}")
    return took, result.structured_content


async def warm(client: Client, symbol: str) -> None:
    """Both questions once, asked again while the server's first search times out (30 s:
    basedpyright's first search of a name reads most of Django)."""
    for attempt in range(5):
        try:
            await ask(client, symbol, False)
            await ask(client, symbol, True)
            return
        except SystemExit as exc:
            if "timed out" not in str(exc) or attempt == 4:
                raise


def tokenize_names(text: str, name: str) -> list[tuple[int, int]]:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [
        (t.start[0], t.start[1] + 1) for t in tokens if t.type == tokenize.NAME and t.string == name
    ]


def lexical(root: Path, names: list[str]) -> list[tuple[str, int, int, int, float, float]]:
    """Per name: files holding it, uses, files where the scan and tokenize differ, CPU s."""
    texts = [p.read_text(encoding="utf-8") for p in sorted((root / "django").rglob("*.py"))]
    rows = []
    for name in names:
        holding = [t for t in texts if name in t]
        began = time.process_time()
        ours = [
            [(u.line, u.column) for u in find_uses(t, name, PYTHON) if not u.literal]
            for t in holding
        ]
        scan = time.process_time() - began
        began = time.process_time()
        theirs = [tokenize_names(t, name) for t in holding]
        reference = time.process_time() - began
        differ = sum(a != b for a, b in zip(ours, theirs, strict=True))
        rows.append((name, len(holding), sum(map(len, ours)), differ, scan, reference))
    return rows


async def measure(
    root: Path, state: Path, rounds: int
) -> tuple[list[dict[str, Any]], dict[str, list[float]]]:
    process = start_daemon(root, state)
    try:
        port = wait_sentinel(root, process)
        rows: list[dict[str, Any]] = []
        samples: dict[str, list[float]] = {}
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            for symbol in SYMBOLS:  # untimed: the server's first search of each name
                await warm(client, symbol)
            for symbol in SYMBOLS:
                without: list[float] = []
                with_scan: list[float] = []
                answer: dict[str, Any] = {}
                for _ in range(rounds):
                    # A file changes, so lspd asks the server again rather than recalling
                    # the last round's answers (kept while nothing changes).
                    (root / "bench-touch.txt").write_text(str(time.time()))
                    await asyncio.sleep(0.5)
                    took, _ = await ask(client, symbol, False)
                    without.append(took)
                    took, answer = await ask(client, symbol, True)
                    with_scan.append(took)
                added = [b - a for a, b in zip(without, with_scan, strict=True)]
                rows.append(
                    {
                        "symbol": symbol,
                        "references": answer["total"],
                        "unresolved": answer.get("unresolved_total", 0),
                        "candidates": answer.get("candidates"),
                        "without_s": statistics.median(without),
                        "with_s": statistics.median(with_scan),
                        "added_s": statistics.median(added),
                        "added_max_s": max(added),
                        "summary": answer["summary"],
                    }
                )
                samples[f"{symbol} without"] = [t * 1000 for t in without]
                samples[f"{symbol} with unresolved"] = [t * 1000 for t in with_scan]
        return rows, samples
    finally:
        stop(process)


def main(rounds: int, json_path: Path | None) -> None:
    with tempfile.TemporaryDirectory(prefix="lspd-bench-unresolved-") as temp:
        base = Path(temp)
        root = project(base)
        state = base / "state"
        state.mkdir()
        before = load()
        rows, samples = asyncio.run(measure(root, state, rounds))
        after = load()
        scan_rows = lexical(root, [s.rpartition(".")[2] for s in SYMBOLS])
    print(f"Django 5.1.4, gate include [django] (879 files), basedpyright; {rounds} rounds")
    print(f"load average (1 min) before {before}, after {after}: the machine is shared\n")
    print(
        "| symbol | references | unresolved | candidates | p50 without | p50 with "
        "| added p50 | added max |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r['symbol']} | {r['references']} | {r['unresolved']} | {r['candidates']} | "
            f"{r['without_s']:.2f} s | {r['with_s']:.2f} s | {r['added_s']:.2f} s | "
            f"{r['added_max_s']:.2f} s |"
        )
    print()
    for r in rows:
        print(f"- {r['summary']}")
    print(
        "\n| name | files holding it | uses in code | files differing from tokenize "
        "| scan CPU | tokenize CPU |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, files, uses, differ, scan, reference in scan_rows:
        print(f"| {name} | {files} | {uses} | {differ} | {scan:.3f} s | {reference:.3f} s |")
    if json_path is not None:
        json_path.write_text(
            json.dumps(
                {"rows": rows, "lexical": scan_rows, "load": [before, after], "samples_ms": samples}
            )
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the figures and samples here")
    arguments = parser.parse_args()
    main(arguments.rounds, arguments.json)
