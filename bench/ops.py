"""Cost of each operation over its raw LSP request, on real code; and cold start per server.

    .venv/bin/python bench/ops.py [--rounds 40] [--library rich] [--json FILE]

Workspaces: lspd's own source, a pure-Python library downloaded from the package index into a
temp dir, and the TypeScript fixture project. For every operation the same request is also sent
raw through the session (no lspd conversion) in the same run, interleaved, so the difference
is what lspd adds. Prints a table; `--json FILE` also writes the rows and every sample.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lspd.ops import file_diagnostics, navigation, references
from lspd.ops import symbols as symbols_ops
from lspd.ops.symbols import symbol_tree
from lspd.ops.target import resolve_target
from lspd.workspace import Workspace
from lspd.workspace.symbols.tree import flatten

REPO = Path(__file__).resolve().parent.parent


def download_library(name: str, into: Path) -> Path:
    """Unpack the wheel of a pure-Python library; its source tree is the workspace."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "-d",
            str(into),
            name,
        ],
        check=True,
    )
    wheel = next(into.glob("*.whl"))
    root = into / "src"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(root)
    return root


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def timed(call: Callable[[], Awaitable[Any]], rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


async def cold_start(root: Path, path: str, line: int, column: int) -> float:
    ws = Workspace(root)
    start = time.perf_counter()
    try:
        result = await navigation.hover(ws, path, line, column)
        assert result.found, f"cold hover found nothing at {path}:{line}:{column}"
        return (time.perf_counter() - start) * 1000
    finally:
        await ws.close()


async def bench_workspace(
    label: str, root: Path, file: str, rounds: int, samples: dict[str, list[float]]
) -> list[list[str]]:
    """Table rows of one workspace; each operation's latencies (ms) go into `samples`."""
    rows: list[list[str]] = []
    ws = Workspace(root)
    try:
        session, document = await ws.open(file)
        symbols = [
            s
            for s in flatten(await symbol_tree(ws, session, document.path))
            if s.kind in ("class", "function", "method")
        ]
        if not symbols:
            raise SystemExit(f"{label}: no class or function in {file}")
        symbol = symbols[len(symbols) // 2]
        target = await resolve_target(ws, file, symbol.line, symbol.column, None)
        position = target.params()
        text_document = {"textDocument": target.text_document}
        cases: list[tuple[str, Callable[[], Awaitable[Any]], str, dict[str, Any]]] = [
            (
                "hover",
                lambda: navigation.hover(ws, file, symbol.line, symbol.column),
                "textDocument/hover",
                position,
            ),
            (
                "definition",
                lambda: navigation.definition(ws, file, symbol.line, symbol.column),
                "textDocument/definition",
                position,
            ),
            (
                "references",
                lambda: references.references(ws, file, symbol.line, symbol.column),
                "textDocument/references",
                {**position, "context": {"includeDeclaration": True}},
            ),
            (
                "document_symbols",
                lambda: symbols_ops.document_symbols(ws, file),
                "textDocument/documentSymbol",
                text_document,
            ),
            (
                "workspace_symbols",
                lambda: symbols_ops.workspace_symbols(ws, symbol.name),
                "workspace/symbol",
                {"query": symbol.name},
            ),
            ("diagnostics", lambda: file_diagnostics.diagnostics(ws, file), "", {}),
        ]
        for name, operation, method, params in cases:
            await operation()  # warm caches on both paths
            op_ms: list[float] = []
            raw_ms: list[float] = []
            for _ in range(rounds):
                op_ms += await timed(operation, 1)
                if method:
                    raw_ms += await timed(lambda m=method, p=params: session.send(m, p, 60), 1)
                else:
                    raw_ms += await timed(lambda: session.diagnostics(document, 60), 1)
            samples[f"{label}: {name}"] = op_ms
            p50, raw50 = statistics.median(op_ms), statistics.median(raw_ms)
            rows.append(
                [
                    label,
                    name,
                    f"{p50:.2f}",
                    f"{percentile(op_ms, 0.95):.2f}",
                    f"{raw50:.2f}",
                    f"{percentile(raw_ms, 0.95):.2f}",
                    f"{p50 - raw50:+.2f}",
                ]
            )
    finally:
        await ws.close()
    return rows


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=True)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True))  # noqa: E731
    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--library", default="rich", help="a pure-Python library to download")
    parser.add_argument("--json", type=Path, help="also write the figures and samples here")
    args = parser.parse_args()
    samples: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as temp:
        library = download_library(args.library, Path(temp))
        package = args.library.replace("-", "_")
        library_file = max(
            (library / package).glob("*.py"), key=lambda p: p.read_text().count("\ndef ")
        )
        workspaces = [
            ("lspd (Python)", REPO / "src", "lspd/ops/symbols.py"),
            (f"{args.library} (Python)", library, str(library_file.relative_to(library))),
            ("fixture (TypeScript)", REPO / "tests/fixtures/ts", "src/main.ts"),
        ]
        rows: list[list[str]] = []
        for label, root, file in workspaces:
            rows += await bench_workspace(label, root, file, args.rounds, samples)
        library_lines = library_file.read_text().splitlines()
        class_line = next(i for i, text in enumerate(library_lines, 1) if text.startswith("class "))
        relative = str(library_file.relative_to(library))
        cold = [
            ["basedpyright", f"{await cold_start(library, relative, class_line, 7):.0f}"],
            [
                "typescript-language-server",
                f"{await cold_start(REPO / 'tests/fixtures/ts', 'src/main.ts', 3, 23):.0f}",
            ],
        ]
    print(f"operation latency vs the raw LSP request, {args.rounds} rounds each (ms)\n")
    print(
        table(
            ["workspace", "operation", "op p50", "op p95", "raw p50", "raw p95", "added p50"], rows
        )
    )
    print("\ncold start to first correct hover (ms)\n")
    print(table(["server", "cold ms"], cold))
    if args.json is not None:
        args.json.write_text(json.dumps({"rows": rows, "cold": cold, "samples_ms": samples}))


if __name__ == "__main__":
    asyncio.run(main())
