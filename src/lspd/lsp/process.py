"""Starting a language server so that it can never outlive us.

Each server runs in its own process group (so we can kill it with everything it spawned),
gets SIGKILL from the kernel when our process dies (Linux parent-death signal), and writes
its stderr to a log file, so a chatty server never blocks on a full pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


async def spawn(
    command: list[str], cwd: Path, env: Mapping[str, str], log_path: Path
) -> asyncio.subprocess.Process:
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log_file:
        return await asyncio.create_subprocess_exec(
            *command,
            cwd=cwd,
            env=dict(env),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=log_file,
            start_new_session=True,
            preexec_fn=_die_with_parent,
            limit=2**26,
        )


async def exited(process: asyncio.subprocess.Process, poll: float = 0.05) -> int:
    """Wait until `process` has exited and return its exit code.

    Unlike `process.wait()`, this does not also wait for the process's pipes to close: a child
    the server started inherits its stdout and keeps it open after the server itself died.
    """
    while process.returncode is None:
        await asyncio.sleep(poll)
    return process.returncode


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by `pid` (the server and anything it started)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
