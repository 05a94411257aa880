"""What the work tree held against the baseline when an agent's turn began (`Before`), taken
soundly after the turn's first edits (`daemon/feedback.py` takes it in the background).

At the turn's start only what is cheap is read (`record`): the baseline's commit, the files
differing from it and their texts then (few, read at once, in one disk state: the watcher's
count the same before and after). The errors of that state take a whole check, seconds to
minutes on a real project, and an agent's first edit often lands within them; before, such
a `Before` was dropped and the stop gate blocked the agent for errors an earlier turn made.
Now (`held_then`) the work tree's comparison with the baseline's kept result stands for
every file the turn cannot have changed the diagnostics of, and the engine's run with the
files changed since the turn began held at their texts then (`ops/overlaid_state.py`, as a
preview: the recorded text of one that differed, the commit's of one that did not, a file
made in the turn absent) says the others: its errors against the kept result are the turn's
start's. A file whose text is its text then (touched: its mtime moved, its bytes the same)
is no change. A daemon started mid-turn reads the start its predecessor kept
(`daemon/turns.py`, `kept`) and finds the files changed since by their content
(`changed_since`: no watcher of its own saw them). A configuration changed in the turn in
what a checker reads of it, or a JSON a program reads: the turn's start is made as HEAD's
state under HEAD's configuration is (`ops/turn_configured.py`). Where that cannot be sound
(a part of that state the engine cannot make, a file made in the turn that git ignores, a
source file written since the turn began that the watcher did not see and whose text then
is not known or not its text now, a `session` baseline, no watcher, the files never
settling) nothing is set aside, and the stop gate says so.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.committed import Committed, unchanged
from lspd.engine.comparison import Found
from lspd.engine.config_parts import same_settings
from lspd.engine.overlaid_state import OverlaidState
from lspd.engine.revisions import (
    at_commit,
    committed_alike,
    git,
    is_configuration,
    listing,
    program_data,
)
from lspd.errors import LspdError
from lspd.ops import progressive_kept
from lspd.ops.beyond_gate import Part
from lspd.ops.check import check_all
from lspd.ops.checked import Checked
from lspd.ops.kept_found import Item, found_in, found_of
from lspd.ops.models import DiagnosticsResult
from lspd.ops.overlaid_state import overlaid_state
from lspd.ops.progressive import Before, Progress
from lspd.ops.since_kept import settled
from lspd.ops.turn_configured import Then, configured_then
from lspd.workspace import Workspace
from lspd.workspace.files import read_text, stamp

ATTEMPTS = 3  # reads of the turn's start, and comparisons, while files change under them
READ_S = 2.0  # the turn's start read at most this long (git's listing, the texts)
WATCH_S = 2.5  # a watcher starting (a daemon's first seconds) awaited at most this long
FIRST_AT_MOST = 20  # files whose findings `held_then` takes first (more: all at once)
_AGAIN = Before("")  # `_held`: the files changed under it, taken again
_WHOLE = Before("")  # `_held`: no part first (a state under a configuration: made once)


@dataclass(frozen=True)
class TurnStart:
    """The work tree against the baseline as a turn began: the watcher's count then, the
    baseline's commit, and the files differing from it with their texts then."""

    baseline: str
    commit: str
    changes: int
    texts: dict[Path, str | None]
    began_ns: int = 0  # wall clock, before the reading: a file written since is the turn's
    kept: bool = False  # read back from a daemon before this one (`changes` is not ours)


async def record(ws: Workspace, baseline: str) -> TurnStart | None:
    """The turn's start, read now; None where no later state can be replayed to it: no
    watcher (one starting is awaited: `WATCH_S` and `READ_S` within the prompt hook's 5 s),
    no commit (`session`), or the files kept changing while they were read."""
    watcher = ws.watcher
    if watcher is None or baseline == "session" or not await watcher.started(WATCH_S):
        return None
    for _ in range(ATTEMPTS):
        await watcher.catch_up()
        count, began = ws.changes_seen, time.time_ns()
        reading = asyncio.to_thread(_differing, ws, baseline)
        try:  # within the prompt hook's budget (`cli/hook.TURN_TIMEOUT_S`: 5 s)
            commit, texts = await asyncio.wait_for(reading, READ_S)
        except (LspdError, TimeoutError):  # not a repository or revision; a slow git
            return None
        await watcher.catch_up()
        if count is not None and ws.changes_seen == count:
            return TurnStart(baseline, commit, count, texts, began)
    return None


def _differing(ws: Workspace, baseline: str) -> tuple[str, dict[Path, str | None]]:
    """The baseline's commit, and the source files differing from it with their texts now."""
    commit, top = at_commit(ws, baseline)
    texts: dict[Path, str | None] = {}
    for name in listing(ws, commit, top).names:
        path = ws.root / name
        if _served(ws, path):
            texts[path] = read_text(path)
    return commit, texts


