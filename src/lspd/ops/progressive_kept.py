"""The hook's and the stop gate's check (`daemon/feedback.py`, issue 40 item 5): an edit is
proved by the incremental whole check (`check_all`: what the edit can affect, re-checked)
compared with the baseline's kept result (`lspd.ops.since_kept`), the same path as `lspd
check --baseline`. A leaf or body-only edit then costs what `lspd check` costs for it.

Before HEAD's result is kept (the daemon makes it in the background after `serve` and when
HEAD moves), the check waits for that run and takes it over (it goes on unpaused, whole
checks running one at a time), so HEAD is checked once per commit; the hook reads its
progress meanwhile (`check_memory.running`). Before issue 40 the hook compared the edited
files and those naming what changed in two states, nearest first, until the result was kept.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Callable, Iterable
from pathlib import Path

from lspd.engine.committed import Committed
from lspd.engine.comparison import Found
from lspd.engine.revisions import is_configuration
from lspd.engine.stops import (
    AT_CONFIGURATION,
    BLOCKING,
    MYPY,
    NOT_COMPARED,
    Stop,
    at_configuration,
    syntax_code,
)
from lspd.lsp.text import split_lines
from lspd.ops.beyond_gate import Part, beyond_gate
from lspd.ops.check import check_all
from lspd.ops.checked import Checked
from lspd.ops.kept_found import Item, found_in, found_of
from lspd.ops.models import Changes, DiagnosticsResult, Stopped
from lspd.ops.progressive import Introduced, Key, Progress
from lspd.ops.since_kept import baseline_stops, compared, settled
from lspd.workspace import Workspace
from lspd.workspace.files import read_text, stamp

log = logging.getLogger(__name__)


async def run(ws: Workspace, progress: Progress) -> None:
    """Fill `progress` (`from_kept`) once every change made before is in (its whole check
    catches up with the watcher first: a catch-up of its own here before made two round
    trips back to back); a failure is said in `progress` (the hook says the check failed,
    and what to run; the daemon goes on); `done` is set at the end, also when it fails or
    is cancelled."""
    try:
        await from_kept(ws, progress)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # NotKept (a file not answered: "ask again") among them
        log.exception("the baseline check of %s failed", progress.edited)
        progress.failed = f"{type(exc).__name__}: {exc}"
    finally:
        progress.done.set()
        progress.batch.set()


async def held_before(ws: Workspace, baseline: str) -> tuple[frozenset[Key], frozenset[str]]:
    """What the work tree holds against the baseline now, every changed file counted: the
    keys of the findings introduced since, and the checkers' stops (`stop_keys`). Taken when
    an agent's turn begins, it is what the turn did not do (`daemon/feedback.py`)."""
    progress = Progress(baseline, [])
    await from_kept(ws, progress, every=True)
    return frozenset(i.key for i in progress.introduced), frozenset(progress.stop_keys)


async def from_kept(ws: Workspace, progress: Progress, every: bool = False) -> None:
    """Fill `progress` from the whole check against the kept result (made now, the work
    tree's check reused, when it is not kept): what was introduced since the baseline in
    the gate's files, and in the edited files outside the gate as `check --baseline PATHS`
    has them (`lspd.ops.beyond_gate`: at the baseline's texts where the change reaches
    them); the edited files among the changed ones (`every`: every changed file, edited or
    not)."""
    async with ws.gate.shared():  # the check: other questions are answered meanwhile
        now = await check_all(ws)
    # their errors, said if no comparison is made
    progress.now = now.errors_of({ws.display(p) for p in progress.edited})

    async def edited_outside(found: Committed[Checked]) -> Part | None:
        gate = {r.path for r in found.checked.results}
        outside = {p for p in progress.edited if _beyond(ws, p, gate)}
        if not outside:
            return None
        wider = await check_all(ws, sorted(ws.display(p) for p in outside))
        return await beyond_gate(ws, found, outside.__contains__, wider)

    async with ws.gate.exclusive():  # that check is reused; a dirty tree's HEAD texts held
        whole = functools.partial(check_all, ws)
        found, part = await settled(ws, progress.baseline, whole, lambda _: True, edited_outside)
    fill(ws, progress, found, part, every)


