"""The committed state's result, kept (`engine/kept.py`): the gate's files as they are at
HEAD, checked once per commit, toolchain and configuration, then read by every baseline
question instead of checking the old texts again.

With a clean work tree the whole check is HEAD's result (`kept.standing`); with a dirty
one, the preview of the changed files' HEAD texts (`engine/overlaid_state.py`), every other
file's result the work tree's check's. The `session` baseline's result is made the same way
at its first question (the files changed since lspd first read them, at that text), kept
in memory only, for the daemon's life.

The results are the caller's (`engine/results.py`: the whole check `C`, its files' results
`R`, made by `Held`); what is kept of them is the engine's own (`engine/seen.py`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Generic, TypeVar

from lspd.engine.builders import library_file
from lspd.engine.check_files import NOT_ANSWERED
from lspd.engine.check_state import CheckState
from lspd.engine.committed_notes import edited, retooled
from lspd.engine.committed_seen import seen_all
from lspd.engine.config_stops import files_gone, files_named
from lspd.engine.configured import Unconfigured
from lspd.engine.configured_parts import Disk, parts_state
from lspd.engine.kept import (
    KeptState,
    StateKey,
    config_key,
    environments_of,
    load,
    save,
    standing,
    stands_for,
    toolchain_key,
)
from lspd.engine.kept_memory import (
    KEEP_REVISIONS,
    Again,
    CommittedMemory,
    configs_at,
    kept_folder,
    memory_of,
)
from lspd.engine.mypy_gate import gate_then, unversioned
from lspd.engine.named import Named, named
from lspd.engine.overlaid_state import Held, overlaid_state
from lspd.engine.program_data import DataNotChecked, data_changed, data_delta, data_then
from lspd.engine.results import FileResult, WholeCheck
from lspd.engine.revisions import Delta, Listing, differences, listing, revision
from lspd.engine.second_sample import disk_again
from lspd.engine.stops import Stop
from lspd.errors import LspdError
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import GateScope, gate_scope

log = logging.getLogger(__name__)

ATTEMPTS = 3  # whole checks a question makes while the files keep changing under it, at most
C = TypeVar("C", bound=WholeCheck)  # the caller's whole check (`ops`: `Checked`)
R = TypeVar("R", bound=FileResult)  # the caller's result of a file (`DiagnosticsResult`)
Found = Listing | None  # git's listing against the commit, read once a question (`revisions`)
Then = dict[Path, str | None]  # the configurations differing at the commit, their texts there


class NotKept(LspdError):
    """The committed state's result cannot be made now (a file was not answered)."""


class Unsettled(NotKept):
    """The files changed while the committed state's result was made: made again soon."""


@dataclass
class Attempts:
    """The whole checks a question may still make while the files keep changing under it:
    one budget for `committed`'s retries and its caller's (`ops/since_kept.settled`, which
    checks again when a file changed before its texts were read), so a question holding
    the gate makes `ATTEMPTS` checks at most, not the product of the two (9, before)."""

    left: int = ATTEMPTS


@dataclass(frozen=True)
class Run(Generic[R]):
    """The engine's run with texts held: the caller's results (`Held`), and what its checks
    saw of the files (`CheckState`)."""

    held: Held[R]
    memory: CheckState[R]


@dataclass(frozen=True)
class Committed(Generic[C]):
    """The kept result of the committed state, the work tree's check it was read beside,
    and the files differing from it."""

    state: KeptState
    checked: C
    delta: Delta
    note: str  # how it was had: kept, read back, checked (and HEAD moved, when it did)
    again: Again = field(default_factory=dict)  # the disk's second sample (`disk_again`)
    edited: str = ""  # the configurations edited since it, when some were (`_edited`)
    then: Then = field(default_factory=dict)  # those configurations' texts at it (`_key`)
    moved: bool = False  # its note says HEAD moved (until an answer said it: `said_moved`)


