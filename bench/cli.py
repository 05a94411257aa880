"""Wall time of the CLI against a warm daemon: what an agent's hook pays on every edit.

    .venv/bin/python bench/cli.py [--runs N] [--json FILE]

A daemon serves a copy of the Python fixture project; each command then runs N times as a
new process (as a hook runs it), the commands taking turns, and the table gives the p50
and max of the wall time. The target (issue 15.6) is ≤ 150 ms for `lspd diagnostics FILE`
with a warm daemon, as text and as --json (both rendered from the wire form, without
pydantic). Python's own start-up is measured beside it: what no CLI written in Python can
go below.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from latency import print_table

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "py"
LSPD = [sys.executable, "-m", "lspd"]


def timed(
    commands: dict[str, list[str]], cwd: Path, env: dict[str, str], runs: int
) -> dict[str, list[float]]:
    """Milliseconds of wall time of each run of each command; every run must succeed.

    The commands take turns, one run each per round, so that a burst of other work on a
    shared machine slows them all alike instead of whichever ran during it."""
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            began = time.perf_counter()
            done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
            samples[name].append((time.perf_counter() - began) * 1000)
            if done.returncode != 0:
                raise SystemExit(f"{' '.join(command)} failed: {done.stdout}{done.stderr}")
    return samples


def main(runs: int, json_path: Path | None) -> None:
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp) / "py"
        shutil.copytree(FIXTURE, root)
        env = {**os.environ, "LSPD_STATE_DIR": str(Path(temp) / "state")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: byte code is cached
        serve = [*LSPD, "serve", str(root), "--detach"]
        subprocess.run(serve, env=env, check=True, stdout=subprocess.DEVNULL)
        try:
            file = str(root / "pkg" / "broken.py")
            commands = {
                "python -c pass (start-up floor)": [sys.executable, "-c", "pass"],
                "lspd --version": [*LSPD, "--version"],
                "lspd diagnostics FILE --json": [*LSPD, "diagnostics", file, "--json"],
                "lspd diagnostics FILE": [*LSPD, "diagnostics", file],
                "lspd hover FILE:1:5 --json": [*LSPD, "hover", f"{file}:1:5", "--json"],
                "lspd hover FILE:1:5": [*LSPD, "hover", f"{file}:1:5"],
            }
            for command in commands.values():  # warm: servers, byte code, file cache
                subprocess.run(command, cwd=root, env=env, capture_output=True)
            rows = timed(commands, root, env, runs)
        finally:
            subprocess.run([*LSPD, "stop", "--root", str(root)], env=env, capture_output=True)
    print_table(f"CLI wall time with a warm daemon, {runs} runs each (ms)", rows, json_path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    parser.add_argument("--json", type=Path, help="also write the samples here")
    args = parser.parse_args()
    main(args.runs, args.json)
