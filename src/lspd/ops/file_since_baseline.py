"""`diagnostics PATH --baseline HEAD|session` where no kept result answers
(`file_since_kept.file_since_committed`): the file now against its state with the changed
files' baseline texts held, asked only where the engine's rules say the change can reach it;
under the baseline's configuration on a copy where its checker's configuration was edited
since (`engine/configured.py`); by its program's own tsc -p where a JSON module changed or
its build's. The question's entry (`file_since`) is here: it tries the kept result first.
Apart from `file_since_kept`: this side runs the checkers (servers, tsc on a copy), that
one reads the kept result only.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import cast

from lspd.engine.committed import NotKept
from lspd.engine.committed_notes import configured
from lspd.engine.comparison import Again, Found
from lspd.engine.configured import TSC, Configured, configured_how
from lspd.engine.configured_parts import file_part, file_stop
from lspd.engine.kept import StateKey
from lspd.engine.mypy_project import by_project
from lspd.engine.named import SESSION, Named
from lspd.engine.native_reach import native
from lspd.engine.program_data import DataNotChecked, data_changed, data_state
from lspd.engine.proposal_reach import reached
from lspd.engine.python_affected import PYTHON
from lspd.engine.solution_check import held_unbuilt
from lspd.engine.stops import Stop
from lspd.lsp import shapes
from lspd.ops.changes import Diagnosed, diagnose
from lspd.ops.check_memory import memory_of as checks_of
from lspd.ops.convert import HeldConverter, convert_items
from lspd.ops.file_since_kept import (
    Asked,
    Question,
    asked_now,
    file_since_committed,
    gone,
    read_question,
)
from lspd.ops.kept_found import Item, found_in
from lspd.ops.models import Changes, DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope
from lspd.workspace.tsbuilder import Items


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
    changes since it are read here once, after the file's check (`read_question`), and the
    file now made comparable once (`asked_now`)."""
    question, file, quick = await _kept_first(ws, path, now, content, asked, stops)
    return quick or await file_since_baseline(ws, path, now, content, question, file)


async def file_since_kept(
    ws: Workspace, path: Path, now: DiagnosticsResult, asked: Named, stops: Sequence[Stop] = ()
) -> Changes | None:
    """`file_since`'s quick path alone: the file now (its disk text) against its kept
    result, or None where none answers; never a server asked with the baseline's texts
    held (the daemon's edited files asked beside a running check: `daemon/edited_alone`)."""
    return (await _kept_first(ws, path, now, None, asked, stops))[2]


async def _kept_first(
    ws: Workspace,
    path: Path,
    now: DiagnosticsResult,
    content: str | None,
    asked: Named,
    stops: Sequence[Stop],
) -> tuple[Question, Asked, Changes | None]:
    """The question read, the file now made comparable, and its kept result's answer."""
    question = await read_question(ws, asked)
    file = asked_now(ws, path, now, content, question, stops)
    return question, file, await file_since_committed(ws, path, now, question, file)


async def file_since_baseline(
    ws: Workspace,
    path: Path,
    now: DiagnosticsResult,
    content: str | None,
    question: Question,
    asked: Asked,
) -> Changes:
    """`diagnostics PATH --baseline` where no kept result answers: the file now (`now`; its
    text `content` when given) against its state with every changed file held at its
    `baseline` text (a change elsewhere may be what broke it), asked only when the engine's
    rules say the change can reach it (`proposal_reach`; a file of tsserver or mypy always).
    When the two differ, the file is asked again right after the switch back (a checker
    answering by the order it checks in makes nothing new). One file stays one file's work:
    HEAD's whole check is not waited for. `asked`: as `file_since_committed`'s."""
    baseline = question.baseline
    texts: dict[Path, str | None] = dict(question.delta.before)
    if content is not None and path not in texts:
        texts[path] = read_text(path)  # its baseline text is the disk's; unsaved is the change
    text = asked.text
    before, again = asked.after, None
    note = "this file, which the change cannot reach (the engine's rules): unchanged"
    new = path in texts and texts[path] is None
    how = None if new else await _configured(ws, question, path)
    if isinstance(how, Stop):  # its part not made at the baseline: not known new
        note = f"this file, its part not made at {baseline}"
        return asked.against([], note, before_stops=[how], then={now.path: texts.get(path, text)})
    if new:
        before, note = [], f"this file, new since {baseline}"
    elif how is not None and (
        under := await _under_configuration(ws, how, texts, (path, text), now, baseline)
    ):
        before, note = under
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
            f"this file{gone(path, text, baseline)}, against its state with the changed "
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
) -> tuple[list[Found[Item]], str] | None:
    """The file (its path and text now) at the baseline's texts and configuration (its
    checker's configuration was edited since), on a copy (`engine/configured.py`),
    whatever the change reaches; and the note saying so. None: a file in no tsconfig's
    program then or now (a test the tsconfig leaves out), which no configuration decides."""
    path, text = file
    old = texts.get(path, text)
    if how.checker == TSC:
        tsc = await _tsc(ws, texts, how, path, now, baseline)
        if path not in tsc and path not in (await gate_scope(ws)).files:
            return None
        before = found_in(tsc[path], old) if path in tsc else []  # entering its program
    else:
        held = {**texts, **how.configs}
        before = found_in(_of(ws, path, await diagnose(ws, [path], held)), old)
    named = ", ".join(map(ws.display, how.configs))
    return before, (
        f"this file, against its state with the changed files' {baseline} texts and "
        f"configuration ({named}), by {how.checker} on a copy"
    )


async def _configured(ws: Workspace, question: Question, path: Path) -> Configured | Stop | None:
    """How the file's state at the baseline is checked under the configuration then, where
    a configuration its checker reads differs from it (None: none differs, or the
    session's; `configured_parts.file_part`: the file's part of a gate two checkers share);
    where its part of such a gate cannot be made, the stop `check --baseline` says for it
    (`file_stop`: its errors not known new; before, exit 2 where the whole check said the
    part not compared); raises `NotKept` where a gate's one checker cannot be here
    (`engine/configured.configured_how`)."""
    commit = question.asked.commit
    if commit == SESSION:
        return None
    _, then = await question.then(ws)
    if not then:
        return None
    gate = await gate_scope(ws)
    scope, then = file_part(ws, gate, then, path)
    if not then:  # its checker's configuration is the same at the baseline: held texts
        return None
    how = configured_how(ws, scope, then)
    if how is None and (stop := file_stop(ws, gate, scope, then, path)) is not None:
        return stop
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
