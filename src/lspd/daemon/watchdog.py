"""A tiny sidecar that kills the language servers' process groups if the daemon dies.

The parent-death signal set on each server reaches only its direct child: a wrapper such
as `basedpyright-langserver` (Python) dies with the daemon, but the `node` it started is
left to notice EOF on its own. The watchdog closes that gap for any server: the daemon
tells it the current process groups over a pipe; when the pipe closes without a goodbye
(the daemon was killed, even by SIGKILL), it SIGKILLs those groups and exits.
"""

from __future__ import annotations

import contextlib
import logging
import subprocess
import sys
from collections.abc import Iterable

log = logging.getLogger(__name__)

# Runs with `python -I -S -c`: no site, no lspd import; a few MB and ~20 ms to start.
_PROGRAM = r"""
import os, signal, sys
for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(sig, signal.SIG_IGN)
groups = []
for line in sys.stdin:
    line = line.strip()
    if line == "bye":
        sys.exit(0)
    groups = [int(word) for word in line.split() if word.isdigit()]
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
"""


class Watchdog:
    """The daemon's handle on its watchdog process."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None
        self._groups: tuple[int, ...] = ()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def start(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _PROGRAM],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,  # a Ctrl-C to the daemon's terminal must not end it
            close_fds=True,
        )

    def watch(self, groups: Iterable[int]) -> None:
        """Tell the watchdog the process groups to kill should the daemon die now."""
        current = tuple(sorted(set(groups)))
        if current == self._groups or self._process is None or self._process.stdin is None:
            return
        self._groups = current
        try:
            self._process.stdin.write(" ".join(map(str, current)) + "\n")
            self._process.stdin.flush()
        except OSError:
            log.warning("the watchdog is gone; servers rely on their parent-death signal")

    def stop(self) -> None:
        """A clean exit: the servers are stopped already, the watchdog leaves them be."""
        process, self._process = self._process, None
        if process is None or process.stdin is None:
            return
        with contextlib.suppress(OSError):
            process.stdin.write("bye\n")
            process.stdin.close()
        try:
            process.wait(2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
