"""What the whole checks of one workspace keep that the engine reads and renews
(`CheckState`): each file's last result with the server's answer it was made of (`known`:
reused while the server answers "unchanged" or a builder keeps a file's list), the check
running now (its progress), one whole check at a time (`lock`, `waiting`), and what the last
check saw of the files answered one by one, to tell what an edit since can affect
(`python`: `engine/python_affected.py`, `native`: `engine/native_reach.py`).

`WholeState` adds the last whole check per question (`C`, the caller's: reused while no file
changed) and what the caller keeps beside each result (`renewed`). The results and whole
checks are the caller's (`R`, `C`); what it keeps beside them (the answers made of whole
checks) is its own (`ops/check_memory.py`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from lspd.engine.check_files import Known
from lspd.engine.native_reach import NativeSeen
from lspd.engine.python_affected import PythonSeen
from lspd.engine.results import WholeCheck
from lspd.workspace.files import stamp

R = TypeVar("R")
C = TypeVar("C", bound=WholeCheck)  # the caller's whole check (`ops`: `Checked`)
Question = tuple[tuple[str, ...], bool]  # a check's globs, and whether it checks everything
Progress = Callable[[int, int], None]  # (files checked, files matched)


@dataclass
class Running:
    """How far the check running in a workspace is (`lspd check` shows it through a daemon)."""

    done: int
    total: int
    began: float = field(default_factory=time.monotonic)
    progress: Progress | None = None

    def tick(self, done: int) -> None:
        """`done` files of `total` are answered."""
        self.done = done
        if self.progress is not None:
            self.progress(done, self.total)


@dataclass
class CheckState(Generic[R]):
    """What the checks of one workspace keep for the engine (see the module's docstring)."""

    known: Known[R] = field(default_factory=dict)
    running: Running | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one whole check at a time
    waiting: int = 0  # foreground checks waiting for `lock` (a background run goes on for them)
    python: PythonSeen | None = None
    native: NativeSeen | None = None

    def begin(self, total: int, progress: Progress | None) -> Running:
        """A check of `total` files begins (the latest one begun is the one shown)."""
        self.running = Running(0, total, progress=progress)
        self.running.tick(0)
        return self.running

    def end(self, running: Running) -> None:
        """The check `running` ended (the running one shown, if it is that one)."""
        if self.running is running:
            self.running = None


@dataclass
class WholeState(CheckState[R], Generic[R, C]):
    """`CheckState` with the last complete check per question, answered again while no file
    has changed (the watcher counts changes): paging through a check costs one check."""

    last: dict[Question, C] = field(default_factory=dict)
    # Per question, the files of its check no watcher follows (a hidden folder's, which ty
    # checks), as they were: one changed since, the check is made again.
    unfollowed: dict[Question, dict[Path, tuple[int, int] | None]] = field(default_factory=dict)

    def keep(self, question: Question, checked: C, unfollowed: list[Path]) -> None:
        """`checked` is the last check of `question`; `unfollowed`: its files no watcher
        follows, told changed by their stamps."""
        self.last[question] = checked
        self.unfollowed[question] = {path: stamp(path) for path in unfollowed}

    def keep_only(self, paths: set[Path], shown: set[str]) -> None:
        """Forget the files a whole-workspace check no longer has (deleted, ignored): by
        path, and as answers show them (`shown`, for what the caller keeps beside them)."""
        self.known = {p: v for p, v in self.known.items() if p in paths}

    def renewed(self, result: R) -> None:
        """A file's result was replaced by `result` while a check runs (the caller's)."""

    def drop_stale(self, changes: int | None) -> None:
        """Forget the checks made before the last change (never fresh again): a check then
        replacing most results (a signature change) does not hold the old ones to its end
        beside the new (SQLAlchemy: the daemon 303 -> 418 MB over such a check)."""
        self.last = {q: c for q, c in self.last.items() if c.changes == changes}
        self.unfollowed = {q: u for q, u in self.unfollowed.items() if q in self.last}

    def unfollowed_now(self) -> tuple[tuple[Path, tuple[int, int] | None], ...]:
        """The stamps now of the files of the kept checks no watcher follows: what names
        their state where the watcher's count cannot (a comparison kept by that count)."""
        paths = sorted({path for files in self.unfollowed.values() for path in files})
        return tuple((path, stamp(path)) for path in paths)

    def fresh(self, question: Question, changes: int | None) -> C | None:
        """The last check of `question`, when no file has changed since it was made."""
        last = self.last.get(question)
        if last is None or changes is None or last.changes != changes:
            return None
        unfollowed = self.unfollowed.get(question, {})
        return last if all(stamp(p) == s for p, s in unfollowed.items()) else None
