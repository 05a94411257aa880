"""What the answers about a mypy-gated project are kept against: the stat stamps of the
files and directories they were read from.

A question about such a project read its configuration (three TOML parses: mypy's, and
pyright's which also decides the checker) and walked its tree for the files mypy sees, at
every run: a preview asks mypy three times, and each time paid ~0.1 s of it under load.
Now each is made again only when a stamp it was made from changed: a file's mtime, size or
inode; a directory's mtime (an entry added, removed or renamed in it).

A stamp is trusted only when its mtime is more than `RACY_NS` (2 s, `files.RACY_NS`) older
than the wall clock when it was taken: file systems keep mtimes as coarsely as 1-2 s (FAT's
2 s, ext3's and HFS+'s 1 s), so a same-size rewrite within that tick could keep the stamp.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Generic, TypeVar

from lspd.workspace.files import RACY_NS

T = TypeVar("T")
Stamp = tuple[int, int, int] | None  # (mtime_ns, size, inode); None: not there
KEPT = 256


def stamp(path: Path) -> Stamp:
    """`path`'s stamp (its link's, for a symbolic link), None when it is not there."""
    try:
        found = os.lstat(path)
    except OSError:
        return None
    return (found.st_mtime_ns, found.st_size, found.st_ino)


def stamps(paths: Iterable[Path]) -> tuple[Stamp, ...]:
    """The stamps of `paths`, in order."""
    return tuple(stamp(path) for path in paths)


def settled(taken: Iterable[Stamp], began_ns: int) -> bool:
    """Whether stamps taken at `began_ns` can be trusted: none changed within `RACY_NS` of
    that time."""
    return all(s is None or s[0] < began_ns - RACY_NS for s in taken)


class Memo(Generic[T]):
    """Values made from files, kept while those files' stamps stay the same (the last
    `KEPT` keys); thread-safe (made in worker threads)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[Hashable, tuple[tuple[Path, ...], tuple[Stamp, ...], T]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def get(
        self, key: Hashable, paths: tuple[Path, ...], make: Callable[[], tuple[T, tuple[Path, ...]]]
    ) -> T:
        """The value of `key`: kept while `paths` and the paths `make` said it read too are
        unchanged, else made (`make` returns the value and those other paths)."""
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None and stamps(kept[0]) == kept[1]:
            return kept[2]
        began = time.time_ns()
        before = stamps(paths)
        value, also = make()
        read = (*paths, *(p for p in also if p not in paths))
        taken = (*before, *stamps(read[len(paths) :]))
        with self._lock:
            if settled(taken, began):
                self._kept[key] = (read, taken, value)
                self._kept.move_to_end(key)
                while len(self._kept) > KEPT:
                    self._kept.popitem(last=False)
            else:
                self._kept.pop(key, None)
        return value