async def committed(
    ws: Workspace,
    baseline: str,
    whole: Callable[[], Awaitable[C]],
    held: Held[R],
    checks: CheckState[R],
    attempts: Attempts | None = None,
    known: Named | None = None,
) -> Committed[C]:
    """The kept result of `baseline` (a commit, or `session`), made now unless kept for
    this commit, toolchain and configuration; `whole` checks the work tree, `held` and
    `checks` are the engine's run with texts held (`engine/overlaid_state.py`). The work
    tree is checked again while a file changes under its check, as `attempts` (the
    caller's budget, shared with its own retries) allows: once at least. `known`: what the
    question found `baseline` names (`engine/named.py`), else asked here. The caller holds
    the gate exclusively (the old texts of a dirty tree are held while asked)."""
    run = Run(held, checks)
    tries = Attempts() if attempts is None else attempts
    memory = memory_of(ws)
    async with memory.lock:  # a question asked while it is made waits for it
        commit, top = (asked := await named(ws, baseline, known)).commit, asked.top  # or refused
        head = commit if baseline == "HEAD" else await asyncio.to_thread(revision, ws, "HEAD")
        while True:  # the check and the texts of one disk state
            tries.left -= 1
            # The check catches up with the watcher first (`whole_check`): the changes it
            # counted then are the mark (a catch-up of its own here before made two round
            # trips back to back, 20-30 ms each at load 10).
            checked = await whole()
            mark = None if checked.changes < 0 else checked.changes
            found = None if top is None else await asyncio.to_thread(listing, ws, commit, top)
            delta = await asyncio.to_thread(differences, ws, baseline, found)
            delta = await data_delta(ws, delta)  # the JSON files a program reads alone
            if mark is None or ws.changes_seen == mark or tries.left <= 0:
                break
            log.info("files changed while the check for %s ran: checked again", commit[:12])
        key, then = await _key(ws, commit, checked, found)
        if commit not in (head, "session"):  # another revision: kept beside HEAD's
            return await _revision(ws, key, then, checked, delta, run)
        before = memory.session if commit == "session" else memory.state
        state, note = await _kept(ws, memory, key, None if delta.after or then else checked.results)
        if state is None:
            _settled(ws, mark, commit)
            state, note = await made_state(ws, key, then, checked, delta, run), "checked"
            _settled(ws, mark, commit)
            if commit == "session":
                await asyncio.to_thread(_first_read, ws, checked)
            memory.made += 1
            note += await retooled(before, state, kept_folder(ws))
            if commit != "session" and not state.unmade_under:  # a part not made: not kept
                await asyncio.to_thread(save, kept_folder(ws), state)
        note += (moved := _moved(memory, commit))
        if commit == "session":
            memory.session = state
        else:
            memory.state = state
            await _session_start(ws, memory, checked, run)
        found_now = Committed(
            state, checked, delta, note, edited=edited(ws, key), then=then, moved=bool(moved)
        )
        return _found(memory, found_now)


def _moved(memory: CommittedMemory, commit: str) -> str:
    """HEAD's move under the kept result, while no answer said it (`said_moved`)."""
    if memory.moved is None or memory.moved[1] != commit or memory.moved_said:
        return ""
    was, now = memory.moved
    return f"; HEAD moved from {was[:12]} to {now[:12]}: its result made again"


def said_moved(ws: Workspace, found: Committed[C]) -> None:
    """An answer said HEAD's move (`found.note` holds it): no later one says it again, the
    result made again by a question or before in the background. Before, every answer
    reading that result said it ('its result made again' on a result kept for hours). Only
    an answer that shows the note marks it: the hooks' and the turn start's comparisons
    show none, and had they marked it, the agent's next `check --baseline` would not say it."""
    memory = memory_of(ws)
    if found.moved and memory.moved is not None and memory.moved[1] == found.state.key.commit:
        memory.moved_said = True


def _first_read(ws: Workspace, checked: WholeCheck) -> None:
    """The gate's files, first seen at the text the session's result is made of: one no
    server of lspd opened (the TypeScript builder, tsc, mypy read the disk) was never seen,
    so its edit was no change since the session, and the hook said nothing of its error."""
    for result in checked.results:
        path = ws.resolve(result.path)
        if path not in ws.first_seen and (text := read_text(path)) is not None:
            ws.first_seen[path] = text


async def _session_start(ws: Workspace, memory: CommittedMemory, checked: C, run: Run[R]) -> None:
    """The session's result, made at the daemon's first whole question when none is yet (the
    background makes it at its first check otherwise): the disk's state then, the files
    changed since lspd first read them at that text. Before, a HEAD question asked first
    left none, and the session's first question, after the edits, made it of them."""
    if memory.session is not None or ws.changes_seen is None:
        return
    since = await data_delta(ws, await asyncio.to_thread(differences, ws, "session"))
    try:
        key, then = await _key(ws, "session", checked, None)
        memory.session = await made_state(ws, key, then, checked, since, run)
        await asyncio.to_thread(_first_read, ws, checked)
    except NotKept as exc:  # a file not answered: made at the session's first question
        log.info("the session's result was not kept (%s)", exc)


