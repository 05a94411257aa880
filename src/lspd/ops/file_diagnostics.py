"""Errors and warnings of a file as it is now (or of unsaved text), and of the workspace."""

from __future__ import annotations

import asyncio
import functools
import os
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.engine import check_files
from lspd.engine.check_files import Said
from lspd.engine.mypy_step import SERVER
from lspd.engine.native_check import settled_items
from lspd.engine.native_file import as_tsc, others
from lspd.engine.native_program import compiler
from lspd.engine.program_data import data_file
from lspd.engine.solution_check import also_checked, unbuilt_checked
from lspd.engine.stops import TSC, Stop, at_configuration, stop_of, syntax_code
from lspd.lsp import shapes
from lspd.lsp.diagnostics import Stopped, answer_of
from lspd.ops.arguments import check_content
from lspd.ops.baseline import check_baseline
from lspd.ops.budget import Window, check_paging, item_sizes, page
from lspd.ops.convert import Converter, convert_items
from lspd.ops.environment_hint import environment_hint
from lspd.ops.models import Diagnostic, DiagnosticsResult
from lspd.ops.mypy_answers import Judged, mypy_file
from lspd.ops.programs_joined import joined
from lspd.workspace import Workspace
from lspd.workspace.files import MAX_FILE_BYTES
from lspd.workspace.overlay import overlaid
from lspd.workspace.question import one_question
from lspd.workspace.scope import gate_scope
from lspd.workspace.tsc_native import shown
from lspd.workspace.tsconfig_scope import built_above, referencing

if TYPE_CHECKING:
    from lspd.ops.config_diagnostics import ConfigFile


async def diagnostics(
    ws: Workspace,
    path: str,
    content: str | None = None,
    limit: int = 100,
    offset: int = 0,
    baseline: str | None = None,
) -> DiagnosticsResult:
    """Diagnostics of `path` as it is on disk, or of `content` when given (then restored;
    the file need not exist yet), `limit` of them from `offset`; with `baseline`, those new
    since then (the counts too), and which were fixed."""
    # This question's own steps, imported here: a whole check imports this module for
    # `FileAnswers` alone (a one-shot `lspd check` imports 21 modules fewer, ~10% of
    # `lspd.ops.check`'s import CPU)
    from lspd.engine.committed import ATTEMPTS, Unsettled, unchanged
    from lspd.ops.changes_page import file_page
    from lspd.ops.config_diagnostics import config_file
    from lspd.ops.file_since_kept import deleted_now

    check_paging(offset, limit)
    check_content(content, MAX_FILE_BYTES)
    check_baseline(baseline)
    await ws.refresh_open_documents(catch_up=True)
    if content is None and (config := await config_file(ws, ws.resolve(path))) is not None:
        return await _configuration(ws, config, limit, offset, baseline)
    if baseline is None:
        now = await check_file(ws, path, content, limit, offset=offset)
        return await _each_program(ws, path, content, now, last=True)
    # The paging is the introduced list's; all of the file's diagnostics are compared, with
    # the texts the server answered about: a file written meanwhile (the watcher's count
    # moved) is asked and compared again.
    for _ in range(ATTEMPTS):
        mark = ws.changes_seen
        with one_question():  # without a watcher, a TypeScript 7 program is listed once
            gone = await deleted_now(ws, path, content, baseline)  # deleted since: not refused
            stops: list[Stop] = []  # tsc's or mypy's stop now: the baseline's errors unchecked
            now = gone or await check_file(ws, path, content, 1, budget=False, stops=stops)
            now = await _each_program(ws, path, content, now)
            answer = await file_page(
                ws, ws.resolve(path), now, content, baseline, offset, limit, mark, stops
            )
        if mark is None or await unchanged(ws, mark):
            return answer
    raise Unsettled(
        f"the files kept changing while {path} was compared with {baseline}; "
        "ask again once the edits settle"
    )


async def _configuration(
    ws: Workspace, config: ConfigFile, limit: int, offset: int, baseline: str | None
) -> DiagnosticsResult:
    """A TypeScript configuration's errors as tsc says them (`ops/config_diagnostics.py`),
    with `baseline` those new since."""
    from lspd.ops.config_diagnostics import config_page, errors_now

    items = await errors_now(ws, config)
    made = functools.partial(make_result, ws, config.path, config.server, config.toolchain)
    if baseline is None:
        return made(items, limit, True, offset)
    return await config_page(ws, config, made(items), baseline, offset, limit)


async def _each_program(
    ws: Workspace, path: str, content: str | None, result: DiagnosticsResult, last: bool = False
) -> DiagnosticsResult:
    """`result` and the file's errors in the other programs of its solution-style layout
    that hold it, as `tsc -b` checks it in each (`engine/solution_check.py`; the disk's).
    The gate's scope is read for them, but by a one-shot question's `last` step (no daemon:
    no later question reads it, `solution_of`) where no layout can hold the file."""
    resolved = ws.resolve(path)
    handler = ws.handler(resolved)
    if content is not None or handler is None or handler.language != "typescript":
        return result
    if last and ws.changes_seen is None and await _outside_layouts(ws, resolved):
        return result
    await gate_scope(ws)  # its layouts as the disk has them (kept while no config changed)
    # its nearest tsconfig.json built by no tsc -b: the server's program says not tsc's
    replaced, own = await unbuilt_checked(ws, [resolved], FileAnswers(ws), every=True)
    extra = await also_checked(ws, [resolved], FileAnswers(ws))
    if replaced:
        return joined(ws, [*own, *extra])[0]
    return joined(ws, [result, *extra])[0] if extra else result


