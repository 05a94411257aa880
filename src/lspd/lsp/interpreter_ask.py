"""Asking a `python3` shim which interpreter it runs, ahead of the session that needs it.

A shim (pyenv, asdf, mise: a script choosing an interpreter per directory) takes 0.25-0.35 s
here to say which interpreter it runs, and a session waits for that answer before it sends
`initialized` (`workspace/toolchain.settle`). With its server started ahead
(`daemon/head_start`) the server's `initialize` is answered first, so the shim's answer was
the wait. `lspd serve` therefore asks the shims the last run asked (`ahead`) beside those
servers, before lspd's own modules are imported; a session asking exactly the same (shim,
directory, environment) is given that answer (`answer`), else asks now. Only lspd's own
question is ever asked (`PROGRAM`): the shim runs it as the interpreter it chose.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

PROGRAM = "import sys; print(sys.executable); print('%d.%d.%d' % sys.version_info[:3])"


@dataclass(frozen=True)
class Ask:
    """One question to a shim: where it runs, with which environment."""

    shim: str
    cwd: str
    env: tuple[tuple[str, str], ...]  # sorted

    def command(self) -> list[str]:
        """The shim, isolated (`-I`: no file of the directory is imported), running `PROGRAM`."""
        return [self.shim, "-I", "-c", PROGRAM]


def python_on_path() -> Path | None:
    """`python3` on PATH, skipping lspd's own virtual environment (the interpreter a
    project with none of its own runs)."""
    own = Path(sys.prefix) / "bin" if sys.prefix != sys.base_prefix else None
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        if not entry or (own is not None and Path(entry) == own):
            continue
        found = shutil.which("python3", path=entry)
        if found:
            return Path(found)
    return None


def is_script(path: Path) -> bool:
    """Whether `path` is a script (`#!`): a shim that runs some interpreter, not one."""
    try:
        with path.open("rb") as file:
            return file.read(2) == b"#!"
    except OSError:
        return False


def asked(shim: Path, cwd: Path, env: Mapping[str, str]) -> Ask:
    """The question to `shim` in `cwd` with the whole environment `env`."""
    return Ask(str(shim), str(cwd), tuple(sorted(env.items())))


# What sessions were made to ask (the daemon remembers prewarm's: daemon/head_start.py).
ASKED: deque[Ask] = deque(maxlen=8)
_AHEAD: dict[Ask, subprocess.Popen[str]] = {}  # asked early, not yet answered to anyone
_LOCK = threading.Lock()  # `answer` runs in threads


def ahead(ask: Ask) -> None:
    """Ask now, for a session that will ask exactly this later (`answer`)."""
    process = _asking(ask)
    with _LOCK:
        _AHEAD[ask] = process


def unclaimed() -> list[subprocess.Popen[str]]:
    """The questions asked `ahead` that no session took (no longer offered: an answer is
    of the moment it was asked; the caller kills them)."""
    with _LOCK:
        left = list(_AHEAD.values())
        _AHEAD.clear()
    return left


def answer(ask: Ask, timeout: float) -> tuple[str, str]:
    """The interpreter the shim runs and its version (`3.11.7`), asked now unless it was
    `ahead`. Blocks; raises as `read`."""
    return read(take(ask), ask, timeout)


def take(ask: Ask) -> subprocess.Popen[str]:
    """The shim answering `ask`: the one asked `ahead` for exactly this, else one asked now
    (does not wait for it)."""
    with _LOCK:
        process = _AHEAD.pop(ask, None)
    if process is None:
        return _asking(ask)
    log.info("%s was asked ahead which interpreter it runs: taken", ask.shim)
    return process


def read(process: subprocess.Popen[str], ask: Ask, timeout: float) -> tuple[str, str]:
    """What `process` (from `take`) answered: the interpreter and its version (`3.11.7`).
    Blocks (run it in a thread); raises OSError, ValueError or subprocess.SubprocessError
    when the shim cannot say."""
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, ask.command(), out)
    executable, version = out.split()
    return executable, version


def _asking(ask: Ask) -> subprocess.Popen[str]:
    return subprocess.Popen(
        ask.command(),
        cwd=ask.cwd,
        env=dict(ask.env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