async def _kept(
    ws: Workspace, memory: CommittedMemory, key: StateKey, clean: Sequence[FileResult] | None
) -> tuple[KeptState | None, str]:
    """The result kept for `key` (HEAD's or the session's), and how it was had; None: it
    must be made (`clean`: the work tree's check where it is the commit's, `kept.standing`).
    The session's is its own (`CommittedMemory.session`), made at its first question and
    standing for the daemon's life whatever HEAD does: before, HEAD's and the session's
    shared one slot, so the session was answered with HEAD's result once HEAD's was kept
    (in the background, at the daemon's start and after each commit), and a commit of the
    session's work made its errors old."""
    if key.commit == "session":  # made again by another toolchain (its texts are known)
        session = memory.session
        return (session, "kept") if session is None or session.key == key else (None, "")
    state = memory.state
    if state is not None and await asyncio.to_thread(state.stands, key):
        return standing(state, clean), "kept"
    if state is not None and state.key.commit != key.commit:
        memory.moved, memory.moved_said = (state.key.commit, key.commit), False
    # SQLAlchemy's 84,000 diagnostics: ~1 s of JSON, off the loop
    return standing(await asyncio.to_thread(load, kept_folder(ws), key), clean), "read back"


async def unchanged(ws: Workspace, mark: int) -> bool:
    """Whether no file changed since the watcher's count `mark` (a check's): every change
    made before this call counted first (the watcher's catch-up), so texts read before it
    are the ones that check saw. True without a watcher (a one-shot call: nothing tells)."""
    if ws.watcher is None or ws.changes_seen is None:
        return True
    await ws.watcher.catch_up()
    return ws.changes_seen == mark


def _settled(ws: Workspace, mark: int | None, commit: str) -> None:
    """Raises Unsettled when the files changed since `mark`: a result read beside texts of
    another state (an edit made and undone while the check ran) would hold snippets of the
    wrong lines for good."""
    if mark is not None and ws.changes_seen != mark:
        raise Unsettled(
            f"the files changed while the result of {commit[:12]} was made; "
            "ask again once the edits settle"
        )


async def _revision(
    ws: Workspace, key: StateKey, then: Then, checked: C, delta: Delta, run: Run[R]
) -> Committed[C]:
    """The kept result of a commit other than HEAD's (`--baseline HEAD~1`, a tag, a sha):
    kept in memory and saved as HEAD's is, made once per commit, toolchain and
    configuration (the engine's preview of that commit's texts over the work tree)."""
    memory = memory_of(ws)
    state, note = memory.revisions.get(key), "kept"
    if state is not None and not await asyncio.to_thread(state.stands, key):
        state = None  # a part not made: the configurations were edited again since
    if state is None:
        state, note = await asyncio.to_thread(load, kept_folder(ws), key), "read back"
    if state is None:
        state, note = await made_state(ws, key, then, checked, delta, run), "checked"
        memory.made += 1
        if not state.unmade_under:
            await asyncio.to_thread(save, kept_folder(ws), state)
    memory.revisions.pop(key, None)  # the newest last
    memory.revisions[key] = state
    while len(memory.revisions) > KEEP_REVISIONS:
        del memory.revisions[next(iter(memory.revisions))]
    return _found(memory, Committed(state, checked, delta, note, then=then))


def _found(memory: CommittedMemory, found: Committed[C]) -> Committed[C]:
    """`found` with its second sample, the samples of results no longer kept dropped."""
    kept = {found.state.key, *memory.revisions}
    if memory.session is not None:
        kept.add(memory.session.key)
    memory.again = {k: a for k, a in memory.again.items() if k in kept}
    return replace(found, again=memory.again.get(found.state.key, {}))


async def _key(
    ws: Workspace, commit: str, checked: WholeCheck, found: Found
) -> tuple[StateKey, Then]:
    """What `commit`'s kept result is valid for: the toolchain answering now, and the
    configurations as they are at `commit` (`configs_then`): a configuration edited since
    (tsconfig.json's noUnusedParameters, mypy's warn_unreachable) leaves the key as it was,
    so the result kept under the committed configuration is the one compared with. Before,
    the key was the disk's configuration: after such an edit the result of HEAD was made
    again under the new one, and every error it introduced was 'unchanged'. With it, the
    configurations that differ at `commit` and their texts there (`configs_at`), read once
    a question: `made_state` and the comparison's note (`Committed.then`) take them."""
    servers = [(r.server, r.toolchain) for r in checked.results]
    scope = await gate_scope(ws)
    configs = [path for path, _ in scope.read]
    then = await asyncio.to_thread(configs_at, ws, commit, configs, found)
    keyed = [*configs, *await asyncio.to_thread(unversioned, ws, scope, commit)]  # `mypy_gate`
    config = await asyncio.to_thread(config_key, keyed, then)
    toolchain = toolchain_key(servers, environments_of(ws))  # packages, .pth files too
    return StateKey(commit, toolchain, config, tuple(sorted(then))), then


