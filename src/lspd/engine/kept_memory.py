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
from lspd.engine.revisions import Listing, configs_then
from lspd.engine.seen import FileSeen
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.per_workspace import PerWorkspace

Again = dict[str, tuple[FileResult, FileSeen]]  # by path: the result now, a 2nd sample
KEEP_REVISIONS = 4  # results of other commits than HEAD's kept in memory (also saved)
# "0": the daemon keeps no result in the background and one file's baseline is the engine's
# old state of that file (`ops/file_since_baseline.file_since_baseline`); a whole question
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
    moved_said: bool = False  # whether an answer said it (once: `committed.said_moved`)
    revisions: dict[StateKey, KeptState] = field(default_factory=dict)  # other commits'
    # Per kept result made while the tree was dirty: its files' second sample at the disk's
    # text, beside the work tree's result it stands with (`engine/second_sample.disk_again`).
    again: dict[StateKey, Again] = field(default_factory=dict)
    # The configurations' texts when the session's result was made (`configs_at`): the
    # session's configuration, as a commit's is its own.
    session_configs: dict[Path, str | None] = field(default_factory=dict)


_memories = PerWorkspace(CommittedMemory)


def memory_of(ws: Workspace) -> CommittedMemory:
    """The kept result's memory of `ws`."""
    return _memories.of(ws)


def configs_at(
    ws: Workspace, commit: str, configs: list[Path], listed: Listing | None = None
) -> dict[Path, str | None]:
    """The configurations whose text at `commit` differs from the disk's, with that text
    (None: not read there): a commit's from git (`revisions.configs_then`); the session's
    as they were when its result was made (`session_configs`, noted then), so a
    configuration edited during the session is compared under the session's, not taken as
    the session's own. None differ while the session has no result: it is made now.
    `listed`: the question's git listing against `commit`, when the caller has it."""
    if commit != "session":
        return configs_then(ws, commit, configs, listed)
    memory = memory_of(ws)
    if memory.session is None:
        memory.session_configs = {path: read_text(path) for path in configs}
        return {}
    start = memory.session_configs
    then = {path: text for path, text in start.items() if read_text(path) != text}
    return then | {path: None for path in configs if path not in start}


def kept_folder(ws: Workspace) -> Path:
    """Where a workspace's kept results are saved."""
    return ws.log_dir.parent / "kept"  # beside its logs: the state directory in a daemon
