"""`diagnostics PATH --baseline HEAD|session`: the file now against its kept diagnostics once
HEAD's result is kept for this commit, configuration and toolchain (`lspd.ops.committed`
makes it; this reads it only, so the file question does not import the check engine's
runs); else (not kept yet, or a file the gate's result lacks) against its state with the
changed files' baseline texts held, asked only where the engine's rules say the change
can reach it (`file_since_baseline`). A file deleted since the baseline is answered as
`check --baseline` answers it (`deleted_now`): none of its diagnostics now, all of its
baseline's fixed, the file among the changed ones. git is asked once a question (`file_since`:
the commit, one listing, the changed files' texts at it; the configurations then once).
Before, a question resolved the commit four to five times and listed the changes twice
(9-10 git runs for one changed file, where 4 say it)."""

from __future__ import annotations

import asyncio
import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from lspd.engine.committed import NotKept
from lspd.engine.committed_notes import configured
from lspd.engine.comparison import Again, Found
from lspd.engine.configured import TSC, Configured, configured_how
from lspd.engine.configured_parts import file_part
from lspd.engine.kept import StateKey, config_key
from lspd.engine.kept_memory import configs_at, enabled, memory_of
from lspd.engine.mypy_check import by_project
from lspd.engine.mypy_gate import unversioned
from lspd.engine.named import SESSION, Named
from lspd.engine.native_reach import native
from lspd.engine.program_data import DataNotChecked, data_changed, data_delta, data_state
from lspd.engine.proposal_reach import reached
from lspd.engine.python_affected import PYTHON
from lspd.engine.renames import renames
from lspd.engine.revisions import Delta, Listing, differences, listing
from lspd.engine.solution_check import held_unbuilt
from lspd.engine.stops import Stop
from lspd.lsp import shapes
from lspd.ops.changes import Diagnosed, compare, diagnose
from lspd.ops.check_memory import memory_of as checks_of
from lspd.ops.convert import HeldConverter, convert_items
from lspd.ops.kept_found import Item, found_in, found_of
from lspd.ops.models import Changes, DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope
from lspd.workspace.tsbuilder import Items


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
    if projects and not any(p.also_pyright for p in projects):
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


async def file_since(
    ws: Workspace,
    path: Path,
    now: DiagnosticsResult,
    content: str | None,
    asked: Named,
    stops: Sequence[Stop] = (),
) -> Changes:
    """`diagnostics PATH --baseline`: the file now against its kept result where one
    answers (`file_since_committed`), else against its state at the baseline's texts
    (`file_since_baseline`); `asked`: what the question found the baseline names. The
    changes since it are read here once, after the file's check (`_read`), and the file now
    made comparable once (`_asked`)."""
    question = await _read(ws, asked)
    file = _asked(ws, path, now, content, question, stops)
    quick = await file_since_committed(ws, path, now, question, file)
    return quick or await file_since_baseline(ws, path, now, content, question, file)


@dataclass
class _Question:
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


async def _read(ws: Workspace, asked: Named) -> _Question:
    """git's listing against the commit `asked` names (none for `session`), and the files
    it lists with their texts then and now (`differences`, `data_delta`)."""
    top = asked.top
    listed = None if top is None else await asyncio.to_thread(listing, ws, asked.commit, top)
    delta = await asyncio.to_thread(differences, ws, asked.baseline, listed)
    return _Question(asked, listed, await data_delta(ws, delta))


