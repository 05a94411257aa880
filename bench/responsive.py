"""Whether a daemon busy with a large comparison still answers: /health latency while it
makes SQLAlchemy's first `check --baseline HEAD`.

    .venv/bin/python bench/responsive.py [--sqlalchemy DIR]

A daemon serves SQLAlchemy 2.0.36 (basedpyright, 686 files, ~350,000 diagnostics; fetched as
bench/gate.py does, or `--sqlalchemy DIR` for an unpacked sdist) with `to_list`'s `default`
made required. Right after `serve`, `lspd check --baseline HEAD` makes HEAD's result and the
work tree's; meanwhile /health is asked every 0.1 s. A /health unanswered for 2 s is what
`lspd stop`, the hooks and every CLI command took for no daemon (the bench's finding: 11 s).
Printed: the check's time, /health's p50, p95 and worst latency, how often it took over
1 s and over 2 s, and memory: the daemon's peak RSS (VmHWM: the comparison's moment) and,
right after the check, its RSS and its language servers'.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from hooks import LSPD, SA_CORE, SA_NEW, SA_OLD, sqlalchemy

from lspd.daemon.lock import holder


def probe(port: str, stop: threading.Event, took: list[float]) -> None:
    while not stop.is_set():
        began = time.monotonic()
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=60).read()
        took.append(time.monotonic() - began)
        stop.wait(0.1)


def status_mb(pid: int, field: str) -> float:
    """One of a process's memory figures from /proc (VmRSS, VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return 0.0


def descendants(pid: int) -> list[int]:
    """A process's children, theirs, and so on."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            for child in map(int, (task / "children").read_text().split()):
                out += [child, *descendants(child)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sqlalchemy", type=Path, help="an unpacked SQLAlchemy 2.0.36 sdist")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        os.environ["LSPD_STATE_DIR"] = str(Path(temp) / "state")  # for the lock's pid too
        env = dict(os.environ)
        root = sqlalchemy(Path(temp), arguments.sqlalchemy)
        core = root / SA_CORE
        core.write_text(core.read_text().replace(SA_OLD, SA_NEW))
        subprocess.run([*LSPD, "serve", str(root), "--detach"], env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        port = (root / ".vscode" / ".mcp-port").read_text().strip()
        stop, took = threading.Event(), []
        prober = threading.Thread(target=probe, args=(port, stop, took))
        prober.start()
        try:
            began = time.monotonic()
            subprocess.run([*LSPD, "check", "--baseline", "HEAD"], cwd=root, env=env,
                           capture_output=True)  # fmt: skip
            check_s = time.monotonic() - began
            pid = holder(root)
            assert pid is not None, "the daemon is gone"
            peak, rss = status_mb(pid, "VmHWM"), status_mb(pid, "VmRSS")
            servers = sum(status_mb(child, "VmRSS") for child in descendants(pid))
        finally:
            stop.set()
            prober.join()
            subprocess.run([*LSPD, "stop", "--root", str(root)], env=env, capture_output=True)
    ms = sorted(t * 1000 for t in took)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    p50 = statistics.median(ms)
    slow = (sum(m > 1000 for m in ms), sum(m > 2000 for m in ms))
    print(f"check --baseline HEAD, cold daemon  {check_s:.1f} s")
    print(f"/health asked                       {len(ms)}")
    print(f"/health p50 / p95 / worst (ms)      {p50:.0f} / {p95:.0f} / {ms[-1]:.0f}")
    print(f"/health over 1 s / over 2 s         {slow[0]} / {slow[1]}")
    print(f"daemon peak RSS / RSS after (MB)    {peak:.0f} / {rss:.0f}")
    print(f"its language servers' RSS (MB)      {servers:.0f}")


if __name__ == "__main__":
    sys.exit(main())
