"""One daemon per workspace root: an exclusive `flock` on a file in the state directory.

A lock, not a race: two `lspd serve` started at the same moment both try the lock and
exactly one gets it; the kernel releases it when its holder dies, even by SIGKILL.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from lspd.dirs import state_dir

LOCK_FILE = "daemon.lock"


def lock_path(root: Path) -> Path:
    """The lock file that lets one daemon serve a workspace."""
    return state_dir(root) / LOCK_FILE


class InstanceLock:
    """Held for the daemon's whole life; holds the owner's pid for diagnostics."""

    def __init__(self, root: Path) -> None:
        self.path = lock_path(root)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock without waiting; False when another process holds it."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    def __enter__(self) -> InstanceLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder(root: Path) -> int | None:
    """The pid of the live process holding `root`'s lock, or None: a daemon too busy to
    answer is told from a dead one by this, not by its port. The pid the file names must
    hold the file open (a killed daemon's pid may be another process's by now)."""
    path = lock_path(root).resolve()
    try:
        pid = int(path.read_text(encoding="ascii").strip())
        fds = Path(f"/proc/{pid}/fd")
        return pid if any(_names(fd, path) for fd in fds.iterdir()) else None
    except (OSError, ValueError):
        return None


def _names(fd: Path, path: Path) -> bool:
    try:
        return Path(os.readlink(fd)) == path
    except OSError:
        return False