async def _outside_layouts(ws: Workspace, path: Path) -> bool:
    """Whether no solution-style layout holds `path`, so no other program of a `tsc -b`
    (`tsconfig_scope.solutions`: a layout is the file's nearest tsconfig.json naming
    `references` and not holding it among its own files): its nearest names none, or holds
    it, as the project's TypeScript 7 lists its root files (`tsc -p --showConfig`, ~15 ms).
    Then the gate's scope is not needed (TypeScript's reading of every tsconfig: a Node
    run, 0.5-1.2 s)."""
    if (found := referencing(ws.root, ws.ignore, path)) is None:
        return await _built_apart(ws, path)
    config, nearest = found
    tsc = compiler(ws.session_for(path)) if nearest else None
    return tsc is not None and path in await asyncio.to_thread(_roots, tsc, config)


async def _built_apart(ws: Workspace, path: Path) -> bool:
    """Whether no program a solution above `path` builds holds it where its nearest
    tsconfig.json is in no build (`Solution.unbuilt`): each such program's root files as
    TypeScript 7 lists them (~15 ms each); any may where it cannot say."""
    above = built_above(ws.root, path)
    if not above:
        return above is not None
    tsc = compiler(ws.session_for(path))
    if tsc is None:
        return False
    for config in above:
        if not config.is_file() or path in await asyncio.to_thread(_roots, tsc, config):
            return False
    return True


def _roots(tsc: list[str], config: Path) -> set[Path]:
    """`config`'s root files as TypeScript 7's `tsc -p config --showConfig` lists them
    (none where it says none or cannot say)."""
    files = shown(tsc, config).get("files")
    named = files if isinstance(files, list) else []
    return {Path(os.path.normpath(config.parent / f)) for f in named if isinstance(f, str)}


# Per file: the server's answer (`answer_of` its items) and the result made of them.
Known = check_files.Known[DiagnosticsResult]
PER_FILE = 100_000  # diagnostics of one file in a whole check's result (all, in practice)


@dataclass(frozen=True)
class FileAnswers:
    """A whole check's files' results as this layer answers them, for the engine's asking
    one by one (`engine/check_files.Answers`)."""

    ws: Workspace

    async def of_file(self, path: Path, known: Known | None, timeout: float) -> DiagnosticsResult:
        """`check_file` of the disk's text, every diagnostic (a one-shot check's TypeScript 7
        file whose program tsc stops at a syntax error: tsc's answer, no server asked)."""
        if (settled := settled_items(self.ws, path)) is not None:
            return self.of_items(Said.by(settled[0]), path, settled[1])
        shown = self.ws.display(path)
        # mypy's errors of a file both checkers judge came from the check's mypy step
        return await check_file(
            self.ws, shown, None, PER_FILE, False, known, timeout=timeout, mypy=False, program=False
        )

    def of_items(self, said: Said, path: Path, items: list[shapes.Diagnostic]) -> DiagnosticsResult:
        """The result of the `items` a server said of `path`."""
        converted = convert_items(Converter(self.ws, said.encoding), path, items)
        return make_result(self.ws, path, said.server, said.toolchain, converted)


