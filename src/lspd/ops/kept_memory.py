"""What a workspace keeps of its committed state's result between questions (the result
itself is `lspd.engine.kept`'s KeptState), and the diagnostics as it keeps and compares
them. Apart from its making (`ops/committed.py`, which runs the check engine) so that a
file's baseline (`ops/file_since_kept.py`) reads it without importing the engine's runs.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from lspd.engine.comparison import Found
from lspd.engine.kept import KeptState, StateKey
from lspd.engine.seen import FileSeen, Seen, key, snippet
from lspd.ops.models import Diagnostic, DiagnosticsResult
from lspd.ops.per_workspace import PerWorkspace
from lspd.workspace import Workspace

Again = dict[str, tuple[DiagnosticsResult, FileSeen]]  # by path: the result now, a 2nd sample
KEEP_REVISIONS = 4  # results of other commits than HEAD's kept in memory (also saved)
# "0": the daemon keeps no result in the background and one file's baseline compares two
# states; a whole question (`check --baseline`) still makes its baseline's result when asked.
SWITCH = "LSPD_KEEP_COMMITTED"


def enabled() -> bool:
    """Whether the daemon keeps HEAD's result in the background (and one file's baseline,
    the hook and the stop gate read it)."""
    return os.environ.get(SWITCH, "1") != "0"


@dataclass
class CommittedMemory:
    """The kept result of a workspace, and how many committed states it checked."""

    state: KeptState | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    made: int = 0  # committed states made by checking (not read back from a file)
    moved: tuple[str, str] | None = None  # HEAD's last move under a kept result: from, to
    revisions: dict[StateKey, KeptState] = field(default_factory=dict)  # other commits'
    # Per kept result made while the tree was dirty: its files' second sample at the disk's
    # text, beside the work tree's result it stands with (`ops/committed._again`).
    again: dict[StateKey, Again] = field(default_factory=dict)


_memories = PerWorkspace(CommittedMemory)


def memory_of(ws: Workspace) -> CommittedMemory:
    """The kept result's memory of `ws`."""
    return _memories.of(ws)


def kept_folder(ws: Workspace) -> Path:
    """Where a workspace's kept results are saved."""
    return ws.log_dir.parent / "kept"  # beside its logs: the state directory in a daemon


def seen_of(result: DiagnosticsResult, lines: list[str]) -> FileSeen:
    """A file's result as the engine keeps it, its snippets read from `lines`."""
    return FileSeen(
        result.path,
        tuple(
            Seen(
                d.severity,
                d.code,
                d.message,
                d.line,
                d.column,
                d.end_line,
                d.end_column,
                d.source,
                snippet(lines, d.line, d.column, d.end_column),
            )
            for d in result.diagnostics
        ),
    )


def diagnostic_of(path: str, seen: Seen) -> Diagnostic:
    """A kept diagnostic as an answer lists it (with its file)."""
    fields = asdict(seen)
    del fields["snippet"]
    return Diagnostic.model_validate({**fields, "path": path})


def found_of(file: FileSeen) -> list[Found[Diagnostic]]:
    """A file's diagnostics as compared: errors first, then by position (as `diagnose`)."""
    ordered = sorted(file.diagnostics, key=lambda d: (d.severity != "error", d.line, d.column))
    return [Found(diagnostic_of(file.path, s), key(file.path, s)) for s in ordered]


def found_in(result: DiagnosticsResult, text: str | None) -> list[Found[Diagnostic]]:
    """A result's diagnostics as compared, their snippets read from `text` (the file's)."""
    return found_of(seen_of(result, (text or "").splitlines()))
