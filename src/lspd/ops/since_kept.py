"""`check --baseline REV` from the kept result: the work tree's incremental whole check
(`check_all`, re-checking what the edits affect) compared file by file with the kept result
of the baseline's commit (`engine/committed.py`: HEAD's, another commit's, or the session's),
never a second check of the old texts; with paths, only their files are compared, and
their files outside the gate (or every file's, with `--all`) as `lspd.ops.beyond_gate` has
them.

Only the changed files and the files whose diagnostics differ from the kept ones are
compared (a result reused from the last check is known to be the same: its verdict is
kept with it); a diagnostic is the same in both when its file, severity, code, message and
the source text it points at agree, as `lspd.ops.changes.compare` has it, so lines shifted
by an edit above it do not make it new.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.committed import Attempts, Committed, Unsettled, said_moved, unchanged
from lspd.engine.comparison import Again
from lspd.engine.kept import said_where
from lspd.engine.mypy_project import project_of
from lspd.engine.named import Named
from lspd.engine.python_affected import PYTHON
from lspd.engine.renames import renames
from lspd.engine.revisions import is_configuration, program_data
from lspd.engine.seen import FileSeen
from lspd.engine.stops import Stop
from lspd.errors import InvalidInput
from lspd.ops.baseline import Compared
from lspd.ops.beyond_gate import Part, beyond_gate
from lspd.ops.changes import compare
from lspd.ops.checked import Checked
from lspd.ops.committed import Whole, committed
from lspd.ops.kept_found import found_in, found_of
from lspd.ops.models import DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.per_workspace import PerWorkspace

log = logging.getLogger(__name__)

# What a question adds to the gate's part of files outside the gate (`beyond_gate`), of
# the kept result and the work tree's check it was read beside; None: nothing.
Beyond = Callable[[Committed[Checked]], Awaitable[Part | None]]


@dataclass
class Verdicts:
    """Whether a file's result is the kept one's, by result object (results are reused
    from check to check while the file cannot have changed)."""

    same: dict[str, tuple[DiagnosticsResult, FileSeen, bool]] = field(default_factory=dict)

    def of(self, result: DiagnosticsResult, kept: FileSeen) -> bool:
        last = self.same.get(result.path)
        if last is not None and last[0] is result and last[1] is kept:
            return last[2]
        verdict = _plain(result) == [said_where(d) for d in kept.diagnostics]
        self.same[result.path] = (result, kept, verdict)
        return verdict


_verdicts = PerWorkspace(Verdicts)


async def since_committed(
    ws: Workspace,
    baseline: str,
    keep: Callable[[Path], bool],
    whole: Whole,
    wider: Whole | None = None,
    named: Named | None = None,
) -> Compared:
    """What changed since `baseline` (HEAD, another commit, `session`) from its kept
    result: in the gate's files `keep` accepts, and with `wider` (the work tree's check of
    the paths asked, or of every file) in its files outside the gate too: those the
    engine would check again for the change, checked at `baseline`'s texts
    (`lspd.ops.beyond_gate`). A check that left a file unanswered raises `NotKept`.
    `named`: what the question found `baseline` names (asked again otherwise)."""

    async def outside(found: Committed[Checked]) -> Part | None:
        return None if wider is None else await beyond_gate(ws, found, keep, await wider())

    found, part = await settled(ws, baseline, whole, keep, outside, named)
    said_moved(ws, found)  # its note is this answer's scope
    return compared(ws, found, baseline, part)


async def settled(
    ws: Workspace,
    baseline: str,
    whole: Whole,
    keep: Callable[[Path], bool],
    beyond: Beyond,
    named: Named | None = None,
) -> tuple[Committed[Checked], Part]:
    """The kept result of `baseline` beside the work tree's check (`committed`), and the
    part compared (the gate's files `keep` accepts, and what `beyond` adds of files outside
    the gate), of one disk state: the texts the snippets and line shifts are read from are
    the ones the check saw. The watcher's count is read again after they are read (every
    change made before counted); changed since the check, it is all made again (the check
    re-checks only what changed), then `Unsettled`. Before, a file written between the
    check and the reading of its text gave its diagnostics snippets of other lines: an
    unchanged error "introduced" and "fixed" at once. The whole checks made here and by
    `committed`'s own retries share one budget (`Attempts`: 3 in all, where the two nested
    loops made up to 9 while files kept changing, the hook holding the gate)."""
    attempts = Attempts()
    while True:
        found = await committed(ws, baseline, whole, attempts, named)
        part = await asyncio.to_thread(gate_part, ws, found, keep)
        if (more := await beyond(found)) is not None:
            part = part.joined(more)
        left_gate(ws, found, keep, part)
        if await unchanged(ws, found.checked.changes):
            return found, part
        if attempts.left <= 0:
            raise Unsettled(
                f"the files kept changing while they were compared with {baseline}; "
                "ask again once the edits settle"
            )
        log.info("files changed while the comparison with %s read them: made again", baseline)


def gate_part(ws: Workspace, found: Committed[Checked], keep: Callable[[Path], bool]) -> Part:
    """The gate's files `keep` accepts that changed or whose result differs from the kept
    one, in both states; the changed files are all the gate's that differ from it (the
    change is the work tree's, whichever files the question is about). A file of the
    baseline's gate deleted since is one of them, its kept diagnostics fixed: before, only
    the work tree's gate was walked, and a deleted file is no longer in it (pydantic: 1
    fixed where the checker says 23)."""
    gate = None if found.checked.scope is None else set(found.checked.scope.files)
    kept_files = found.state.files
    changed_paths = {p for p in {*found.delta.before, *found.delta.after}}
    changed_paths = {
        p
        for p in changed_paths
        if gate is None or p in gate or ws.display(p) in kept_files or program_data(ws, p)
    }
    changed = {ws.display(p) for p in changed_paths}
    verdicts = _verdicts.of(ws)
    part = Part(changed=changed, gate=len(found.checked.results))
    moved = renames(found.delta.before, found.delta.after)  # a plain `mv` too: by their texts
    part.renamed = {
        ws.display(old): ws.display(new)
        for old, new in moved.items()
        if {old, new} <= changed_paths
    }
    for result in found.checked.results:
        kept = found.state.files.get(result.path)
        if not keep(ws.root / result.path):
            continue
        if result.path not in changed and kept is not None and verdicts.of(result, kept):
            part.same += len(result.diagnostics)  # the kept ones: unchanged, not compared
            continue
        part.results.append(result)
        text = read_text(ws.root / result.path) if result.diagnostics else None
        now = found_in(result, text)
        part.after += now
        sample = found.again.get(result.path)
        if sample is not None and sample[0] is result:  # this result's second sample
            part.again = (part.again or []) + found_of(sample[1])
        elif part.again is not None or found.again:
            part.again = (part.again or []) + now
        if kept is not None:
            part.before += found_of(kept)
    gone = {ws.display(p) for p, text in found.delta.after.items() if text is None}
    for path in sorted(gone & changed):  # deleted since: no result now, its diagnostics fixed
        if (kept := kept_files.get(path)) is not None and keep(ws.root / path):
            part.before += found_of(kept)
    return part


def left_gate(
    ws: Workspace, found: Committed[Checked], keep: Callable[[Path], bool], part: Part
) -> None:
    """The files of the baseline's gate (its kept result) that the gate leaves out now,
    unchanged and still there (a tsconfig's `include`, pyright's `include`, mypy's `files`
    narrowed), added to `part`: no checker answers them now, so their kept diagnostics are
    fixed, as the project's own gate counts them (tsc -p: the error gone). Before, they were
    in neither state: 0 fixed, 0 unchanged, not a word. A file the check left unanswered is
    not one of them (not known now), nor one that cannot have left (`_could_leave`)."""
    now = {r.path for r in [*found.checked.results, *part.results]}
    now |= {s.path for s in found.checked.skipped}
    for path in sorted(set(found.state.files) - now - part.changed):
        if (
            keep(ws.root / path)
            and (ws.root / path).is_file()
            and _could_leave(ws, found, part, path)
        ):
            if not is_configuration(ws.root / path):  # its edit fixed its errors: it left nothing
                part.left.append(path)
            part.before += found_of(found.state.files[path])


def _could_leave(ws: Workspace, found: Committed[Checked], part: Part, path: str) -> bool:
    """Whether `path` (unchanged since the baseline) can have left the gate: a configuration
    edited (an `include`, mypy's `files`), or a changed file the gate's listing follows: for
    TypeScript's program any (a `/// <reference>` or an import of it dropped), for a Python
    file of a mypy-gated project a Python file (its gate is the modules its files import:
    `mypy_follow`), of another a package's `__init__.py`; a Python file's place is its
    configuration's otherwise (mypy's `.pth` files key the kept result). Not
    every file of the kept result was the gate's: a stub outside it (basedpyright's
    `stubPath`, `mypy_path`) deleted when it was made is there, its text held for its
    importers; once restored, it left nothing (the examiner's F1: "1 file(s) left the gate
    since" on a clean tree)."""
    if found.edited:
        return True
    if path.endswith(PYTHON):
        changed = [c for c in part.changed if c.endswith(PYTHON)]
        if changed and _followed(ws, ws.root / path):
            return True
        return any(Path(c).name == "__init__.py" for c in changed)
    return bool(part.changed)


def _followed(ws: Workspace, path: Path) -> bool:
    """Whether `path` is a file of a mypy-gated project (its gate follows imports)."""
    try:
        return project_of(ws, path) is not None
    except InvalidInput:
        return False


def compared(ws: Workspace, found: Committed[Checked], baseline: str, part: Part) -> Compared:
    """The engine's difference of `part`'s two states, with the note saying what was
    compared."""
    state = found.state
    configs = _configs_edited(ws, found)
    changed = sorted(part.changed | configs)
    edited = f" (the configuration: {', '.join(sorted(configs))})" if configs else ""
    note = (
        f"{_counted(ws, found, part, changed)}{edited}; the gate's {part.gate} files as "
        f"`lspd check` has them against the kept result of {state.key.commit[:12]} "
        f"({found.note}){found.edited}; {_differing(found, part, baseline)}"
    )
    if part.beyond is not None:
        note += f"; {part.beyond}"
    if part.left:
        named = ", ".join(part.left[:3]) + (", ..." if len(part.left) > 3 else "")
        note += f"; {len(part.left)} file(s) left the gate since (their errors fixed): {named}"
    if part.renamed:
        moved = sorted(part.renamed.items())[:5]
        note += "; renamed: " + ", ".join(f"{a} -> {b}" for a, b in moved)
    again = None if part.again is None else Again("after", part.again)
    stops = [*found.checked.stopped, *part.stops]  # tsc's or mypy's stop: not checked
    changes = compare(
        part.before,
        part.after,
        baseline,
        changed,
        note,
        again,
        stops,
        part.renamed,
        baseline_stops(found, part),  # what they did not check there is not new
        _texts_then(ws, found, part),
    )
    # Every diagnostic in both states is unchanged, as `preview` counts them (the field's
    # rule): before, only those of the files compared were, "0 unchanged" on a clean tree.
    changes.unchanged += part.same
    return Compared(changes, part.results)


def _differing(found: Committed[Checked], part: Part, baseline: str) -> str:
    """The gate's files compared with the kept result, by why: changed since (their
    diagnostics the same or not), or unchanged with diagnostics other than the kept ones
    (or none kept). Before, all were "N file(s) differ from it": a changed file whose
    diagnostics were the same counted as one differing (5 said where 4 files' did)."""
    gate = part.results[: len(part.results) - part.outside]  # the files beyond it follow
    changed = sum(r.path in part.changed for r in gate)
    unkept = sum(r.path not in part.changed and r.path not in found.state.files for r in gate)
    said = [f"{changed} changed since {baseline}"] if changed else []
    if differ := len(gate) - changed - unkept:
        said.append(f"{differ} unchanged whose diagnostics differ from it")
    if unkept:
        said.append(f"{unkept} unchanged, not in it")
    why = f": {', '.join(said)}" if said else ""
    return f"{len(gate)} file(s) compared with it{why}"


def _counted(ws: Workspace, found: Committed[Checked], part: Part, changed: list[str]) -> str:
    """How many files changed, and how many of them the comparison holds where others are
    outside it (the gate's; and the question's files beyond it): before, the one changed
    file outside the gate was "0 changed file(s)"."""
    elsewhere = {ws.display(p) for p in found.delta.before} - set(changed)
    if not elsewhere:
        return f"{len(changed)} changed file(s)"
    held = "in the gate" if part.beyond is None else "compared"
    return f"{len(changed) + len(elsewhere)} changed file(s), {len(changed) or 'none'} {held}"


def _configs_edited(ws: Workspace, found: Committed[Checked]) -> set[str]:
    """The configurations the gate reads that differ from the baseline's, where the kept
    result says some do (`Committed.edited`): changed files too. Before, a tsconfig.json
    edited alone was '0 changed file(s)' over the errors it introduced. As the kept
    result's key read them (`Committed.then`): before, read again here (a git listing and a
    show per configuration)."""
    if not found.edited or found.checked.scope is None:
        return set()
    return {ws.display(path) for path in found.then}


def _texts_then(ws: Workspace, found: Committed[Checked], part: Part) -> dict[str, str | None]:
    """The changed files' texts at the baseline, by their path now (a renamed file's, its
    old path's)."""
    texts = {ws.display(path): text for path, text in found.delta.before.items()}
    return texts | {new: texts.get(old) for old, new in part.renamed.items()}


def baseline_stops(found: Committed[Checked], part: Part) -> list[Stop]:
    """The baseline's checkers that stopped at syntax errors: the kept result's (the gate's
    files) and those of the files outside the gate checked at the baseline's texts."""
    return [*found.state.stopped, *part.before_stops]


def _plain(result: DiagnosticsResult) -> list[tuple[object, ...]]:
    return [said_where(d) for d in result.diagnostics]
