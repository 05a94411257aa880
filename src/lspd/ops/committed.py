"""The committed state's result, kept (`lspd.engine.kept`): the gate's files as they are at
HEAD, checked once per commit, toolchain and configuration, then read by every baseline
question instead of checking the old texts again.

With a clean work tree the whole check (`check_all`) is HEAD's result: it is kept as it is,
never checked a second time. With a dirty one the changed files are held at their HEAD text
and only they and the files naming what changed are asked in that state (today's
`dependents`); every other file's result is the work tree's check's. The `session`
baseline's result is made the same way at its first question (the files changed since
lspd first read them held at that text), kept in memory only, for the daemon's life.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from lspd.engine.dependents import dependents
from lspd.engine.kept import KeptState, StateKey, config_key, load, save, toolchain_key
from lspd.engine.revisions import Delta, differences, revision
from lspd.engine.seen import FileSeen, Seen, snippet
from lspd.ops.changes import diagnose
from lspd.ops.check_models import not_answered
from lspd.ops.checked import Checked
from lspd.ops.models import Diagnostic, DiagnosticsResult
from lspd.ops.per_workspace import PerWorkspace
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope

log = logging.getLogger(__name__)

SWITCH = "LSPD_KEEP_COMMITTED"  # "0": no kept result; baselines compare two states as before


def enabled() -> bool:
    """Whether baselines read the kept result (and the daemon keeps it in the background)."""
    return os.environ.get(SWITCH, "1") != "0"


Whole = Callable[[], Awaitable[Checked]]  # the work tree's whole check of the gate (`check_all`)


class NotKept(Exception):
    """The committed state's result cannot be made now (a file was not answered)."""


@dataclass
class CommittedMemory:
    """The kept result of a workspace, and how many committed states it checked."""

    state: KeptState | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    made: int = 0  # committed states made by checking (not read back from a file)
    moved: tuple[str, str] | None = None  # HEAD's last move under a kept result: from, to


_memories = PerWorkspace(CommittedMemory)


def memory_of(ws: Workspace) -> CommittedMemory:
    """The kept result's memory of `ws`."""
    return _memories.of(ws)


@dataclass(frozen=True)
class Committed:
    """The kept result of the committed state, the work tree's check it was read beside,
    and the files differing from it."""

    state: KeptState
    checked: Checked
    delta: Delta
    note: str  # how it was had: kept, read back, checked (and HEAD moved, when it did)


def kept_folder(ws: Workspace) -> Path:
    """Where a workspace's kept results are saved."""
    return ws.log_dir.parent / "kept"  # beside its logs: the state directory in a daemon


async def committed(ws: Workspace, baseline: str, whole: Whole) -> Committed:
    """The kept result of `baseline` (HEAD's commit, or `session`), made now unless kept
    for this commit, toolchain and configuration; `whole` checks the work tree. The caller
    holds the gate exclusively (the HEAD texts of a dirty tree are held while asked)."""
    memory = memory_of(ws)
    async with memory.lock:  # a question asked while it is made waits for it
        commit = await asyncio.to_thread(revision, ws, baseline)
        if commit is None:
            raise ValueError(f"{baseline!r} names no commit")  # the caller checked it
        checked = await whole()
        delta = await asyncio.to_thread(differences, ws, baseline)
        key = await _key(ws, commit, checked)
        state, note = memory.state, "kept"
        if commit == "session":  # the first check stands for the session, whatever came since
            fresh = state is not None and state.key.commit == "session"
        else:
            fresh = state is not None and state.key == key
            if not fresh and state is not None and state.key.commit not in (commit, "session"):
                memory.moved = (state.key.commit, commit)
            state, note = (state, note) if fresh else (load(kept_folder(ws), key), "read back")
        if not fresh and state is None:
            state, note = await _made(ws, key, checked, delta), "checked"
            memory.made += 1
            if commit != "session":
                await asyncio.to_thread(save, kept_folder(ws), state)
        if memory.moved is not None and memory.moved[1] == commit and state is not None:
            was, now = memory.moved  # said while it stands, also when made in the background
            note += f"; HEAD moved from {was[:12]} to {now[:12]}: its result made again"
        assert state is not None
        memory.state = state
        return Committed(state, checked, delta, note)


async def _key(ws: Workspace, commit: str, checked: Checked) -> StateKey:
    servers = [(r.server, r.toolchain) for r in checked.results]
    configs = [path for path, _ in (await gate_scope(ws)).read]
    return StateKey(commit, toolchain_key(servers), await asyncio.to_thread(config_key, configs))


async def _made(ws: Workspace, key: StateKey, checked: Checked, delta: Delta) -> KeptState:
    """The committed state's result: the work tree's check where the files are the same,
    the changed files and those naming what changed asked with their committed text held."""
    if not_answered(checked.skipped):
        raise NotKept("the check left files not answered: no committed result is kept")
    gate = set((await gate_scope(ws)).files)
    before = {p: t for p, t in delta.before.items() if p in gate}
    after = {p: t for p, t in delta.after.items() if p in gate}
    files = {r.path: r for r in checked.results}
    asked: list[Path] = []
    if before:
        named, _ = await asyncio.to_thread(dependents, ws, before, after, True)
        asked = sorted({*before, *(p for p in named if p in gate)})
        for path in asked:
            files.pop(ws.display(path), None)
    seen = await asyncio.to_thread(_seen_all, ws, list(files.values()), {})
    if asked:
        then = await diagnose(ws, asked, before)
        texts = {ws.display(p): t for p, t in before.items()}
        seen |= await asyncio.to_thread(_seen_all, ws, then.results, texts)
    log.info("kept the result of %s: %d files, %d asked at it", key.commit, len(seen), len(asked))
    servers = frozenset((r.server, r.toolchain) for r in checked.results)
    return KeptState(key, seen, time.time(), len(asked), servers)


def _seen_all(
    ws: Workspace, results: list[DiagnosticsResult], texts: dict[str, str | None]
) -> dict[str, FileSeen]:
    """Each result as the engine keeps it (its snippets read from `texts`, or the disk)."""
    kept: dict[str, FileSeen] = {}
    for result in results:
        lines: list[str] = []
        if result.diagnostics:
            path = result.path
            text = texts[path] if path in texts else read_text(_absolute(ws, path))
            lines = (text or "").splitlines()
        kept[result.path] = seen_of(result, lines)
    return kept


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


def _absolute(ws: Workspace, shown: str) -> Path:
    """The file an answer's path names (relative to the root, or absolute outside it)."""
    path = Path(shown)
    return path if path.is_absolute() else ws.root / path
