"""A baseline comparison that goes nearest-first and can be read while it runs.

After an edit the question is "what did it break?", and most of the answer is in the edited
files and at the call sites of what they changed. So the changed files are compared first,
then the files calling a changed declaration, then those naming it otherwise, then mere
importers (`lspd.engine.dependents.ranked`), in few batches that grow: the first errors come in a
fraction of the whole comparison's time, and whoever waits for it (an agent's hook with a
3 s budget) reads what was found so far. Each batch holds the workspace's gate alone only
while it runs, so other questions are answered between batches.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.comparison import Found
from lspd.engine.dependents import Dependent, Texts, ranked
from lspd.engine.revisions import differences
from lspd.ops.changes import compare, diagnose_both
from lspd.ops.models import FileDiagnostic
from lspd.workspace import Workspace

log = logging.getLogger(__name__)

FIRST_BATCH = 2  # dependents compared after the changed files; then four times as many
MAX_BATCH = 128  # files compared per turn of the gate (other questions wait for a turn)
MAX_FILES = 2000  # dependents compared at most (a change to something everything names)

Stamp = tuple[int, int] | None  # a file's (mtime_ns, size) on disk; None: absent


def stamp(path: Path) -> Stamp:
    """What tells whether a file changed since it was read."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


@dataclass(frozen=True)
class Introduced:
    """A diagnostic the change introduced, with its identity across checks."""

    diagnostic: FileDiagnostic
    key: tuple[str, str, str | None, str, str]
    file: Path


@dataclass
class Progress:
    """A comparison as it goes: what was compared, what was found, what remains."""

    baseline: str
    edited: list[Path]  # the files it was asked about
    began: float = field(default_factory=time.monotonic)
    at_start: dict[Path, Stamp] = field(default_factory=dict)  # the edited files then
    changed: list[Path] = field(default_factory=list)  # of those, the ones differing from it
    dependents: list[Dependent] = field(default_factory=list)
    compared: int = 0  # files compared so far (changed ones first)
    introduced: list[Introduced] = field(default_factory=list)
    seen: dict[Path, Stamp] = field(default_factory=dict)  # each file as it was compared
    keys: dict[Path, set[tuple[str, str, str | None, str, str]]] = field(default_factory=dict)
    cut: int = 0  # dependents left out (more than MAX_FILES)
    failed: str | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    batch: asyncio.Event = field(default_factory=asyncio.Event)  # set (and renewed) per batch
    answered: asyncio.Event = field(default_factory=asyncio.Event)  # its edit's hook answered

    def __post_init__(self) -> None:
        self.at_start = {path: stamp(path) for path in self.edited}

    def covers(self, paths: list[Path], baseline: str) -> bool:
        """Whether this comparison answers for `paths` as they are now: it was asked about
        them, against the same baseline, and none of them changed since it began."""
        return (
            baseline == self.baseline
            and set(paths) <= set(self.edited)
            and all(stamp(p) == self.at_start[p] for p in self.edited)
        )

    @property
    def total(self) -> int:
        """Files to compare in all (known once the changed files are read)."""
        return len(self.changed) + len(self.dependents)

    def remaining(self) -> list[Dependent]:
        """The dependents not compared yet, nearest first."""
        return self.dependents[max(0, self.compared - len(self.changed)) :]

    def current(self, item: Introduced) -> bool:
        """Whether a finding still holds: neither its file nor a changed file has changed
        on disk since it was compared (an edit undone or redone since makes it stale)."""
        files = [item.file, *self.changed]
        return all(stamp(f) == self.seen.get(f, stamp(f)) for f in files)


async def run(ws: Workspace, progress: Progress) -> None:
    """Compare `progress.edited` (and what names what they changed) with the baseline,
    nearest first, filling `progress` as each batch ends; `done` is set at the end, also
    when it fails or is cancelled."""
    await filled(ws, progress, nearest_first)


