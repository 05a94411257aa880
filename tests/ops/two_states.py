"""The two-state comparison lspd answered baselines with before issue 40, kept here as the
tests' reference: the changed files and the files naming what changed (`ranked`, with
`engine/dependents`' words) checked with the old texts held, then the new, and the first
state again when they differ (`diagnose_both`; one file's baseline: `file_changes`). lspd
itself compares two states held nowhere now: it answers from the kept result and the
engine; the tests compare the two on real servers."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.comparison import Again
from lspd.engine.dependents import GENERIC, Texts, changed_names, names, source_text, word
from lspd.engine.revisions import differences
from lspd.ops.changes import Diagnosed, compare, diagnose
from lspd.ops.kept_found import answer_of
from lspd.ops.models import Changes, FileDiagnostic
from lspd.ops.unwritten import set_aside, unwritten
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope

MAX_DEPENDENTS = 200  # files naming what changed, checked beside the changed ones
SIZE_STEP = 20_000  # characters: files within a step of each other count as the same size


async def changes_since(
    ws: Workspace,
    baseline: str,
    keep: Callable[[Path], bool] = lambda _: True,
    within: Callable[[Path], bool] | None = None,
) -> Changes:
    """What changed since `baseline` in the changed files `keep` accepts and the files
    naming what changed; with `within`, only in the files it accepts."""
    delta = await asyncio.to_thread(differences, ws, baseline)
    inside = within or (lambda _: True)
    before = {p: t for p, t in delta.before.items() if keep(p) and inside(p)}
    after = {p: t for p, t in delta.after.items() if keep(p) and inside(p)}
    return await compare_states(ws, baseline, before, after, within=within)


async def in_gate(ws: Workspace, baseline: str = "HEAD") -> Changes:
    """`changes_since` in the gate's files and the files deleted since (what `check
    --baseline` compares: a deleted file of the baseline's gate, its diagnostics fixed)."""
    gate = frozenset((await gate_scope(ws)).files)
    return await changes_since(ws, baseline, within=lambda p: p in gate or not p.exists())


async def compare_states(
    ws: Workspace,
    baseline: str,
    before: Texts,
    after: Texts,
    importers: bool = True,
    within: Callable[[Path], bool] | None = None,
) -> Changes:
    """`before` held against `after` held, in the changed files and those naming what
    changed (with `importers`, importing a changed module too)."""
    changed = sorted(set(before) | set(after))
    found = await asyncio.to_thread(ranked, ws, before, after, importers)
    depending = [r.path for r in found[:MAX_DEPENDENTS]]
    if within is not None:
        depending = [p for p in depending if within(p)]
    files = sorted({*changed, *depending})
    first = "before" if all(read_text(p) == t for p, t in before.items()) else "after"
    both = await diagnose_both(ws, files, before, after, first)
    shown = [ws.display(p) for p in changed]
    changes = compare(both.before.found, both.after.found, baseline, shown, "", both.again)

    def line_of(path: Path, line: int) -> str:
        text = after[path] if path in after else read_text(path)
        lines = (text or "").splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""

    seen = [answer_of(f) for f in both.after.found]
    new = unwritten(after)
    kept = set_aside(changes, both.after.results, seen, new, ws.resolve, line_of, ws.display)
    return kept.changes


@dataclass(frozen=True)
class Both:
    """Two states' diagnostics, and a second check of the first when they differed."""

    before: Diagnosed
    after: Diagnosed
    again: Again[FileDiagnostic] | None


async def diagnose_both(
    ws: Workspace, files: list[Path], before: Texts, after: Texts, first: str
) -> Both:
    """`files` checked with `before` held and with `after` held, `first` ("before" or
    "after": the state the servers hold already, so it costs no switch) first. When the two
    differ, the first state is checked once more: the same files in the same order, right
    after a switch as the second was, so the server's state and order are the same for
    both; the first check may have been answered from what the server had before."""
    texts = {"before": before, "after": after}
    second = "after" if first == "before" else "before"
    one = await diagnose(ws, files, texts[first])
    two = await diagnose(ws, files, texts[second])
    by_side = {first: one, second: two}
    probe = compare(by_side["before"].found, by_side["after"].found, "", [], "")
    again = None
    if probe.introduced or probe.fixed:
        again = Again(first, (await diagnose(ws, files, texts[first])).found)
    return Both(by_side["before"], by_side["after"], again)


async def file_changes(ws: Workspace, path: Path, content: str | None, baseline: str) -> Changes:
    """One file's question in two states (lspd's before issue 40): every changed file held
    as it was at `baseline` (a change elsewhere may be what broke it), then the disk's;
    `content` stands for the file's text now."""
    delta = await asyncio.to_thread(differences, ws, baseline)
    now: Texts = {} if content is None else {path: content}
    both = await diagnose_both(
        ws, [path], delta.before, now, "after" if content is None else "before"
    )
    changed = [ws.display(p) for p in sorted({*delta.before, *delta.after})]
    return compare(both.before.found, both.after.found, baseline, changed, "this file", both.again)


@dataclass(frozen=True)
class Dependent:
    """A file that may gain or lose errors from a change, and how near to it it is."""

    path: Path
    rank: int  # 0: calls a changed declaration, 1: names one, 2: names a changed module only
    distance: int  # directories between it and the nearest changed file
    size: int  # characters: of two files as near, the smaller is checked sooner


def ranked(ws: Workspace, before: Texts, after: Texts, importers: bool = True) -> list[Dependent]:
    """The files naming what changed, nearest first: the call sites of a changed
    declaration, then the files naming one otherwise, then (with `importers`) those naming
    only a changed module; within each, smaller files first, then the files in the
    directories nearest a changed file (the order lspd's hook compared them in)."""
    changed = set(before) | set(after)
    declared = changed_names(before, after) - GENERIC
    modules = ({path.stem for path in changed} - GENERIC - declared) if importers else set()
    if not declared and not modules:
        return []
    homes = [path.parent.parts for path in changed]
    found: list[Dependent] = []
    for file in ws.projects.source_files():
        text = None if file in changed else source_text(file)
        present = set() if text is None else {n for n in declared | modules if names(text, n)}
        if text is None or not present:
            continue
        named = tuple(sorted(present & declared))
        rank = 2 if not named else (0 if _calling(text, named) else 1)
        distance = min(_distance(file.parent.parts, home) for home in homes)
        found.append(Dependent(file, rank, distance, len(text)))
    found.sort(key=lambda d: (d.rank, d.size // SIZE_STEP, d.distance, str(d.path)))
    return found


_IMPORT = re.compile(r"\s*(?:from|import|export|#|//)")


def _calling(text: str, called: tuple[str, ...]) -> bool:
    """Whether a line of `text` other than an import uses one of `called` with a call, a
    type argument or an attribute (`name(`, `name<`, `name.`)."""
    for line in text.splitlines():
        for name in called:
            at = line.find(name)
            if at < 0 or _IMPORT.match(line):
                continue
            while at >= 0:
                end = at + len(name)
                after = line[end:].lstrip()[:1]
                if after in ("(", "<", ".") and after and (at == 0 or not word(line[at - 1])):
                    return True
                at = line.find(name, end)
    return False


def _distance(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        shared += 1
    return len(a) + len(b) - 2 * shared
