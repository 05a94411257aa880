"""Diagnostics of files with other texts held, and which of them a change introduced.

`diagnose` asks the warm servers with some files' other text held as unsaved content (an
overlay: the text at a git revision, or a proposal): the engine's old or proposed state of
the files it says a change can reach (`ops/overlaid_state.py`, `ops/file_since_baseline.py`).
`compare` turns the engine's comparison (`engine/comparison.py`: a diagnostic is the same
one in both states when its file, severity, code, message and the source text it points at
agree, so lines shifted by an edit above it do not make it new) into the answer's `Changes`;
the baseline's diagnostics that a checker stopped at a syntax error did not check in the
changed state are not fixed: `Changes.stopped` says where it stopped and how many. A
renamed file's diagnostics are its new path's (`renamed`, `Changes.renamed`).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.comparison import Again, Found, difference
from lspd.engine.dependents import Texts
from lspd.engine.held_asks import held_asked
from lspd.engine.mypy_step import SERVER, toolchain_of
from lspd.engine.stops import TSC, Hiding, Stop, hiding, stop_of, syntax_code
from lspd.lsp import shapes
from lspd.lsp.diagnostics import Stopped as TscStopped
from lspd.lsp.text import split_lines
from lspd.ops.convert import Converter, convert_items
from lspd.ops.kept_found import Item, answer_of, keyed
from lspd.ops.models import Changes, Diagnostic, DiagnosticsResult, FileDiagnostic
from lspd.ops.mypy_answers import mypy_diagnosed
from lspd.ops.stopped_model import Stopped
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.overlay import overlaid


@dataclass(frozen=True)
class Diagnosed:
    """The diagnostics of some files in one state: for comparing, and per file."""

    found: list[Found[Item]]
    results: list[DiagnosticsResult]
    stops: list[Stop]  # the checkers that stopped at syntax errors (mypy's runs, tsserver's)


async def diagnose(ws: Workspace, files: list[Path], texts: Texts) -> Diagnosed:
    """The diagnostics of `files` while the servers hold `texts` for those files (the disk
    for the rest); files that do not exist in that state have none. Files opened only for
    this are closed again."""
    present = [f for f in files if (texts[f] is not None if f in texts else f.is_file())]
    opened_before = {f for f in present if ws.holds(f)}
    found: list[Found[Item]] = []
    results: list[DiagnosticsResult] = []
    overlay = {path: text for path, text in texts.items()}
    # mypy-gated projects: their mypy, the held texts in its daemon's copy (`ops/mypy_answers.py`).
    stops: list[Stop] = []
    judged, own, checkers = await mypy_diagnosed(ws, present, texts, stops)
    label = functools.cache(functools.partial(toolchain_of, ws))  # once per project
    present += [p for p in judged if p not in present and not own[p].pyright_judges(p)]  # mypy's
    served = [f for f in present if f not in judged or own[f].pyright_judges(f)]
    # a configuration no server handles reaches mypy's copy alone (`engine/mypy_configured`);
    # basedpyright holds mypy's own files too, as its files' imports see them (attrs' stub
    # edited, its typing_tests judged by both: the disk's reportCallIssue at HEAD's texts)
    held = {p: t for p, t in overlay.items() if ws.handler(p) is not None}
    async with overlaid(ws, held, served):
        try:
            heard = await held_asked(ws, served, overlay)  # a few at a time, two servers
            for file in present:
                # Each file's conversion is the loop's: SQLAlchemy's 350,000 diagnostics held
                # it 10 s in one go, /health unanswered (`lspd stop` took it for dead).
                await asyncio.sleep(0)
                items = list(judged.get(file, []))
                if file in served:
                    said, lines = heard[file].said, heard[file].lines
                    own_items = convert_items(Converter(ws, said.encoding), file, heard[file].items)
                    items += own_items
                    server, toolchain = said.server, said.toolchain
                    stops += _tsc_stop(ws, file, heard[file].items, own_items)
                else:
                    server, toolchain = SERVER, label(own[file])
                    text = (overlay.get(file) or read_text(file) or "") if items else ""
                    lines = split_lines(text)  # read where mypy said something of it
                shown = ws.display(file)
                items.sort(key=lambda d: (d.severity != "error", d.line, d.column))
                results.append(
                    DiagnosticsResult(
                        path=shown,
                        server=server,
                        toolchain=toolchain,
                        checker=checkers.get(file),
                        errors=sum(d.severity == "error" for d in items),
                        warnings=sum(d.severity == "warning" for d in items),
                        diagnostics=items,
                        total=len(items),
                    )
                )
                found += keyed(items, lines, shown)
        finally:
            for file in served:
                if file not in opened_before and file not in overlay:
                    ws.close_document(file)
    return Diagnosed(found, results, stops)


def _tsc_stop(
    ws: Workspace, file: Path, raw: list[shapes.Diagnostic], items: list[Diagnostic]
) -> list[Stop]:
    """tsserver's answer (lspd's plugin) of a file whose program tsc stops at a syntax error
    (`lsp/diagnostics.Stopped`: at the file's own first, `items`, or another file's), as
    the stop a one-file answer makes (`file_diagnostics.tsc_stopped`); else none. Before,
    a held state dropped it: a file outside the gate whose syntax error HEAD held had its
    type errors, not checked there, introduced once the syntax error was fixed."""
    if not isinstance(raw, TscStopped):
        return []
    line = min(d.line for d in items) if items else raw.line
    return [stop_of(TSC, [(ws.display(raw.file), line)], [ws.display(file)])]


def compare(before: list[Found[Item]], after: list[Found[Item]],
            baseline: str, changed: list[str], scope: str,
            again: Again[Item] | None = None,
            stops: Sequence[Stop] = (),
            renamed: Mapping[str, str] | None = None,
            before_stops: Sequence[Stop] = (),
            before_texts: Mapping[str, str | None] | None = None) -> Changes:  # fmt: skip
    """The engine's difference of the two states (`engine/comparison.py`: introduced, fixed
    and unchanged, with `again` a second check of one state) as the answer's `Changes`;
    `stops`: the checkers of the changed state that stopped at syntax errors (what they
    did not check is not fixed: `stopped`); `renamed`: old path -> new path of the files
    the change renamed (their diagnostics compared as the new path's); `before_stops`: the
    baseline's (what they did not check is not introduced: `baseline_stopped`), save what
    `before_texts` (the changed files' texts there, by their path now) rule out."""
    which, was = (
        hiding(stops, set(changed), before_stops),
        hiding(before_stops, set(changed), stops),
    )
    hidden = (lambda f: _hidden_by(which, f)) if stops else None
    texts = before_texts or {}
    unseen = (lambda f: _unseen(was, f, set(changed), texts)) if before_stops else None
    found = difference(before, after, again, hidden, renamed, unseen, _place)
    order = _worst_first
    unchecked, unseen_ones = _answers(found.unchecked), _answers(found.unseen)
    return Changes(
        baseline=baseline,
        introduced=sorted(_answers(found.introduced), key=order),
        fixed=sorted(_answers(found.fixed), key=order),
        fixed_total=len(found.fixed),
        unchanged=found.unchanged,
        changed=changed,
        scope=scope,
        stopped=stopped(stops, unchecked, renamed, which),
        baseline_stopped=stopped(before_stops, unseen_ones, None, was) if before_stops else [],
        renamed=dict(sorted((renamed or {}).items())),
    )


def _place(found: Found[Item]) -> tuple[int, int]:
    """Where a diagnostic is: of alike ones, those at a place both states have are the same."""
    return found.diagnostic.line, found.diagnostic.column


def stopped(
    stops: Sequence[Stop],
    unchecked: list[FileDiagnostic],
    renamed: Mapping[str, str] | None = None,
    which: Hiding | None = None,
) -> list[Stopped]:
    """Each stop: where it stopped, and which files' baseline diagnostics (`unchecked`) it
    left unchecked, how many (none: still said, as what the change breaks
    elsewhere is not known either); a renamed file's, by its new path (`renamed`); `which`:
    the comparison's `hiding` of `stops`."""
    which = which or hiding(stops)
    hid: dict[Stop, list[FileDiagnostic]] = {stop: [] for stop in stops}
    for diagnostic in unchecked:
        path = (renamed or {}).get(diagnostic.path or "", diagnostic.path)
        if (stop := which(path, diagnostic.code, diagnostic.source)) is not None:
            hid[stop].append(diagnostic)
    said: list[Stopped] = []
    for stop, diagnostics in hid.items():
        files = sorted({d.path or "" for d in diagnostics})
        at = [f"{path}:{line}" for path, line in stop.at[:5]]
        said.append(
            Stopped(
                checker=stop.checker,
                at=at,
                files=files[:10],
                not_checked=len(diagnostics),
                why=stop.why or None,
            )
        )
    return said


def _answers(found: list[Found[Item]]) -> list[FileDiagnostic]:
    return [answer_of(f) for f in found]


def _hidden_by(which: Hiding, found: Found[Item]) -> Stop | None:
    """The stop that hides a baseline diagnostic (None: its checker checked its file)."""
    d = found.diagnostic
    return which(found.key[0], d.code, d.source)


def _unseen(
    was: Hiding, found: Found[Item], changed: set[str], texts: Mapping[str, str | None]
) -> bool:
    """Whether a new diagnostic is one the baseline's stopped checker did not check (not
    introduced). A syntax error of a file the change changed is introduced all the same: it
    is that text's own (mypy read no file but the one it stopped at, so a file breaking as
    the change fixes that one was `unseen`, and the hook let the new syntax error pass).
    So is a diagnostic of a changed file whose snippet its baseline text (`texts`) does not
    hold: no baseline diagnostic can have its key (the snippet is in it), whatever the
    checker would have said there (a type error the agent wrote, HEAD's checker stopped)."""
    stop = _hidden_by(was, found)
    if stop is None:
        return False
    path, snippet = found.key[0], found.key[4]
    if path in texts and snippet and snippet not in (texts[path] or ""):
        return False
    return not (path in changed and syntax_code(stop.checker, found.diagnostic.code))


def _worst_first(d: FileDiagnostic) -> tuple[bool, str, int, int]:
    return (d.severity != "error", d.path or "", d.line, d.column)