async def filled(
    ws: Workspace, progress: Progress, fill: Callable[[Workspace, Progress], Awaitable[None]]
) -> None:
    """`fill(ws, progress)` once every change made before is in; a failure is said in
    `progress` (the hook says the check failed; the daemon goes on); `done` is set at the
    end, also when it fails or is cancelled."""
    try:
        async with ws.gate.shared():
            await ws.refresh_open_documents(catch_up=True)
        await fill(ws, progress)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.exception("the baseline check of %s failed", progress.edited)
        progress.failed = f"{type(exc).__name__}: {exc}"
    finally:
        progress.done.set()
        progress.batch.set()


async def nearest_first(ws: Workspace, progress: Progress) -> None:
    """The comparison itself: the changed files, then what names what they changed."""
    delta = await asyncio.to_thread(differences, ws, progress.baseline)
    wanted = set(progress.edited)
    before = {p: t for p, t in delta.before.items() if p in wanted}
    after = {p: t for p, t in delta.after.items() if p in wanted}
    progress.changed = sorted(set(before) | set(after))
    if not progress.changed:
        return
    for path in progress.changed:
        progress.seen[path] = stamp(path)
    found = await asyncio.to_thread(ranked, ws, before, after)
    progress.dependents, progress.cut = found[:MAX_FILES], max(0, len(found) - MAX_FILES)
    for batch in _batches(progress.changed, [d.path for d in progress.dependents]):
        await _compare(ws, progress, batch, before, after)


async def _compare(
    ws: Workspace, progress: Progress, batch: list[Path], before: Texts, after: Texts
) -> None:
    stamps = {path: stamp(path) for path in batch}
    began = time.monotonic()
    async with ws.gate.exclusive():
        gated = time.monotonic()
        # The text on disk first: the servers hold it already (the watcher sent the edit),
        # so only the switch to the baseline is waited for; the disk's text is checked again
        # (after the switch back) only when the two differ (see `diagnose_both`).
        both = await diagnose_both(ws, batch, before, after, "after")
    log.info(
        "compared %d file(s) with %s: gate %.2f s, compared in %.2f s%s",
        len(batch), progress.baseline, gated - began, time.monotonic() - gated,
        " (the disk's text checked again)" if both.again else "",
    )  # fmt: skip
    shown = [ws.display(p) for p in progress.changed]
    new = both.after
    changes = compare(both.before.found, new.found, progress.baseline, shown, "", both.again)
    # mypy answers for every file of its project: a file beyond the batch is taken once.
    earlier = set(progress.keys)
    file_of = {ws.display(p): p for p in batch}
    made: dict[int, Found[FileDiagnostic]] = {id(f.diagnostic): f for f in new.found}
    for diagnostic in changes.introduced:  # the very objects of `new.found`
        found = made[id(diagnostic)]
        file = file_of.get(diagnostic.path or "") or ws.resolve(diagnostic.path or "")
        if file not in earlier:
            progress.introduced.append(Introduced(diagnostic, found.key, file))
    for path in batch:
        progress.seen.setdefault(path, stamps[path])
        progress.keys[path] = progress.keys[path] if path in earlier else set()
    for found in new.found:
        file = file_of.get(found.diagnostic.path or "") or ws.resolve(found.diagnostic.path or "")
        if file not in earlier:
            progress.seen.setdefault(file, stamp(file))
            progress.keys.setdefault(file, set()).add(found.key)
    progress.compared += len(batch)
    ended, progress.batch = progress.batch, asyncio.Event()
    ended.set()


def _batches(changed: list[Path], dependents: list[Path]) -> list[list[Path]]:
    """The changed files alone (their own uses of what changed come first: SQLAlchemy's
    `to_list` module alone took 4 s on a busy machine, with its smallest caller 5-17 s),
    then the dependents in batches four times larger each time, up to `MAX_BATCH`: each
    batch switches the servers' text twice, and each switch of a module everything imports
    costs a server seconds, so batches stay few."""
    out = [changed]
    size, at = FIRST_BATCH, 0
    while at < len(dependents):
        out.append(dependents[at : at + size])
        at += size
        size = min(size * 4, MAX_BATCH)
    return out
