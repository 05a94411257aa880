"""Linux inotify, watching only the directories that matter.

A recursive watcher (watchfiles) puts a watch on every directory under the root and filters
afterwards: a monorepo's node_modules alone costs tens of thousands of watches, against the
system's limit (`fs.inotify.max_user_watches`). Here ignored directories are never watched:
the watch count follows the source tree. A directory that appears is watched at once and
scanned, so files created in it before its watch was in place are still reported.
"""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import struct
from collections.abc import Callable, Iterator
from pathlib import Path

import watchfiles

log = logging.getLogger(__name__)

IN_MODIFY = 0x2
IN_CLOSE_WRITE = 0x8
IN_MOVED_FROM = 0x40
IN_MOVED_TO = 0x80
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ONLYDIR = 0x01000000
IN_ISDIR = 0x40000000
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
MASK = IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ONLYDIR
_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len (then `len` bytes of name)

Raw = tuple[watchfiles.Change, str]


class WatchLimit(Exception):
    """The system's (or lspd's) limit on watches is reached: not every directory is watched."""


class Inotify:
    """One inotify instance: the directories it watches, and their events as changes."""

    def __init__(self, ignored: Callable[[Path], bool], limit: int | None = None) -> None:
        self._libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self._libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        self._ignored = ignored
        self._limit = limit
        self._paths: dict[int, Path] = {}  # watch descriptor -> directory
        self.problem: str | None = None  # why some directory is not watched

    @property
    def watches(self) -> int:
        return len(self._paths)

    def close(self) -> None:
        os.close(self.fd)

    def add_tree(self, top: Path, ignore_rules: bool = True) -> list[Path]:
        """Watch `top` and every directory below it that is not ignored; the files and
        directories found below it (a new directory's may predate its watch). Raises
        `WatchLimit`."""
        found: list[Path] = []
        for directory, dirnames, filenames in os.walk(top):
            base = Path(directory)
            self._add(base)
            if ignore_rules:
                dirnames[:] = [d for d in dirnames if not self._ignored(base / d)]
            found += [base / name for name in (*dirnames, *filenames)]
        return found

    def _add(self, directory: Path) -> None:
        if self._limit is not None and self.watches >= self._limit:
            raise WatchLimit(f"lspd's watch limit ({self._limit}) is reached")
        wd = self._libc.inotify_add_watch(self.fd, os.fsencode(directory), MASK)
        if wd >= 0:
            self._paths[wd] = directory
            return
        code = ctypes.get_errno()
        if code == errno.ENOSPC:
            raise WatchLimit(
                f"the system's inotify watch limit is reached at {self.watches} watches "
                "(raise fs.inotify.max_user_watches, or ignore more in lspd.toml)"
            )
        if code not in (errno.ENOENT, errno.ENOTDIR, errno.EACCES):
            log.warning("cannot watch %s: %s", directory, os.strerror(code))

    def read(self) -> list[Raw]:
        """The changes that are waiting, as (watchfiles.Change, path); new directories are
        watched (and reported as added, with their files) on the way."""
        out: list[Raw] = []
        for mask, path in self._events():
            if mask & IN_Q_OVERFLOW:
                log.warning("inotify dropped events (queue overflow); open files are re-read")
                continue
            if path is None:
                continue
            if mask & IN_ISDIR:
                if mask & (IN_CREATE | IN_MOVED_TO) and not self._ignored(path):
                    try:
                        found = self.add_tree(path)
                    except WatchLimit as exc:
                        self.problem = str(exc)
                        log.warning("%s: %s is not watched", exc, path)
                        continue
                    # The directory too: a server caching directory listings (tsserver's
                    # configured projects) learns of its files only through it.
                    out.append((watchfiles.Change.added, str(path)))
                    out += [(watchfiles.Change.added, str(file)) for file in found]
                elif mask & (IN_DELETE | IN_MOVED_FROM):
                    out.append((watchfiles.Change.deleted, str(path)))
                continue
            if mask & (IN_CREATE | IN_MOVED_TO):
                out.append((watchfiles.Change.added, str(path)))
            elif mask & (IN_DELETE | IN_MOVED_FROM):
                out.append((watchfiles.Change.deleted, str(path)))
            elif mask & (IN_MODIFY | IN_CLOSE_WRITE):
                out.append((watchfiles.Change.modified, str(path)))
        return out

    def _events(self) -> Iterator[tuple[int, Path | None]]:
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            offset = 0
            while offset + _HEADER.size <= len(data):
                wd, mask, _, length = _HEADER.unpack_from(data, offset)
                raw = data[offset + _HEADER.size : offset + _HEADER.size + length]
                offset += _HEADER.size + length
                if mask & IN_IGNORED:  # its directory is gone
                    self._paths.pop(wd, None)
                    continue
                directory = self._paths.get(wd)
                name = raw.rstrip(b"\0")
                if directory is None:
                    yield mask, None
                else:
                    yield mask, directory / os.fsdecode(name) if name else directory