async def check_file(
    ws: Workspace,
    path: str,
    content: str | None,
    limit: int,
    budget: bool = True,
    known: Known | None = None,
    offset: int = 0,
    timeout: float | None = None,
    mypy: bool = True,
    stops: list[Stop] | None = None,
    program: bool = True,
) -> DiagnosticsResult:
    """One file's diagnostics, once the servers hold every change made before the call.

    With `known`, a file whose server answered with the very items of last time ("unchanged")
    gets last time's result (the whole-workspace check: most files, after an edit). Without
    `budget`, every diagnostic (`limit` and `offset` aside). `timeout`: the workspace's
    diagnostics timeout unless given (a whole check's is longer). Without `mypy`, mypy's
    errors are left to the caller (a whole check's mypy step gave them, with or without
    `known`: a one-shot check has none). A checker that stopped at a syntax error (this
    file's or another's) is added to `stops` (what it did not check: `engine/stops.py`).
    Without `program`, TypeScript 7's answer leaves out another file's syntax error (a whole
    check looks at each program once: `engine/native_check.native_once`)."""
    resolved = ws.resolve(path)
    if content is None and (data := await _data(ws, resolved, stops)) is not None:
        return make_result(ws, resolved, *data, limit, budget, offset)
    # A mypy-gated project's file: its own mypy (a whole check's mypy step did it already).
    judged = await mypy_file(ws, resolved, content) if known is None and mypy else None
    if judged is not None and judged.stop is not None and stops is not None:
        stops.append(judged.stop)
    if judged is not None and not judged.project.pyright_judges(resolved):
        return _mypy_alone(ws, resolved, judged, limit, budget, offset)
    async with _held(ws, resolved, content):
        session, document = await ws.open(path, content)
        last = known.get(document.path) if known is not None and content is None else None
        held = None if last is None else last[0]  # repeated, its items are not decoded again
        typescript = session.definition.language == "typescript"
        # TypeScript 7: the program's other files' syntax, read while the server answers
        elsewhere = others(ws, session, document.path) if typescript and program else None
        raw = await session.diagnostics(document, timeout or ws.diagnostics_timeout, held)
        if last is not None and last[0] is answer_of(raw):
            return last[1]
        if typescript:  # TypeScript 7's pull: both kinds
            raw = await as_tsc(session, document.path, document.text, raw, elsewhere)
        convert = Converter(ws, session.encoding)
        items = convert_items(convert, document.path, raw) + (judged.items if judged else [])
    result = make_result(
        ws, document.path, session.name, session.toolchain, items, limit, budget, offset
    )
    if judged is not None:  # both checkers: each diagnostic names its own
        result.checker = judged.why
    if isinstance(raw, Stopped):  # its syntax errors alone, or none, as tsc: not clean
        tsc_stopped(ws, raw, result, items, stops)
    session.environment = result.environment or session.environment  # for `status`
    if known is not None and content is None:
        known[document.path] = (answer_of(raw), result)
    return result


def _held(ws: Workspace, path: Path, content: str | None) -> AbstractAsyncContextManager[None]:
    """`content` held for `path` (a new file in its project), the disk's text restored after;
    without, `path`'s lock held for a question of the disk's text (a change of the file is
    told meanwhile: `workspace/file_locks.py`)."""
    return ws.file_lock(path, disk=True) if content is None else overlaid(ws, {path: content})


async def _data(
    ws: Workspace, path: Path, stops: list[Stop] | None
) -> tuple[str, str | None, list[Diagnostic]] | None:
    """A JSON module's server, toolchain and items as its program's tsc says them
    (`program_data.data_file`); None: no server's file at all, or one a server answers."""
    if ws.handler(path) is not None:
        return None
    if (said := await data_file(ws, path, [] if stops is None else stops)) is None:
        return None
    items = convert_items(Converter(ws, said[0].encoding), path, said[1])
    return said[0].server, said[0].toolchain, items


def _mypy_alone(
    ws: Workspace, path: Path, judged: Judged, limit: int, budget: bool, offset: int
) -> DiagnosticsResult:
    """The result of a file mypy alone judges: its errors, and why mypy judged."""
    result = make_result(ws, path, SERVER, judged.toolchain, judged.items, limit, budget, offset)
    result.checker = judged.why
    return result


def tsc_stopped(
    ws: Workspace,
    raw: Stopped,
    result: DiagnosticsResult,
    items: list[Diagnostic],
    stops: list[Stop] | None,
) -> None:
    """`result`, a file tsc did not check beyond its syntax errors (`items`, converted: the
    line tsc says the first at; TypeScript 7's declaration pass's items beside them aside)
    or at all (another file's, `raw`'s, at its line), says so in its checker; the stop is
    added to `stops`."""
    syntax = [d.line for d in items if syntax_code(TSC, d.code)]
    own = ws.display(raw.file) == result.path
    at = ws.display(raw.file), min(syntax) if own and syntax else raw.line
    kind = "configuration" if at_configuration(TSC, [at[0]]) else "syntax"
    result.checker = (
        f"tsc stopped at the {kind} error at {at[0]}:{at[1]}: it reports a program's {kind} "
        "errors alone while it has any, so this file's other errors are not checked"
    )
    if stops is not None:
        stops.append(stop_of(TSC, [at], [result.path]))


def make_result(
    ws: Workspace,
    path: Path,
    server: str,
    toolchain: str | None,
    items: list[Diagnostic],
    limit: int = 100_000,
    budget: bool = False,
    offset: int = 0,
) -> DiagnosticsResult:
    """One file's result of its converted diagnostics: errors first, then by position; with
    `budget`, a page of `limit` from `offset` (fewer only where the answer budget ends)."""
    items.sort(key=lambda d: (d.severity != "error", d.line, d.column))

    def build(w: Window) -> DiagnosticsResult:
        return DiagnosticsResult(
            path=ws.display(path),
            server=server,
            toolchain=toolchain,
            environment=environment_hint(toolchain, items, ws.restricted, ws.root, path),
            fresh=True,
            errors=sum(d.severity == "error" for d in items),
            warnings=sum(d.severity == "warning" for d in items),
            diagnostics=items[w.offset : w.end],
            total=len(items),
            truncated=w.truncated,
            next_offset=w.next_offset,
        )

    if budget:  # the most that fit, from `offset`: never fewer for a larger limit
        return page(len(items), offset, limit, build, sizes=item_sizes(items))
    return build(Window(0, len(items), len(items)))  # every one (the whole check)
