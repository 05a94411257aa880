"""Benchmark of `rename`: a function with ~50 references in SQLAlchemy 2.0.36 (255 files).

    .venv/bin/python bench/rename.py [--rounds N] [--json FILE]

Downloads SQLAlchemy 2.0.36's sdist and gives it the gate its package is checked with,
`pyrightconfig.json` `{"include": ["lib/sqlalchemy"]}` (255 files), then runs lspd's
workspace in this process as the daemon runs it (file watcher on, basedpyright) and renames
`util.deprecations.warn_deprecated` (a module-level function imported across the package)
to `warn_deprecated_now`. The first rename is timed apart (cold: the server loads the
project). Then N rounds (5), each: the diff alone (prepareRename, rename, the edit checked
against the disk and rendered: `lspd.ops.rename.renamed`), the check of that diff (what
`rename` adds: `preview`'s comparison), `preview` itself of the same new texts, and the
whole `rename` operation as MCP runs it. Printed: p50 and max of each, the references, the
files and the diff's size. Targets (issue 31): the diff <= 1 s warm; the check as fast as
`preview` of the same files. The machine is shared: the load average is printed beside
the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.gate import sdist

from lspd.ops import preview, rename, workspace_edit
from lspd.surface.table import call, operation
from lspd.workspace import Workspace

SQLALCHEMY = "sqlalchemy==2.0.36"
GATE = '{"include": ["lib/sqlalchemy"]}\n'
DEFINED = "lib/sqlalchemy/util/deprecations.py"
NAME, NEW = "warn_deprecated", "warn_deprecated_now"


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def project(base: Path) -> Path:
    root = sdist(SQLALCHEMY, base / "downloads")
    (root / "pyrightconfig.json").write_text(GATE)
    return root.resolve()


def position(root: Path) -> dict[str, Any]:
    """Where `def warn_deprecated(` names the function."""
    lines = (root / DEFINED).read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.startswith(f"def {NAME}("))
    return {"path": DEFINED, "line": line, "column": len("def ") + 1}


async def timed(work: Any) -> tuple[float, Any]:
    began = time.perf_counter()
    result = await work
    return time.perf_counter() - began, result


async def measure(root: Path, logs: Path, rounds: int) -> dict[str, Any]:
    ws = Workspace(root, log_dir=logs)
    try:
        assert await ws.watch()
        at = position(root)
        arguments = {**at, "new_name": NEW}
        cold, first = await timed(call(operation("rename"), ws, arguments))
        samples: dict[str, list[float]] = {"diff": [], "check": [], "preview": [], "rename": []}
        edit: workspace_edit.Proposed | None = None
        for _ in range(rounds):
            took, (_, edit) = await timed(rename.renamed(ws, **at, symbol=None, new_name=NEW))
            samples["diff"].append(took)
            assert edit is not None
            took, _ = await timed(workspace_edit.check(ws, edit))
            samples["check"].append(took)
            took, _ = await timed(preview.preview(ws, edit.contents(ws)))
            samples["preview"].append(took)
            took, _ = await timed(call(operation("rename"), ws, arguments))
            samples["rename"].append(took)
        assert edit is not None
        return {
            "cold_s": cold,
            "references": first.edits,
            "files": len(first.files),
            "diff_lines": len(first.diff.splitlines()),
            "introduced": len(first.check.introduced) if first.check else None,
            "scope": first.check.scope if first.check else first.note,
            "samples_s": samples,
        }
    finally:
        await ws.close()


def main(rounds: int, json_path: Path | None) -> None:
    with tempfile.TemporaryDirectory(prefix="lspd-bench-rename-") as temp:
        base = Path(temp)
        root = project(base)
        files = len(list((root / "lib/sqlalchemy").rglob("*.py")))
        before = load()
        result = asyncio.run(measure(root, base / "logs", rounds))
        after = load()
    samples = result["samples_s"]
    print(
        f"SQLAlchemy 2.0.36, gate include [lib/sqlalchemy] ({files} files), basedpyright; "
        f"`{NAME}` renamed: {result['references']} edits in {result['files']} files, "
        f"a diff of {result['diff_lines']} lines; {rounds} rounds"
    )
    print(f"load average (1 min) before {before}, after {after}: the machine is shared\n")
    print("| step | p50 | max |")
    print("| --- | ---: | ---: |")
    print(f"| first rename, cold (the server loads the project) | {result['cold_s']:.2f} s | |")
    steps = [
        ("diff (prepareRename, rename, edit checked and rendered)", "diff"),
        ("check of the diff (what `rename` adds)", "check"),
        ("`preview` of the same new texts", "preview"),
        ("whole `rename` (diff + check)", "rename"),
    ]
    for label, key in steps:
        values = samples[key]
        print(f"| {label} | {statistics.median(values):.2f} s | {max(values):.2f} s |")
    print(f"\ncheck: {result['introduced']} introduced; scope: {result['scope']}")
    if json_path is not None:
        data = {**result, "load": [before, after]}
        data["samples_ms"] = {k: [v * 1000 for v in vs] for k, vs in samples.items()}
        json_path.write_text(json.dumps(data))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the figures and samples here")
    options = parser.parse_args()
    main(options.rounds, options.json)
