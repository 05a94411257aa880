"""A baseline comparison for an agent's hooks, read while it runs (`daemon/feedback.py`).

The check itself is the engine's (`lspd.ops.progressive_kept`: the incremental whole check
against the baseline's kept result, made first when it is not kept yet); `Progress` is what
the hook reads of it within its budget of seconds, and what it found once it ends, with
each file's stamp so that a finding an edit undid since is not told.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

from lspd.ops.models import FileDiagnostic
from lspd.workspace.files import stamp

Stamp = tuple[int, int] | None  # a file's (mtime_ns, size) on disk; None: absent
Key = tuple[str, str, str | None, str, str]  # a finding's identity across checks (no line)


@dataclass(frozen=True)
class Introduced:
    """A diagnostic the change introduced, with its identity across checks."""

    diagnostic: FileDiagnostic
    key: Key
    file: Path


@dataclass(frozen=True)
class Before:
    """What the work tree held against a baseline when a session's turn began: the keys of
    its findings introduced since the baseline, and its checkers' stops. Not the turn's work."""

    baseline: str
    found: frozenset[Key] = frozenset()
    stops: frozenset[str] = frozenset()


NOTHING_BEFORE = Before("")


@dataclass
class Progress:
    """A hook's check as it goes: what it was asked about, what it found, whether it ended."""

    baseline: str
    edited: list[Path]  # the files it was asked about
    began: float = field(default_factory=time.monotonic)
    at_start: dict[Path, Stamp] = field(default_factory=dict)  # the edited files then
    changed: list[Path] = field(default_factory=list)  # of those, the ones differing from it
    compared: int = 0  # files compared (known at the end: the whole check's comparison)
    introduced: list[Introduced] = field(default_factory=list)
    seen: dict[Path, Stamp] = field(default_factory=dict)  # each file as it was compared
    keys: dict[Path, set[Key]] = field(default_factory=dict)
    failed: str | None = None
    now: list[FileDiagnostic] = field(default_factory=list)  # the edited files' errors now
    stopped: list[str] = field(default_factory=list)  # checkers stopped at a syntax error
    stop_keys: list[str] = field(default_factory=list)  # each stop, whatever its lines
    # those of `stop_keys` at a configuration's options error the baseline stopped at too
    # (the same line): set aside as those the turn began with (`agent_session.aside`)
    stops_then: frozenset[str] = frozenset()
    told_stops: bool = False  # its edit's hook answered it complete: `stopped` said there
    done: asyncio.Event = field(default_factory=asyncio.Event)
    batch: asyncio.Event = field(default_factory=asyncio.Event)  # set when findings come
    answered: asyncio.Event = field(default_factory=asyncio.Event)  # its edit's hook answered

    def __post_init__(self) -> None:
        self.at_start = {path: stamp(path) for path in self.edited}

    def covers(self, paths: list[Path], baseline: str) -> bool:
        """Whether this comparison answers for `paths` as they are now: it was asked about
        them, against the same baseline, and none of them changed since it began."""
        return (
            baseline == self.baseline
            and set(paths) <= set(self.edited)
            and all(stamp(p) == self.at_start[p] for p in self.edited)
        )

    @property
    def total(self) -> int:
        """Files to compare in all: known at the end (the whole check's running progress is
        the check's own, `check_memory.running`)."""
        return self.compared

    def current(self, item: Introduced) -> bool:
        """Whether a finding still holds: neither its file nor a changed file has changed
        on disk since it was compared (an edit undone or redone since makes it stale)."""
        files = [item.file, *self.changed]
        return all(stamp(f) == self.seen.get(f, stamp(f)) for f in files)