async def made_state(
    ws: Workspace, key: StateKey, then: Then, checked: WholeCheck, delta: Delta, run: Run[R]
) -> KeptState:
    """The committed state's result: the engine's run with the changed files' committed
    texts overlaid on the work tree's check (`overlaid_state`, as a preview: a file deleted
    since comes back, a new one is absent), the work tree's check where the engine would
    check nothing again (a turn's start's too: `ops/turn_configured.py`). `then`: the
    configurations differing at the commit, as `_key` read them (once a question)."""
    if missing := [s for s in checked.skipped if s.reason.startswith(NOT_ANSWERED)]:
        named = ", ".join(s.path for s in missing[:3]) + (", ..." if len(missing) > 3 else "")
        raise NotKept(
            f"the check left {len(missing)} file(s) not answered ({named}), so no result of "
            f"{key.commit[:12]} is kept to compare with; ask again (a server that keeps "
            "failing: `lspd status`)"
        )
    scope = await gate_scope(ws)
    now = set(scope.files)  # the gate in the commit's texts: mypy's follows its imports
    gate = await asyncio.to_thread(gate_then, ws, scope, delta.before)
    gone = {p for p, t in delta.after.items() if t is None}  # deleted since: they come back
    taken = gate | gone  # the files whose results HEAD's state takes at its texts
    texts = {p: t for p, t in delta.before.items() if p in taken or p in now}
    left = {ws.display(p) for p in now - gate}  # not the commit's gate: its state lacks them
    files = {r.path: r for r in checked.results if r.path not in left}
    made: dict[Path, FileResult] = {}
    stops = _stops_kept(ws, checked.stopped, texts)
    on_disk = {ws.resolve(r.path) for r in checked.results}
    if key.edited:  # each checker's part under the commit's configuration, where sound
        work = Disk(files, checked.stopped, on_disk)
        try:
            parts = await parts_state(ws, key, scope, then, delta, work, run.held, run.memory)
        except Unconfigured as error:
            raise NotKept(str(error)) from error
        made, files, stops = parts.made, parts.files, parts.stops
        memory_of(ws).again[key] = await disk_again(ws, checked, parts.asked, made, run.held)
    elif texts:
        for path in texts:
            files.pop(ws.display(path), None)
        state = await overlaid_state(ws, texts, on_disk, run.held, run.memory)
        made = {p: r for p, r in state.results.items() if p in taken or library_file(ws, p)}
        files.update((r.path, r) for r in made.values())
        stops += state.stopped  # HEAD's texts' own stops, of what was checked with them
        memory_of(ws).again[key] = await disk_again(ws, checked, state.asked, made, run.held)
    back = _tsc_configs(ws, scope, checked, gone, delta)  # their TS6053 at one side
    if (data := data_changed(ws, delta.before) + back) and not key.edited:
        # A JSON module a program reads: tsc -p's answer on a copy holding HEAD's texts.
        held = {**texts, **{p: delta.before[p] for p in data if p in delta.before}}
        for config in back:
            files.pop(ws.display(config), None)  # its errors at the commit are tsc's there
        try:
            tsc, stops = await data_then(ws, held, data, gate, run.held, stops)
        except DataNotChecked as error:
            what = f"no result of {key.commit[:12]} with its {data[0].name}: {error}"
            raise NotKept(what) from error
        made.update(tsc)
        files.update((r.path, r) for r in tsc.values())
    shown = {ws.display(p): t for p, t in texts.items()}
    seen = await asyncio.to_thread(seen_all, ws, list(files.values()), shown)
    log.info("kept the result of %s: %d files, %d made at it", key.commit, len(seen), len(made))
    servers = frozenset((r.server, r.toolchain) for r in checked.results)
    return KeptState(key, seen, time.time(), len(made), servers, (*stops,), stands_for(key, stops))


def _tsc_configs(
    ws: Workspace, scope: GateScope, checked: WholeCheck, gone: set[Path], delta: Delta
) -> list[Path]:
    """The tsconfigs whose program at the commit is tsc's on a copy: a `files` entry deleted
    since (the work tree's check said its TS6053) or made since (tsc said TS6053 there)."""
    configs = (p.config for p in scope.projects if p.language == "typescript" and p.config)
    made = {p for p, t in delta.before.items() if t is None}
    return files_gone(ws, checked.results, gone) + files_named(map(ws.resolve, configs), made)


def _stops_kept(ws: Workspace, disk: Sequence[Stop], texts: Mapping[Path, object]) -> list[Stop]:
    """The work tree's check's stops that stand at the committed state: those of a program
    or project holding none of the files held at their committed texts (`texts`), which is
    not checked again with them and whose result is the work tree's (so its stop is, too).
    A stopped program holding one is checked again at the committed texts: its stop there,
    if any, is that run's (`OverlaidState.stopped`)."""
    held = {ws.display(p) for p in texts}
    return [stop for stop in disk if not stop.files & held]