def fill(
    ws: Workspace, progress: Progress, found: Committed[Checked], part: Part, every: bool
) -> None:
    """`progress` from the comparison of the work tree's check with the kept result
    (`settled`'s `found` and `part`): what was introduced in the edited files among the
    changed ones (`every`: in every changed file), and the checkers' stops."""
    differing = {*found.delta.before, *found.delta.after}
    # an edited configuration changes what every file of the gate says: compared as one
    # (one a tsconfig extends under another name too: the gate's scope read it)
    scope = found.checked.scope
    configs = [] if scope is None else [p for p, _ in scope.read]
    differing |= {
        p for p in progress.edited if ws.handler(p) is None and is_configuration(p, configs)
    }
    progress.changed = sorted(differing if every else differing & set(progress.edited))
    if not progress.changed:
        return
    result = compared(ws, found, progress.baseline, part)
    results = [*found.checked.results, *part.results]
    file_of = {r.path: ws.resolve(r.path) for r in results}
    made = {_at_key(f.key[0], f.diagnostic): f.key for f in part.after}
    for diagnostic in result.changes.introduced:
        file = file_of.get(diagnostic.path or "") or Path(diagnostic.path or "")
        key = made[_at_key(diagnostic.path or "", diagnostic)]
        progress.introduced.append(Introduced(diagnostic, key, file))
    for path in file_of.values():  # a finding no longer found in a file is forgotten
        progress.keys[path] = set()
        progress.seen.setdefault(path, stamp(path))
    for f in part.after:
        progress.keys[file_of[f.key[0]]].add(f.key)
    progress.compared = len(result.after)
    _stops_said(ws, progress, found, part, result.changes)


def _at_key(path: str, d: Item) -> tuple[object, ...]:
    """A diagnostic of the work tree by where it is and what it says: an introduced one's
    answer (its path set) finds the key it was compared by."""
    return (path, d.line, d.column, d.end_line, d.end_column, d.severity, d.code, d.message)


def _stops_said(
    ws: Workspace, progress: Progress, found: Committed[Checked], part: Part, changes: Changes
) -> None:
    """The checkers' stops of the comparison (`changes`), said and keyed into `progress`:
    the work tree's, and the baseline's that hid something new."""
    results = [*found.checked.results, *part.results]
    stops_now, found_now = [*found.checked.stopped, *part.stops], _found_now(ws, results)
    now = stop_keys(stops_now, found_now, "", _text_now(ws))
    stops_then, kept = baseline_stops(found, part), _found_kept(found, part)
    was = stop_keys(stops_then, kept, progress.baseline, _text_then(ws, found))
    # a baseline's stop that hid nothing new changes no verdict: not said
    at_baseline = [s for s in changes.baseline_stopped if s.not_checked]
    said_now, said_then = stop_words(stops_now, found_now), stop_words(stops_then, kept)
    progress.stopped = [stop_said(s, said_now.get(_at(s), [])) for s in changes.stopped]
    progress.stopped += [
        f"at {progress.baseline}, {stop_said(s, said_then.get(_at(s), []))}" for s in at_baseline
    ]
    progress.stop_keys = [now[_at(s)] for s in changes.stopped]
    progress.stop_keys += [was[_at(s)] for s in at_baseline]
    # a configuration's options error the baseline stopped at too (the same line)
    configs = [s for s in stops_now if at_configuration(s.checker, (p for p, _ in s.at))]
    then = {_places(s, _text_then(ws, found)) for s in stops_then}
    same = (now[_key(s)] for s in configs if _places(s, _text_now(ws)) in then)
    progress.stops_then = frozenset(k for k in same if k in progress.stop_keys)


def _places(stop: Stop, text: TextIn) -> tuple[str, ...]:
    """Where a stop stopped, by its checker and the text of each line it stopped at: the
    same stop now and at the baseline (its errors' keys are not: a configuration's
    diagnostics are the work tree's alone, none kept)."""
    return (stop.checker, *sorted(f"{p}:{_line_of(text(p), n)}" for p, n in stop.at))


