"""The kept result of HEAD made while the work tree is dirty (issue 40, item 1): effect
3.10.0 (bench/feedback.py's project, TypeScript 5.6.3 on the builder) committed, an edit of
src/Function.ts written before `lspd serve`, then `lspd check` (the cold check) and
`lspd check --baseline HEAD` timed; the latter waits for the committed state's result,
made by the engine's preview of HEAD's texts (`ops/overlaid_state.py`). The resident
memory of lspd's process tree per process: at once after it, and after a few seconds with
no request (the builder's helper collects its old checker once idle: tsbuilder.cjs).

    .venv/bin/python bench/dirty_start.py [--keep DIR] [--idle SECONDS ...] [--only KIND]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.feedback import CONST_TRUE, committed, effect
from bench.gate import LSPD

IDLE_S = [5.0, 30.0]  # the helper collects after 1 s without a request, in 50 ms slices

EDITS = {
    "body": [("should be uncallable", "should never be called")],
    "body and signature": [
        ("should be uncallable", "should never be called"),
        (CONST_TRUE, CONST_TRUE.replace("boolean", "string")),
    ],
}


def tree_mb(pid: int) -> list[tuple[str, int]]:
    """Each process of `pid`'s tree: its command and resident MB."""
    out = subprocess.run(["ps", "-eo", "pid=,ppid=,rss=,comm="], capture_output=True, text=True)
    rows = [line.split(None, 3) for line in out.stdout.splitlines() if line.strip()]
    found, todo = [], [pid]
    while todo:
        me = todo.pop()
        found += [(c, int(r) // 1024) for p, _, r, c in rows if int(p) == me]
        todo += [int(p) for p, pp, _, _ in rows if int(pp) == me]
    return found


def one(project: Path, base: Path, kind: str, idle: list[float]) -> str:
    root = base / kind.replace(" ", "-") / "effect"
    shutil.rmtree(root.parent, ignore_errors=True)
    shutil.copytree(project, root, symlinks=True)
    path = root / "src/Function.ts"
    text = path.read_text()
    for old, new in EDITS[kind]:
        assert old in text, old
        text = text.replace(old, new, 1)
    path.write_text(text)
    env = {**os.environ, "LSPD_STATE_DIR": str(root.parent / "state")}
    subprocess.run(
        [*LSPD, "serve", str(root), "--detach"], env=env, check=True, capture_output=True
    )
    try:
        times = []
        for extra in ([], ["--baseline", "HEAD"]):
            began = time.perf_counter()
            argv = [*LSPD, "check", "--root", str(root), "--json", *extra]
            done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=root)
            answer = json.loads(done.stdout)
            changes = answer.get("changes") or {}
            found = len(changes["introduced"]) if extra else answer["errors"]
            times.append(
                f"{time.perf_counter() - began:.2f} ({found}), load {os.getloadavg()[0]:.1f}"
            )
        pids = subprocess.run(["pgrep", "-f", f"serve {root}"], capture_output=True, text=True)
        mb = [m for pid in pids.stdout.split() for m in tree_mb(int(pid))]
        idled, slept = [], 0.0
        for seconds in idle:  # no request: the builder's helper collects once GC_IDLE_MS pass
            time.sleep(seconds - slept)
            slept = seconds
            idled.append([m for pid in pids.stdout.split() for m in tree_mb(int(pid))])
    finally:
        subprocess.run([*LSPD, "stop", "--root", str(root)], env=env, capture_output=True)
    log = next((root.parent / "state").glob("*/daemon.log")).read_text().splitlines()
    made = [line.split("INFO ")[-1] for line in log if "kept the result" in line]
    at_once = ", ".join(f"{c} {m}" for c, m in mb)
    after = " | ".join(f"{sum(m for _, m in r)} MB: {max(m for _, m in r)} MB" for r in idled)
    return (
        f"| {kind} | {times[0]} | {times[1]} | {sum(m for _, m in mb)} MB: {at_once} |"
        f" {after} (load {os.getloadavg()[0]:.1f}) | {made[-1] if made else ''} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="work here (bench/feedback.py's --keep too)")
    parser.add_argument(
        "--idle",
        type=float,
        nargs="+",
        default=IDLE_S,
        help="seconds idle (from the answer) at which RSS is read again, in order",
    )
    parser.add_argument("--only", choices=list(EDITS), help="this dirty tree only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lspd-dirty-") as temp:
        base = args.keep or Path(temp)
        project = base / "effect" / "effect"
        if not (project / ".git").is_dir():
            project = effect(base / "effect")
            committed(project)
        subprocess.run(
            ["git", "-C", str(project), "checkout", "-q", "HEAD", "--", "src"], check=True
        )
        idles = sorted(args.idle)  # read in this order, so labelled in it
        idle = " | ".join(f"RSS after {s:g} s idle: total, largest" for s in idles)
        print("| dirty at start | lspd check s (errors), load | check --baseline HEAD s "
              f"(introduced), load | RSS at once | {idle} | the kept result |")  # fmt: skip
        print("|---" * (5 + len(idles)) + "|")
        for kind in [args.only] if args.only else EDITS:
            print(one(project, base / "dirty", kind, idles), flush=True)


if __name__ == "__main__":
    main()
