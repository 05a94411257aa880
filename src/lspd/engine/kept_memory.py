"""What a workspace keeps of its committed state's result between questions (the result
itself is `engine/kept.py`'s KeptState). Apart from its making (`engine/committed.py`) so
that a file's baseline (`ops/file_since_kept.py`) reads it without the engine's runs.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.kept import KeptState, StateKey
from lspd.engine.results import FileResult
from lspd.engine.seen import FileSeen
from lspd.workspace import Workspace
from lspd.workspace.per_workspace import PerWorkspace

Again = dict[str, tuple[FileResult, FileSeen]]  # by path: the result now, a 2nd sample
KEEP_REVISIONS = 4  # results of other commits than HEAD's kept in memory (also saved)
# "0": the daemon keeps no result in the background and one file's baseline is the engine's
# old state of that file (`ops/file_since_kept.file_since_baseline`); a whole question
# (`check --baseline`, the hook) still makes its baseline's result when asked.
SWITCH = "LSPD_KEEP_COMMITTED"


def enabled() -> bool:
    """Whether the daemon keeps HEAD's result in the background (and one file's baseline
    reads it)."""
    return os.environ.get(SWITCH, "1") != "0"


@dataclass
class CommittedMemory:
    """The kept result of a workspace, and how many committed states it checked."""

    state: KeptState | None = None  # HEAD's
    session: KeptState | None = None  # the session's (made at its first question)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    made: int = 0  # committed states made by checking (not read back from a file)
    moved: tuple[str, str] | None = None  # HEAD's last move under a kept result: from, to
    revisions: dict[StateKey, KeptState] = field(default_factory=dict)  # other commits'
    # Per kept result made while the tree was dirty: its files' second sample at the disk's
    # text, beside the work tree's result it stands with (`engine/committed._again`).
    again: dict[StateKey, Again] = field(default_factory=dict)


_memories = PerWorkspace(CommittedMemory)


def memory_of(ws: Workspace) -> CommittedMemory:
    """The kept result's memory of `ws`."""
    return _memories.of(ws)


def kept_folder(ws: Workspace) -> Path:
    """Where a workspace's kept results are saved."""
    return ws.log_dir.parent / "kept"  # beside its logs: the state directory in a daemon