def stop_said(stop: Stopped, words: list[str]) -> str:
    """A checker stopped at syntax errors, said in a line: it checked nothing else, so a
    check without a new error proves nothing (the stop gate and the hook say it). mypy's
    stop at a blocking error past the parser (`words`: its messages there, `stop_words`) is
    said in mypy's words: a file shadowing a library module, a `break` outside a loop."""
    if stop.why:  # a part of the gate not compared: what it says now is not known new
        return f"{stop.checker} {NOT_COMPARED} ({stop.why})"
    at = ", ".join(list(dict.fromkeys(stop.at))[:3])  # mypy says a line's errors one by one
    if at_configuration(stop.checker, stop.at):
        return f"{stop.checker} {AT_CONFIGURATION} {at}"
    if not words:
        return f"{stop.checker} stopped at the syntax error at {at}"
    return f"{stop.checker} stopped at {at} ({BLOCKING}: {'; '.join(words)})"


def stop_words(stops: Iterable[Stop], found: FoundIn) -> dict[tuple[str, ...], list[str]]:
    """mypy's words at each stop of a state (keyed as `stop_keys`) that is no syntax error:
    the messages of the errors at its lines (mypy's blockers past the parser, `engine/
    mypy_blocked`); none for a stop at syntax errors, and for tsc's (its parser's, always)."""
    words: dict[tuple[str, ...], list[str]] = {}
    for stop in stops:
        said = [
            f.diagnostic for path, line in stop.at for f in found(path) if f.diagnostic.line == line
        ]
        if stop.checker == MYPY and not any(syntax_code(MYPY, d.code) for d in said):
            words[_key(stop)] = list(dict.fromkeys(d.message for d in said))
    return words


def _key(stop: Stop) -> tuple[str, ...]:
    """A stop's key, as its `Stopped` says it (`_at`)."""
    return (stop.checker, *(f"{p}:{n}" for p, n in stop.at[:5]))


# The diagnostics of a file in one state, as compared (their keys: no line in them).
FoundIn = Callable[[str], list[Found[Item]]]
# A file's text in one state (None: absent, or unreadable).
TextIn = Callable[[str], str | None]


def stop_keys(
    stops: Iterable[Stop], found: FoundIn, state: str, text: TextIn
) -> dict[tuple[str, ...], str]:
    """What identifies each stop of `state` (keyed as its `Stopped` says it: `_at`) across
    line shifts: its checker and the keys of the errors it stopped at (path, code, message,
    the text they point at), never their lines; lines added above a syntax error left the
    stop gate blocking again for the same stop (`AgentSession.stopped`). A stop in a file
    the check has no result of (mypy follows an import out of its `files`) is known by the
    text of its line (`text`: the file's in that state): by its file alone, another syntax
    error there was the same stop, and the gate let the agent stop unblocked."""
    keys = {}
    for stop in stops:
        errors: set[tuple[str | None, ...]] = set()
        for path, line in stop.at:
            at = [f.key for f in found(path) if f.diagnostic.line == line]
            errors |= set(at) or {(path, _line_of(text(path), line))}  # none said there
        keys[_key(stop)] = json.dumps([state, stop.checker, sorted(errors, key=str)])
    return keys


def _at(stopped: Stopped) -> tuple[str, ...]:
    return (stopped.checker, *stopped.at)


def _line_of(text: str | None, line: int) -> str:
    """A text's 1-based `line`, stripped ("" past its end)."""
    lines = split_lines(text or "")
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _text_now(ws: Workspace) -> TextIn:
    """A file's text in the work tree."""
    return lambda path: read_text(ws.root / path)


def _text_then(ws: Workspace, found: Committed[Checked]) -> TextIn:
    """A file's text at the baseline: the baseline's where it differs, else the disk's."""
    before = found.delta.before
    return lambda path: before.get(p, "") if (p := ws.root / path) in before else read_text(p)


def _found_now(ws: Workspace, results: list[DiagnosticsResult]) -> FoundIn:
    """A file's diagnostics in the work tree's check."""
    of = {r.path: r for r in results}
    return lambda path: found_in(of[path], read_text(ws.root / path)) if path in of else []


def _found_kept(found: Committed[Checked], part: Part) -> FoundIn:
    """A file's diagnostics in the baseline's kept result (outside the gate: as compared)."""

    def kept(path: str) -> list[Found[Item]]:
        if (seen := found.state.files.get(path)) is not None:
            return found_of(seen)
        return [f for f in part.before if f.key[0] == path]

    return kept


def _beyond(ws: Workspace, path: Path, gate: set[str]) -> bool:
    """Whether an edited file is a source file outside the gate's check (a test the gate's
    configuration leaves out, say): the hook compares it too."""
    return ws.display(path) not in gate and ws.handler(path) is not None and path.is_file()
