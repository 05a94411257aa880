"""`lspd check --baseline HEAD` from the committed state's kept result (issue 40) beside the
two-state comparison it replaces, on the real projects of bench/feedback.py.

    .venv/bin/python bench/kept_baseline.py [--only effect|ts7|sqlalchemy] [--keep DIR]

For each way (`two states`: LSPD_KEEP_COMMITTED=0, as before issue 40; `kept`): a daemon on
the project committed in git (fetched at pinned versions by bench/feedback.py), its cold
`lspd check`, one `--baseline HEAD` on the clean tree, then per edit (a leaf edit, a
body-only edit of a core module, a signature change of it): the edit written, `lspd check`
timed, `lspd check --baseline HEAD` timed with what it introduced, the edit undone and
checked again. Prints each time with the load average when it was read, and whether both
ways introduced the same errors (path, line, rule).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.feedback import EDITS, PROJECTS, Lspd, Project, committed, edit
from bench.gate import LSPD

Error = tuple[str, int, str]  # (path, line, rule)


@dataclass
class Row:
    way: str
    step: str
    s: float
    load: float
    introduced: list[Error] = field(default_factory=list)
    scope: str = ""


def baseline(lspd: Lspd) -> tuple[float, list[Error], str]:
    """`lspd check --baseline HEAD`, timed: what it introduced, and how it chose the files."""
    began = time.perf_counter()
    done = subprocess.run(
        [*LSPD, "check", "--root", str(lspd.root), "--json", "--baseline", "HEAD"],
        cwd=lspd.root, env=lspd.env, capture_output=True, text=True,
    )  # fmt: skip
    took = time.perf_counter() - began
    if done.returncode not in (0, 1):  # said in the table (a server timed out, say)
        return took, [], f"FAILED: {done.stdout[-300:]}{done.stderr[-200:]}"
    changes = json.loads(done.stdout)["changes"]
    found = sorted((d["path"], d["line"], d.get("code") or "") for d in changes["introduced"])
    return took, found, changes["scope"]


def one_way(project: Project, root: Path, keep: bool, rows: list[Row]) -> None:
    way = "kept" if keep else "two states"
    state = Path(tempfile.mkdtemp(prefix="lspd-kept-bench-"))
    lspd = Lspd(root, project.targets, state)
    lspd.env["LSPD_KEEP_COMMITTED"] = "1" if keep else "0"
    with lspd:
        cold = lspd.check()
        rows.append(Row(way, "cold check", cold[0], cold[2]))
        took, found, scope = baseline(lspd)
        rows.append(Row(way, "baseline, clean", took, _load()))
        for name in EDITS:
            change = project.edits[name]
            before = edit(root, change)
            try:
                checked = lspd.check()
                took, found, scope = baseline(lspd)
            finally:
                (root / change[0]).write_text(before)
            rows.append(Row(way, f"{name}: check", checked[0], checked[2]))
            rows.append(Row(way, f"{name}: baseline", took, _load(), found, scope))
            lspd.check()  # undone


def _load() -> float:
    return os.getloadavg()[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=[p.key for p in PROJECTS], default="effect")
    parser.add_argument("--keep", type=Path, help="fetch the project here (kept between runs)")
    args = parser.parse_args()
    project = next(p for p in PROJECTS if p.key == args.only)
    base = args.keep or Path(tempfile.mkdtemp(prefix="lspd-kept-bench-"))
    made = base / ".made"
    root = Path(made.read_text()) if made.exists() else project.make(base)
    if not (root / ".git").exists():
        committed(root)
    made.write_text(str(root))
    rows: list[Row] = []
    for keep in (False, True):
        one_way(project, root, keep, rows)
    print(f"{project.name}: `lspd check --baseline HEAD`, two states vs kept result")
    print("| step | two states: s (load) | kept: s (load) |")
    print("|---|---|---|")
    by = {(r.way, r.step): r for r in rows}
    for step in [r.step for r in rows if r.way == "kept"]:
        two, kept = by["two states", step], by["kept", step]
        print(f"| {step} | {two.s:.2f} ({two.load:.1f}) | {kept.s:.2f} ({kept.load:.1f}) |")
    for name in EDITS:
        two, kept = by["two states", f"{name}: baseline"], by["kept", f"{name}: baseline"]
        same = "same" if two.introduced == kept.introduced else "DIFFERENT"
        print(f"{name}: introduced {len(two.introduced)} vs {len(kept.introduced)} ({same})")
        print(f"  two states: {two.scope}")
        print(f"  kept: {kept.scope}")
        for label, one, other in (("two states", two, kept), ("kept", kept, two)):
            only = sorted(set(one.introduced) - set(other.introduced))
            if only:
                print(f"  {label} only ({len(only)}): {only[:10]}")


if __name__ == "__main__":
    main()