def _served(ws: Workspace, path: Path) -> bool:
    """Whether a file's text is one the gate's check reads (as `revisions.differences`)."""
    known = ws.handler(path) is not None or program_data(ws, path) or is_configuration(path)
    return known and not ws.ignore(path.parent)


def changed_since(ws: Workspace, start: TurnStart) -> list[Path]:
    """The files (as `_differing` lists them: git's, untracked ones too) whose text now is
    not their text as the turn began, compared by content: for a daemon that saw neither
    the turn's start nor the changes since (`start.kept`)."""
    _, now = _differing(ws, start.commit)
    then = start.texts
    changed = set(now) ^ set(then)  # one differing from the commit then or now, not both
    changed |= {p for p in set(now) & set(then) if now[p] != then[p]}
    return sorted(changed)


async def held_then(
    ws: Workspace,
    start: TurnStart,
    first: Callable[[], set[Path]] = set,
    part: Callable[[Before, frozenset[str]], None] = lambda _, __: None,
) -> Before | None:
    """What the work tree held against the baseline as the turn began (`start`), whatever
    changed since; None where that cannot be known soundly (the module's docstring).
    `first`: the files a hook waits to tell findings of (the session's edited ones); what
    they held is taken first (the run with the texts then asking them alone) and told
    (`part`: that `Before` and those files). trio after a cold restart: the late hook told
    its error once the whole run was over, 55-146 s after the edit."""
    async with ws.gate.shared():  # the check: other questions are answered meanwhile
        await check_all(ws)
    async with ws.gate.exclusive():  # the texts of the turn's start held
        for _ in range(ATTEMPTS):
            only = first()
            if 0 < len(only) <= FIRST_AT_MOST:
                if (early := await _held(ws, start, only)) is _AGAIN:
                    continue
                if early is None:
                    return None
                if early is not _WHOLE:
                    part(early, frozenset(ws.display(p) for p in only))
            if (whole := await _held(ws, start)) is not _AGAIN:
                return whole
    return None


async def _held(ws: Workspace, start: TurnStart, only: set[Path] | None = None) -> Before | None:
    """`held_then`'s one attempt (`_AGAIN`: files changed under it), of `only`'s findings."""
    whole = functools.partial(check_all, ws)
    found, part = await settled(ws, start.baseline, whole, lambda _: True, _none)
    progress = Progress(start.baseline, [])
    progressive_kept.fill(ws, progress, found, part, every=True)
    mark = found.checked.changes
    if start.kept:  # this daemon's watcher did not see the turn's changes
        since = await asyncio.to_thread(changed_since, ws, start)
    else:
        since = [p for p, n in ws.changed_at.items() if start.changes < n <= mark]
    then = await asyncio.to_thread(_texts_then, ws, start, since)
    if then is None:
        return None
    texts, state, configured = then.texts, None, None  # none changed: the work tree's
    # a configuration or a JSON module changed: a state under their texts then
    made = bool(then.configs) or any(ws.handler(p) is None for p in texts)
    if made and only is not None:  # its part costs what the whole does (tsc -p on a copy)
        return _WHOLE
    if made:
        configured = await configured_then(ws, start.commit, then, found, progress)
    elif texts:
        disk = {ws.resolve(r.path) for r in found.checked.results}
        state = await overlaid_state(ws, texts, disk, only)
    seen = {p for p, n in ws.changed_at.items() if n > start.changes}
    seen = set(since) if start.kept else seen  # compared by content, all of them
    missed = await asyncio.to_thread(_missed, ws, start, seen)
    if not await unchanged(ws, mark):  # every file written before counted first
        return _AGAIN
    if missed or (made and configured is None):  # a part of it the engine cannot make
        return None
    if configured is not None:
        before = configured
    elif state is None:
        keys = frozenset(i.key for i in progress.introduced)
        before = Before(start.baseline, keys, frozenset(progress.stop_keys))
    else:
        before = _replayed(ws, progress, found, part, texts, state)
    if only is None:
        return before
    shown = {ws.display(p) for p in only}  # their findings alone are known: no stop
    return Before(before.baseline, frozenset(k for k in before.found if k[0] in shown))


async def _none(_: Committed[Checked]) -> Part | None:
    return None  # no file outside the gate is compared


