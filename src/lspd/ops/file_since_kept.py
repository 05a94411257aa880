"""`diagnostics PATH --baseline HEAD|session`: the file now against its kept diagnostics once
HEAD's result is kept for this commit, configuration and toolchain (`lspd.ops.committed`
makes it; this reads it only, so the file question does not import the check engine's
runs); else (not kept yet, or a file the gate's result lacks) against its state with the
changed files' baseline texts held (`ops/file_since_baseline.py`, which asks this first).
A file deleted since the baseline is answered as `check --baseline` answers it
(`deleted_now`): none of its diagnostics now, all of its baseline's fixed, the file among
the changed ones. Both comparisons share one question's reading (`Question`, `Asked`): git
is asked once a question (the commit, one listing, the changed files' texts at it; the
configurations then once). Before, a question resolved the commit four to five times and
listed the changes twice (9-10 git runs for one changed file, where 4 say it)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.comparison import Again, Found
from lspd.engine.kept import config_key
from lspd.engine.kept_memory import configs_at, enabled, memory_of
from lspd.engine.mypy_gate import unversioned
from lspd.engine.mypy_project import by_project
from lspd.engine.named import Named
from lspd.engine.program_data import data_delta
from lspd.engine.renames import renames
from lspd.engine.revisions import Delta, Listing, differences, listing
from lspd.engine.stops import Stop
from lspd.ops.changes import compare
from lspd.ops.kept_found import Item, found_in, found_of
from lspd.ops.models import Changes, DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope


async def deleted_now(
    ws: Workspace, path: str, content: str | None, baseline: str
) -> DiagnosticsResult | None:
    """`diagnostics PATH --baseline` of a file deleted since `baseline`: its result now,
    empty (no server answers a file that is not there), for `file_page` to compare with its
    baseline state: every old diagnostic fixed and the file changed, as `check --baseline`
    has it (c5da83d). Before, the question was refused ("does not exist; send the path of
    an existing file") while `check --baseline HEAD PATH` answered it. None when the file
    is on disk, `content` is sent, no server handles it, or the baseline lacks it too (the
    missing file's error stands), and where mypy alone judges it (its run of the project
    answers a file that is gone: none of its errors now, as it answered before)."""
    resolved = ws.resolve(path)
    if content is not None or resolved.exists() or ws.handler(resolved) is None:
        return None
    delta = await asyncio.to_thread(differences, ws, baseline)
    if delta.before.get(resolved) is None:
        return None
    projects = by_project(ws, [resolved])
    if projects and not any(p.pyright_judges(resolved) for p in projects):
        return None  # mypy alone: its run of the project answers a deleted file (none)
    session = ws.session_for(resolved)
    return DiagnosticsResult(
        path=ws.display(resolved),
        server=session.name,
        toolchain=session.toolchain,
        errors=0,
        warnings=0,
        total=0,
    )


@dataclass
class Question:
    """What one question read of git: the baseline as named, the files differing from it
    with both texts (`delta`, from one listing), and the configurations differing at it
    (`then`, read at the first step needing them)."""

    asked: Named
    listed: Listing | None
    delta: Delta
    read: dict[Path, str | None] | None = None

    @property
    def baseline(self) -> str:
        return self.asked.baseline

    async def then(self, ws: Workspace) -> tuple[list[Path], dict[Path, str | None]]:
        """The configurations the gate reads, and those differing at the baseline's commit
        with their texts there (`configs_at`; the session's as it began)."""
        configs = [p for p, _ in (await gate_scope(ws)).read]
        if self.read is None:
            at = functools.partial(configs_at, ws, self.asked.commit, configs, self.listed)
            self.read = await asyncio.to_thread(at)
        return configs, self.read


async def read_question(ws: Workspace, asked: Named) -> Question:
    """git's listing against the commit `asked` names (none for `session`), and the files
    it lists with their texts then and now (`differences`, `data_delta`)."""
    top = asked.top
    listed = None if top is None else await asyncio.to_thread(listing, ws, asked.commit, top)
    delta = await asyncio.to_thread(differences, ws, asked.baseline, listed)
    return Question(asked, listed, await data_delta(ws, delta))


async def file_since_committed(
    ws: Workspace, path: Path, now: DiagnosticsResult, question: Question, asked: Asked
) -> Changes | None:
    """`diagnostics PATH --baseline`: the file now (`now`: all its diagnostics; `asked`: as
    compared) against its kept result; None when that is not kept for the baseline
    (`question`: HEAD's commit now, or `session`), for this configuration and the server
    and toolchain answering the file now, or for this file (not in the gate's files then):
    the engine's comparison of the file answers then (`file_since_baseline`). The baseline
    names HEAD's commit, another commit whose result a whole question kept (`--baseline
    HEAD~1`), or `session`. `asked.stops`: the checkers that stopped at a syntax error
    answering `now` (tsc's, mypy's): the kept errors they did not check are not fixed
    (`Changes.stopped`), as `check --baseline` has them; the kept result's own stops
    (`KeptState.stopped`): what the baseline's checker did not check is not introduced
    (`Changes.baseline_stopped`)."""
    if ws.changes_seen is None or not enabled():
        return None
    commit, baseline, delta = question.asked.commit, question.baseline, question.delta
    memory = memory_of(ws)
    states = [memory.state, memory.session, *memory.revisions.values()]
    state = next((s for s in states if s is not None and s.key.commit == commit), None)
    if state is None:
        return None
    renamed: dict[str, str] = {}
    if (kept := state.files.get(now.path)) is None:  # renamed since: its old path's result
        renamed = _renamed_to(ws, delta, path)
        kept = next((state.files.get(old) for old in renamed), None)
    if kept is None:
        return None
    if (now.server, now.toolchain) not in state.servers:
        return None  # another server or toolchain answers the file now than made the result
    configs, at = await question.then(ws)
    configs = [*configs, *await asyncio.to_thread(unversioned, ws, await gate_scope(ws), commit)]
    if await asyncio.to_thread(config_key, configs, at) != state.key.config:
        return None  # made again at the next whole question (`committed`)
    note = f"this file{gone(path, asked.text, baseline)}, against the kept result of {commit[:12]}"
    note += "".join(f"; renamed: {old} -> {new}" for old, new in renamed.items())
    # what the baseline's checker did not check is not new (its stops), save what its
    # text there rules out (`changes._unseen`)
    old = ws.resolve(next(iter(renamed), now.path))  # its path at the baseline
    then = delta.before[old] if old in delta.before else read_text(path)  # unchanged: disk's
    return asked.against(
        found_of(kept), note, renamed=renamed, before_stops=state.stopped, then={now.path: then}
    )


@dataclass(frozen=True)
class Asked:
    """The file now as both comparisons have it: its text (None: deleted), its diagnostics,
    the changed files, and the stops of the checkers that answered it (`stops`)."""

    text: str | None
    after: list[Found[Item]]
    baseline: str
    changed: list[str]
    stops: Sequence[Stop]

    def against(
        self,
        before: list[Found[Item]],
        note: str,
        again: Again[Item] | None = None,
        renamed: dict[str, str] | None = None,
        before_stops: Sequence[Stop] = (),
        then: dict[str, str | None] | None = None,
    ) -> Changes:
        """The file now against `before` (`compare`; `then`: its text at the baseline)."""
        changed, stops = self.changed, self.stops
        return compare(
            before, self.after, self.baseline, changed, note, again, stops, renamed,
            before_stops, then,
        )  # fmt: skip


def asked_now(
    ws: Workspace,
    path: Path,
    now: DiagnosticsResult,
    content: str | None,
    question: Question,
    stops: Sequence[Stop],
) -> Asked:
    """The file now (`now`; its text `content` when given, else the disk's), beside the
    files changed since the baseline."""
    delta = question.delta
    text = content if content is not None else read_text(path)
    changed = [ws.display(p) for p in sorted({*delta.before, *delta.after})]
    return Asked(text, found_in(now, text), question.baseline, changed, stops)


def _renamed_to(ws: Workspace, delta: Delta, path: Path) -> dict[str, str]:
    """The file `path` was renamed from since the baseline (`delta`; `engine/renames.py`),
    as shown: {old: new}; empty when it was not."""
    moved = renames(delta.before, delta.after)
    return {ws.display(old): ws.display(new) for old, new in moved.items() if new == path}


def gone(path: Path, text: str | None, baseline: str) -> str:
    """Said of a file deleted since `baseline` (no text now)."""
    return f" (deleted since {baseline}: its diagnostics there are fixed)" if text is None else ""
