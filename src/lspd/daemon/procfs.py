"""CPU and memory of the daemon and its servers, read from /proc when the status page asks
(and memory every `SAMPLE_S` while servers run, for its chart of the last hour)."""

from __future__ import annotations

import os
import time

_TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu_s(pid: int) -> float | None:
    """CPU seconds (user + system) of `pid` and every process below it (None once gone)."""
    total = 0.0
    for at, current in enumerate(_tree(pid)):
        try:
            with open(f"/proc/{current}/stat", encoding="ascii") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            if at == 0:
                return None
            continue
        total += (int(fields[11]) + int(fields[12])) / _TICKS
    return total


def _tree(pid: int) -> list[int]:
    """`pid` and the processes below it, parents first."""
    pids, at = [pid], 0
    while at < len(pids):
        try:
            with open(f"/proc/{pids[at]}/task/{pids[at]}/children", encoding="ascii") as handle:
                pids += [int(child) for child in handle.read().split() if int(child) not in pids]
        except (OSError, ValueError):
            pass
        at += 1
    return pids


def own_rss_mb() -> float | None:
    """This process's resident memory, in MB (not its children: the servers count apart)."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            line = next(line for line in handle if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return None
    return int(line.split()[1]) / 1024


class CpuMeter:
    """CPU use of processes between two reads (a read per page poll: nothing in between)."""

    def __init__(self) -> None:
        self.last: dict[int, tuple[float, float]] = {}  # pid -> (monotonic time, CPU s)

    def percent(self, pid: int | None, tree: bool = True) -> float | None:
        """Percent of one core `pid` used since the last read of it (None at the first)."""
        if pid is None:
            return None
        used = tree_cpu_s(pid) if tree else _own_cpu()
        if used is None:
            self.last.pop(pid, None)
            return None
        now = time.monotonic()
        before = self.last.get(pid)
        self.last[pid] = (now, used)
        if before is None or now <= before[0]:
            return None
        return round(100 * (used - before[1]) / (now - before[0]), 1)

    def forget_others(self, pids: set[int]) -> None:
        """Drop the readings of processes gone (a restarted server has a new pid)."""
        self.last = {pid: value for pid, value in self.last.items() if pid in pids}


def _own_cpu() -> float:
    times = os.times()
    return times.user + times.system
