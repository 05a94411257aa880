"""Benchmark of `rename`: a function with ~50 references in SQLAlchemy 2.0.36 (255 files).

    .venv/bin/python bench/rename.py [--rounds N] [--checks M] [--json FILE]

Downloads SQLAlchemy 2.0.36's sdist and gives it the gate its package is checked with,
`pyrightconfig.json` `{"include": ["lib/sqlalchemy"]}` (255 files), then runs lspd's
workspace in this process as the daemon runs it (file watcher on, basedpyright) and renames
`util.deprecations.warn_deprecated` (a module-level function imported across the package)
to `warn_deprecated_now`. Timed: the first diff (cold: the server loads the project), then
N rounds (5) of the diff alone, warm (prepareRename, rename, the edit checked against the
disk and rendered: `lspd.ops.rename.renamed`), then M rounds (2) of the diff's check (what
`rename` adds to the diff: `lspd.ops.rename.checked`, `preview`'s comparison of the changed
files and the files naming the symbol) beside `preview` itself of the same new texts (which
also compares every file importing a changed module), each first in turn (the first after
the diff pays for the server's analysis). Then `rename` itself, paged as an agent reads it:
the first page (its check made and kept) and each next page from `next_offset` (cut from
the kept check: the checks made are counted), with each page's characters. Targets (issue
31): the diff <= 1 s warm; the check as fast as `preview` of the same files; every page
within the answer budget; the next pages cost a diff, not a check.
The check's scope line says how many files it compared, and what it found is listed. The
machine is shared: the load average is printed beside the figures.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.gate import pyright_only, sdist
from bench.options import arguments

from lspd.ops import preview, rename
from lspd.ops.budget import size
from lspd.ops.changes_page import memory_of
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
    return pyright_only(root).resolve()


def position(root: Path) -> dict[str, Any]:
    """Where `def warn_deprecated(` names the function."""
    lines = (root / DEFINED).read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.startswith(f"def {NAME}("))
    return {"path": DEFINED, "line": line, "column": len("def ") + 1}


async def timed(work: Any) -> tuple[float, Any]:
    began = time.perf_counter()
    result = await work
    return time.perf_counter() - began, result


async def measure(root: Path, logs: Path, rounds: int, checks: int) -> dict[str, Any]:
    ws = Workspace(root, log_dir=logs)
    try:
        assert await ws.watch()
        at = {**position(root), "symbol": None, "new_name": NEW}
        cold, (old, edit, _) = await timed(rename.renamed(ws, **at))
        samples: dict[str, list[float]] = {"diff": [], "check": [], "preview": []}
        for _ in range(rounds):
            took, (_, edit, _) = await timed(rename.renamed(ws, **at))
            samples["diff"].append(took)
        check = None
        for index in range(checks):  # in turn first: the first pays for the server's analysis
            for step in ("check", "preview") if index % 2 == 0 else ("preview", "check"):
                if step == "check":
                    took, (check, _) = await timed(rename.checked(ws, edit, old, NEW))
                else:
                    took, _ = await timed(preview.preview(ws, edit.contents(ws)))
                samples[step].append(took)
        made = memory_of(ws).made
        paged: list[dict[str, Any]] = []
        offset: int | None = 0
        while offset is not None:
            took, page = await timed(rename.rename(ws, **at, offset=offset))
            paged.append({"s": took, "chars": size(page), "files": len(page.files)})
            offset = page.next_offset
        files = edit.files(ws)
        return {
            "pages": paged,
            "checks_made_by_pages": memory_of(ws).made - made,
            "cold_s": cold,
            "edits": sum(f.edits for f in files),
            "files": len(files),
            "diff_lines": len(edit.diff(ws).splitlines()),
            "introduced": []
            if check is None
            else [f"{d.path}:{d.line}: {d.message}" for d in check.introduced],
            "scope": None if check is None else check.scope,
            "samples_s": samples,
        }
    finally:
        await ws.close()


def main(
    rounds: Annotated[int, "warm diffs"] = 5,
    checks: Annotated[int, "checks and previews"] = 2,
    json_path: Annotated[Path | None, "also write the figures and samples here"] = None,
) -> None:
    with tempfile.TemporaryDirectory(prefix="lspd-bench-rename-") as temp:
        base = Path(temp)
        root = project(base)
        files = len(list((root / "lib/sqlalchemy").rglob("*.py")))
        before = load()
        result = asyncio.run(measure(root, base / "logs", rounds, checks))
        after = load()
    samples = result["samples_s"]
    print(
        f"SQLAlchemy 2.0.36, gate include [lib/sqlalchemy] ({files} files), basedpyright; "
        f"`{NAME}` renamed: {result['edits']} edits in {result['files']} files, a diff of "
        f"{result['diff_lines']} lines; {rounds} diff rounds, {checks} check rounds"
    )
    print(f"load average (1 min) before {before}, after {after}: the machine is shared\n")
    print("| step | p50 | max |")
    print("| --- | ---: | ---: |")
    print(f"| first diff, cold (the server loads the project) | {result['cold_s']:.2f} s | |")
    steps = [
        ("diff, warm (prepareRename, rename, edit checked and rendered)", "diff"),
        ("check of the diff (what `rename` adds)", "check"),
        ("`preview` of the same new texts", "preview"),
    ]
    for label, key in steps:
        values = samples[key]
        if values:
            print(f"| {label} | {statistics.median(values):.2f} s | {max(values):.2f} s |")
    print(f"\n`rename` paged: {result['checks_made_by_pages']} check(s) made for all pages")
    print("| page | took | characters | files |")
    print("| ---: | ---: | ---: | ---: |")
    for index, page in enumerate(result["pages"], 1):
        print(f"| {index} | {page['s']:.2f} s | {page['chars']:,} | {page['files']} |")
    print(f"\ncheck: {len(result['introduced'])} introduced; scope: {result['scope']}")
    for line in result["introduced"]:
        print(f"- {line}")
    if json_path is not None:
        data = {**result, "load": [before, after]}
        data["samples_ms"] = {k: [v * 1000 for v in vs] for k, vs in samples.items()}
        json_path.write_text(json.dumps(data))


if __name__ == "__main__":
    main(**arguments(main, __doc__))