async def file_since_committed(
    ws: Workspace, path: Path, now: DiagnosticsResult, question: _Question, asked: _Asked
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
    note = f"this file{_gone(path, asked.text, baseline)}, against the kept result of {commit[:12]}"
    note += "".join(f"; renamed: {old} -> {new}" for old, new in renamed.items())
    # what the baseline's checker did not check is not new (its stops), save what its
    # text there rules out (`changes._unseen`)
    old = ws.resolve(next(iter(renamed), now.path))  # its path at the baseline
    then = delta.before[old] if old in delta.before else read_text(path)  # unchanged: disk's
    return asked.against(
        found_of(kept), note, renamed=renamed, before_stops=state.stopped, then={now.path: then}
    )


async def file_since_baseline(
    ws: Workspace,
    path: Path,
    now: DiagnosticsResult,
    content: str | None,
    question: _Question,
    asked: _Asked,
) -> Changes:
    """`diagnostics PATH --baseline` where no kept result answers: the file now (`now`; its
    text `content` when given) against its state with every changed file held at its
    `baseline` text (a change elsewhere may be what broke it). It is asked in that state
    only when the engine's rules say the change can reach it (`proposal_reach`: Python's
    and TypeScript 7's importers of changed declarations; a file of tsserver or mypy
    always): else it cannot differ. When the two differ, the file is asked again right after the
    switch back (a checker answering by the order it checks in makes nothing new). One file
    stays one file's work: HEAD's whole check is not waited for (`lspd check --baseline`
    makes and keeps it). `asked`, as `file_since_committed`'s."""
    baseline = question.baseline
    texts: dict[Path, str | None] = dict(question.delta.before)
    if content is not None and path not in texts:
        texts[path] = read_text(path)  # its baseline text is the disk's; unsaved is the change
    text = asked.text
    before, again = asked.after, None
    note = "this file, which the change cannot reach (the engine's rules): unchanged"
    if path in texts and texts[path] is None:
        before, note = [], f"this file, new since {baseline}"
    elif (how := await _configured(ws, question, path)) is not None:
        before, note = await _under_configuration(ws, how, texts, (path, text), now, baseline)
    elif data_changed(ws, texts) and (tsc := await data_state(ws, texts, [path], _AsNow(ws, now))):
        # a JSON module changed: the servers cannot hold its text, its program's tsc can
        before = found_in(tsc[path], texts.get(path, text))
        note = (
            f"this file, against its program's own tsc -p on a copy holding the changed "
            f"files' {baseline} texts ({', '.join(map(ws.display, data_changed(ws, texts)))})"
        )
    elif texts and (unbuilt := await held_unbuilt(ws, texts, [path], every=True)):
        # its nearest tsconfig.json built by no tsc -b: its build's program's tsc -p
        before = found_in(
            _AsNow(ws, now).built(cast(Mapping[Path, Items], unbuilt), texts)[path],
            texts.get(path, text),
        )
        note = f"this file, against its build's tsc -p with the changed files' {baseline} texts"
    elif bool(texts) and await asyncio.to_thread(_reaches, ws, path, texts):
        old = texts.get(path, text)
        before = found_in(_of(ws, path, await diagnose(ws, [path], texts)), old)
        differs = Counter(f.key for f in before) != Counter(f.key for f in asked.after)
        if differs and text is not None:  # a deleted file's "after" is no server's answer
            held = {} if content is None else {path: content}
            sample = _of(ws, path, await diagnose(ws, [path], held))
            again = Again("after", found_in(sample, text))
        note = (
            f"this file{_gone(path, text, baseline)}, against its state with the changed "
            f"files' {baseline} texts held"
        )
    return asked.against(before, note, again)


async def _under_configuration(
    ws: Workspace,
    how: Configured,
    texts: dict[Path, str | None],
    file: tuple[Path, str | None],
    now: DiagnosticsResult,
    baseline: str,
) -> tuple[list[Found[Item]], str]:
    """The file (its path and text now) at the baseline's texts and configuration (its
    checker's configuration was edited since), on a copy (`engine/configured.py`),
    whatever the change reaches; and the note saying so."""
    path, text = file
    old = texts.get(path, text)
    if how.checker == TSC:
        tsc = await _tsc(ws, texts, how, path, now, baseline)
        before = found_in(tsc[path], old) if path in tsc else []  # not in its program
    else:
        held = {**texts, **how.configs}
        before = found_in(_of(ws, path, await diagnose(ws, [path], held)), old)
    named = ", ".join(map(ws.display, how.configs))
    return before, (
        f"this file, against its state with the changed files' {baseline} texts and "
        f"configuration ({named}), by {how.checker} on a copy"
    )


async def _configured(ws: Workspace, question: _Question, path: Path) -> Configured | None:
    """How the file's state at the baseline is checked under the configuration then, where
    a configuration its checker reads differs from it (None: none differs, or the
    session's; `configured_parts.file_part`: the file's part of a gate two checkers share);
    raises `NotKept` where it cannot be here (`engine/configured.configured_how`)."""
    commit = question.asked.commit
    if commit == SESSION:
        return None
    _, then = await question.then(ws)
    if not then:
        return None
    scope, then = file_part(ws, await gate_scope(ws), then, path)
    if not then:  # its checker's configuration is the same at the baseline: held texts
        return None
    how = configured_how(ws, scope, then)
    if how is None:
        raise NotKept(configured(ws, StateKey(commit, "", "", tuple(sorted(then)))))
    return how


async def _tsc(
    ws: Workspace,
    texts: Mapping[Path, str | None],
    how: Configured,
    path: Path,
    now: DiagnosticsResult,
    baseline: str,
) -> dict[Path, DiagnosticsResult]:
    """The file's result by its program's tsc -p on a copy holding `texts` and the
    configurations then; `NotKept` where tsc could not say."""
    try:
        return await data_state(ws, {**texts, **how.configs}, [path], _AsNow(ws, now))
    except DataNotChecked as error:
        raise NotKept(f"no state of {baseline} under its configuration: {error}") from error


class _AsNow:
    """tsc's items of the file asked as `now` is made (its server and toolchain), positions
    read in the held texts (`program_data.Built`)."""

    def __init__(self, ws: Workspace, now: DiagnosticsResult) -> None:
        self.ws, self.now = ws, now

    def built(
        self, items: Mapping[Path, Items], texts: Mapping[Path, str | None]
    ) -> dict[Path, DiagnosticsResult]:
        convert = HeldConverter(self.ws, "utf-16", texts)  # the baseline's texts held
        made = {}
        for path, found in items.items():
            converted = convert_items(convert, path, cast(list[shapes.Diagnostic], found))
            converted.sort(key=lambda d: (d.severity != "error", d.line, d.column))
            errors = sum(d.severity == "error" for d in converted)
            made[path] = self.now.model_copy(
                update={"diagnostics": converted, "errors": errors, "total": len(converted)}
            )
        return made


@dataclass(frozen=True)
class _Asked:
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


def _asked(
    ws: Workspace,
    path: Path,
    now: DiagnosticsResult,
    content: str | None,
    question: _Question,
    stops: Sequence[Stop],
) -> _Asked:
    """The file now (`now`; its text `content` when given, else the disk's), beside the
    files changed since the baseline."""
    delta = question.delta
    text = content if content is not None else read_text(path)
    changed = [ws.display(p) for p in sorted({*delta.before, *delta.after})]
    return _Asked(text, found_in(now, text), question.baseline, changed, stops)


def _renamed_to(ws: Workspace, delta: Delta, path: Path) -> dict[str, str]:
    """The file `path` was renamed from since the baseline (`delta`; `engine/renames.py`),
    as shown: {old: new}; empty when it was not."""
    moved = renames(delta.before, delta.after)
    return {ws.display(old): ws.display(new) for old, new in moved.items() if new == path}


def _gone(path: Path, text: str | None, baseline: str) -> str:
    """Said of a file deleted since `baseline` (no text now)."""
    return f" (deleted since {baseline}: its diagnostics there are fixed)" if text is None else ""


def _reaches(ws: Workspace, path: Path, texts: dict[Path, str | None]) -> bool:
    """Whether the change (`texts`: the changed files' baseline texts) can reach `path`
    by the engine's rules; a file they do not cover is always asked: tsserver's, and
    mypy's (its dependency graph is its own)."""
    if path.suffix not in PYTHON and native(ws, path) is None:
        return True
    if path.suffix in PYTHON and by_project(ws, [path]):
        return True
    checks = checks_of(ws)
    return path in reached(ws, texts, {path}, checks.python, checks.native)


def _of(ws: Workspace, path: Path, answered: Diagnosed) -> DiagnosticsResult:
    """`path`'s result among those asked (mypy answers every file of its project)."""
    shown = ws.display(path)
    return next(r for r in answered.results if r.path == shown)