def _texts_then(ws: Workspace, start: TurnStart, changed: list[Path]) -> Then | None:
    """The texts, as the turn began, of the source files, JSON modules and configurations
    of `changed` (those the watcher saw change since, up to the comparison's count) whose
    text now is not that one (a file touched, its bytes the same, is no change; nor is a
    configuration whose texts configure the checkers alike: `config_parts.same_settings`);
    None when a file's text then is not known (`_then`)."""
    texts: dict[Path, str | None] = {}
    configs: dict[Path, str | None] = {}
    alike = _alike(ws, start, changed)  # written again alike (`sed -i` of every file)
    for path in changed:
        if not path.is_relative_to(ws.root) or path in alike:
            continue
        data = ws.handler(path) is None
        if data and not (program_data(ws, path) or is_configuration(path)):
            continue
        if not data and ws.ignore(path.parent):
            continue
        known, then = _then(ws, start, path)
        now = read_text(path)  # a configuration: read alike (a root `[project]` edited)
        if known and (same_settings(path, then, now, ws.root) if data else then == now):
            continue
        if not known:
            return None
        (configs if data and is_configuration(path) else texts)[path] = then
    return Then(texts, configs)


def _then(ws: Workspace, start: TurnStart, path: Path) -> tuple[bool, str | None]:
    """Whether a file's text as the turn began is known, and that text (None: absent): the
    recorded one of a file that differed from the commit then; else the commit's; else none
    (a file made in the turn), unless git ignores it (it was not listed then)."""
    if path in start.texts:
        return True, start.texts[path]
    name = ws.display(path)
    text = git(ws.root, "show", f"{start.commit}:./{name}")
    ignored = text is None and git(ws.root, "check-ignore", "-q", "--", name) is not None
    return not ignored, text


def _missed(ws: Workspace, start: TurnStart, seen: set[Path]) -> bool:
    """Whether a source file was written since the turn began (by its modification time)
    that the watcher did not see change (`seen`) and whose text is not its text then (or
    that text is not known): then the turn's start cannot be replayed. A file touched, its
    bytes the same, is no change (`_alike`: a mass `touch`)."""
    stamps = ((path, stamp(path)) for path in ws.projects.source_files())
    written = [p for p, at in stamps if at is not None and at[0] >= start.began_ns]
    written = [p for p in written if p not in seen]
    alike = _alike(ws, start, written)
    for path in (p for p in written if p not in alike):
        known, then = _then(ws, start, path)
        if not known or then != read_text(path):
            return True
    return False


def _alike(ws: Workspace, start: TurnStart, paths: list[Path]) -> set[Path]:
    """Those of `paths` whose text then is the commit's (not recorded as differing) and is
    their text now, proved in two git runs for all (`revisions.committed_alike`): a `git
    show` each held the gate 5-6 s for 1000 files touched or written again alike."""
    ours = (p for p in paths if p.is_relative_to(ws.root) and p not in start.texts)
    names = {ws.display(p): p for p in ours}
    top = git(ws.root, "rev-parse", "--show-toplevel") if names else None  # `at_commit`'s
    if top is None:
        return set()
    return {names[n] for n in committed_alike(ws.root, start.commit, Path(top.strip()), names)}


def _replayed(
    ws: Workspace,
    progress: Progress,
    found: Committed[Checked],
    part: Part,
    texts: dict[Path, str | None],
    state: OverlaidState[DiagnosticsResult],
) -> Before:
    """`Before` of the turn's start: the work tree's findings and stops (`progress`) in the
    files the run with the texts then (`state`) did not check again, and that run's own,
    its findings counted against the kept result (what the kept result has as often is
    not new)."""
    again = {ws.display(p) for p in [*texts, *state.results]}
    keys = {i.key for i in progress.introduced if i.key[0] not in again}
    for path, result in state.results.items():
        then = Counter(f.key for f in found_in(result, _text(texts, path)))
        kept = found.state.files.get(result.path)
        base = Counter(f.key for f in found_of(kept)) if kept is not None else Counter()
        keys |= set(then - base)
    stops = {k for k in progress.stop_keys if not _touches(k, again)}
    results = {r.path: r for r in [*found.checked.results, *part.results]}
    results.update((r.path, r) for r in state.results.values())

    def found_then(shown: str) -> list[Found[Item]]:
        result = results.get(shown)
        return [] if result is None else found_in(result, _text(texts, ws.resolve(shown)))

    said = progressive_kept.stop_keys(
        state.stopped, found_then, "", lambda shown: _text(texts, ws.resolve(shown))
    )
    return Before(progress.baseline, frozenset(keys), frozenset(stops | set(said.values())))


def _text(texts: dict[Path, str | None], path: Path) -> str | None:
    """A file's text at the turn's start: held, else the disk's."""
    return texts[path] if path in texts else read_text(path)


def _touches(key: str, files: set[str]) -> bool:
    """Whether a stop of the work tree (its key: `progressive_kept.stop_keys`) is at one of
    `files`; a baseline's stop (its state named) never is: no turn changes the baseline."""
    state, _, errors = json.loads(key)
    return state == "" and any(error[0] in files for error in errors)
