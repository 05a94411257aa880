"""A preview's two states from the check engine: the disk's is the whole check's (kept and
incremental), the proposal's the engine's run with the proposed texts overlaid.

Before this, a preview asked the servers about the changed files and every file naming what
changed twice (the disk's text held, then the proposal's) and a third time when the two
differed. Now:
- the baseline is `check_all`'s result (reused while nothing changed on disk);
- TypeScript files a builder checks: the builder over a host serving the proposed texts
  (`lspd.engine.overlaid`), so only the files it would re-check are checked, and its kept
  state is left for the next real check;
- the files of other servers (basedpyright, TypeScript 7, ...): the proposed texts held while
  the files the whole check would ask after such an edit are asked (`engine/proposal_reach.py`);
  the disk's state of the files whose diagnostics differ is asked again (a checker that
  answers by the order it checks in must not make an error new: `comparison.difference`).
A new file outside the gate's check is asked in both states; a changed file on disk the gate
does not check is compared by neither (as `check --baseline`: the note says how many). The
comparison is `changes.compare`'s, an import of a file not written yet is set aside as
`ops/unwritten.py` says.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

from lspd.engine.comparison import Again, Found
from lspd.engine.overlaid_state import with_also
from lspd.engine.program_data import data_read, data_state
from lspd.engine.renames import renames
from lspd.engine.revisions import is_manifest, program_data
from lspd.engine.second_sample import sampled_again
from lspd.lsp.text import split_lines
from lspd.ops.baseline import Compared
from lspd.ops.changes import compare, diagnose
from lspd.ops.check import check_all
from lspd.ops.kept_found import Item, answer_of, keyed
from lspd.ops.models import DiagnosticsResult
from lspd.ops.overlaid_state import HeldAnswers, overlaid_state
from lspd.ops.unwritten import set_aside, unwritten
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.question import one_question
from lspd.workspace.scope import GateScope

Texts = Mapping[Path, str | None]


async def proposal_compared(
    ws: Workspace, proposed: Texts, only: Collection[Path] | None = None
) -> Compared:
    """What `proposed` (file -> its text, None: deleted) would introduce and fix against the
    disk, in the changed files and the files the engine would check again for them (with
    `only`, those of them it holds: a rename's, the files naming the name). One question:
    without a watcher, TypeScript 7's programs are listed once for it (`one_question`)."""
    with one_question():
        return await _compared(ws, proposed, only)


async def _compared(ws: Workspace, proposed: Texts, only: Collection[Path] | None) -> Compared:
    whole = await check_all(ws)  # the baseline: a stop there is said (`baseline_stopped`)
    disk = {ws.resolve(r.path): r for r in whole.results}
    # JSON modules and a package.json (`preview` took one tsc on a copy can hold): no server
    # holds their text, their programs' tsc -p on a copy does
    manifests = {p for p in proposed if is_manifest(p) and ws.handler(p) is None}
    data = set(await data_read(ws, proposed)) | manifests
    state = await overlaid_state(  # nor of a JSON no program reads
        ws, {p: t for p, t in proposed.items() if not _by_tsc(ws, p, manifests)}, set(disk), only
    )
    after, asked, stops = dict(state.results), state.asked, list(state.stopped)
    if data:  # their programs checked by their own tsc -p on a copy holding the proposal
        after.update(await data_state(ws, proposed, set(disk), HeldAnswers(ws), stops))
    apart = _apart(ws, proposed, disk, data)
    after = {p: r for p, r in after.items() if p not in apart}
    compared = set(after) | (set(proposed) - apart)
    before = {p: disk[p] for p in compared if p in disk}
    outside = [p for p in sorted(compared) if p not in disk and p.is_file()]
    outside = [p for p in outside if not _by_tsc(ws, p, manifests)]  # JSON: no server's
    outside = [p for p in outside if ws.handler(p) is not None]  # a py.typed mark: none
    before.update((ws.resolve(r.path), r) for r in (await diagnose(ws, outside, {})).results)
    olds, news = _found(before, {}), _found(after, proposed)
    moved = _renamed(ws, proposed)
    probe = compare(olds, news, "", [], "", renamed=moved)
    again = None
    if probe.introduced or probe.fixed:  # the servers' files once more, right after a switch
        differ = {ws.resolve(d.path) for d in (*probe.introduced, *probe.fixed) if d.path}
        files = sampled_again(ws, [p for p in asked if p in before], differ)
        checked = _by_path(ws, (await diagnose(ws, files, {})).results)
        checked = await with_also(ws, checked, {}, HeldAnswers(ws))  # each program's, as `disk`
        again = Again("before", _found({**before, **checked}, {}))
    changed = sorted(proposed)
    others = [p for p in after if p not in proposed and p not in state.not_anew]
    by_mypy = sum(after[p].server.startswith("mypy") for p in others)  # its run: every file
    note = _note(len(changed), len(others), only is not None, by_mypy)
    if apart:
        note += (
            f"; {len(apart)} changed file(s) the gate does not check, not compared "
            "(`lspd check --baseline` compares none either)"
        )
    note += _unproven(ws, whole.scope, changed)
    if data:
        json = ", ".join(ws.display(p) for p in sorted(data))
        note += f"; {json}: its programs checked by their own tsc -p on a copy with the proposal"
    shown = [ws.display(p) for p in changed]
    if moved:
        note += "; renamed: " + ", ".join(f"{a} -> {b}" for a, b in sorted(moved.items())[:5])
    texts = {ws.display(p): read_text(p) for p in proposed}  # the disk's: the baseline's
    texts |= {new: texts.get(old) for old, new in moved.items()}
    changes = compare(olds, news, "disk", shown, note, again, stops, moved, whole.stopped, texts)

    def line_of(path: Path, line: int) -> str:
        text = proposed[path] if path in proposed else read_text(path)
        lines = split_lines(text or "")
        return lines[line - 1] if 0 < line <= len(lines) else ""

    results = [after[p] for p in sorted(after)]
    seen = [answer_of(found) for found in news]
    kept = set_aside(changes, results, seen, unwritten(proposed), ws.resolve, line_of, ws.display)
    return Compared(kept.changes, kept.results)


def _apart(
    ws: Workspace, proposed: Texts, disk: Mapping[Path, object], data: Collection[Path]
) -> set[Path]:
    """The changed files on disk the gate does not check (no program its tsc runs holds
    them, no configuration of its checker names them): their errors are none of the gate's,
    and `check --baseline` compares none of them (a preview said neverthrow's
    tests/safe-try.test.ts TS2322, ky's test/prefix.ts TS2322, where their gates pass)."""
    return {
        p
        for p in proposed
        if p not in disk and p not in data and p.is_file() and ws.handler(p) is not None
    }


def _unproven(ws: Workspace, scope: GateScope | None, changed: list[Path]) -> str:
    """The runs of the gate lspd does not make over a changed file's folder, as the scope
    says them (`ProjectScope.unrun`): p-limit's preview of a signature change tsd's tests
    break said "0 new", with no word of them."""
    unrun = [] if scope is None else [p for p in scope.projects if p.unrun and p.note]
    said = [
        f"; {ws.display(p.project)}: {p.note} (this change is not proven against them)"
        for p in unrun
        if any(p.project == c or p.project in c.parents for c in changed)
    ]
    return "".join(dict.fromkeys(said))


def _by_tsc(ws: Workspace, path: Path, manifests: Collection[Path]) -> bool:
    """Whether `path` is held for tsc on a copy alone (a JSON module, a package.json)."""
    return path in manifests or program_data(ws, path)


def _renamed(ws: Workspace, proposed: Texts) -> dict[str, str]:
    """The files `proposed` renames (a deletion and a new file, their texts at least half
    alike: `engine/renames.py`; a diff's `rename from/to` is one), as shown: old -> new."""
    gone = [p for p, text in proposed.items() if text is None]
    new = {p: t for p, t in proposed.items() if t is not None and not p.exists()}
    if not gone or not new:
        return {}
    disk = {p: read_text(p) for p in gone} | dict.fromkeys(new)
    moved = renames(disk, {**dict.fromkeys(gone), **new})
    return {ws.display(old): ws.display(path) for old, path in moved.items()}


def _by_path(ws: Workspace, results: list[DiagnosticsResult]) -> dict[Path, DiagnosticsResult]:
    return {ws.resolve(r.path): r for r in results}


def _found(results: Mapping[Path, DiagnosticsResult], texts: Texts) -> list[Found[Item]]:
    """Each diagnostic of `results` with its identity across states (`engine/comparison.Found`): the
    source text it points at, read from `texts` (the disk's for the other files)."""
    found: list[Found[Item]] = []
    for path in sorted(results):
        result = results[path]
        if not result.diagnostics:  # mypy answers for every file: most have none to read
            continue
        text = texts[path] if path in texts else read_text(path)
        found += keyed(result.diagnostics, split_lines(text or ""), result.path)
    return found


def _note(changed: int, checked: int, naming: bool = False, by_mypy: int = 0) -> str:
    """How the compared files were chosen, as the answer says it: mypy checks its whole
    project in one run, whatever changed (`by_mypy` of the other files are its)."""
    which = "naming a changed declaration " if naming else ""
    reached = (
        f"{which}the check would re-check for it (the files importing one whose declarations "
        "change)"
    )
    others = f"{checked} other file(s) {reached}"
    if by_mypy:
        mypy = (
            f"{by_mypy} in mypy's run of their whole project (every file of it, whatever changed)"
        )
        rest = f", {checked - by_mypy} {reached}" if checked > by_mypy else ""
        others = f"{checked} other file(s): {mypy}{rest}"
    return (
        f"{changed} changed file(s) and {others}; the others keep the disk's diagnostics "
        "(`lspd check` checks everything)"
    )
