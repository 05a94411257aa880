"""A baseline question about files outside the gate (`check --baseline` with paths, or
`--all`): the kept result covers the gate's files only, so these files' old state is the
engine's, asked for them alone.

Their state now is the work tree's check of the question's files. Their old state: the
changed files' texts at the baseline overlaid as a preview of them (`ops/overlaid_state.py`:
held for the servers that answer these files, the builder where one checks them) while the
files the engine would check again for such an edit are asked (`proposal_reach`: the
changed files, and the importers of those whose declarations changed, transitively); every
other file outside the gate cannot differ and is not compared. Before, every file naming a
changed line's names was asked in both states, and the old one once more when they differed.
A file deleted since the baseline is no file of the question: its old errors are not listed
as fixed (as in the gate's part, whose files are the gate's now).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.committed import Committed
from lspd.engine.comparison import Found
from lspd.engine.stops import Stop
from lspd.ops.checked import Checked
from lspd.ops.kept_found import Item, found_in
from lspd.ops.models import DiagnosticsResult
from lspd.ops.overlaid_state import overlaid_state
from lspd.workspace import Workspace
from lspd.workspace.files import read_text


@dataclass
class Part:
    """Some files compared in both states: their diagnostics then and now (with their
    keys), their results now, the changed ones among them (as shown)."""

    changed: set[str] = field(default_factory=set)
    gate: int = 0  # the gate's files
    before: list[Found[Item]] = field(default_factory=list)
    after: list[Found[Item]] = field(default_factory=list)
    results: list[DiagnosticsResult] = field(default_factory=list)
    outside: int = 0  # of `results`, the files outside the gate
    beyond: str | None = None  # how the files outside the gate were compared
    again: list[Found[Item]] | None = None  # a second sample of `after`, if taken
    stops: list[Stop] = field(default_factory=list)  # `after`'s checkers stopped at syntax
    before_stops: list[Stop] = field(default_factory=list)  # `before`'s (the baseline's)
    renamed: dict[str, str] = field(default_factory=dict)  # old -> new path (as shown)
    same: int = 0  # diagnostics of files left out as the kept result's: unchanged
    left: list[str] = field(default_factory=list)  # the baseline's gate files it left out now

    def joined(self, other: Part) -> Part:
        """Both parts as one."""
        again = None
        if self.again is not None or other.again is not None:
            again = (self.again or self.after) + (other.again or other.after)
        return Part(
            self.changed | other.changed,
            self.gate + other.gate,
            self.before + other.before,
            self.after + other.after,
            self.results + other.results,
            self.outside + other.outside,
            other.beyond if other.beyond is not None else self.beyond,
            again,
            [*self.stops, *other.stops],
            [*self.before_stops, *other.before_stops],
            {**self.renamed, **other.renamed},
            self.same + other.same,
            self.left + other.left,
        )


async def beyond_gate(
    ws: Workspace, found: Committed[Checked], keep: Callable[[Path], bool], wider: Checked
) -> Part:
    """The files of `wider` (the work tree's check of the question's files) outside the
    gate that `keep` accepts, compared with their state at the baseline where the engine
    says the change can reach them. The caller holds the gate exclusively."""
    gate = {r.path for r in found.checked.results}
    now = {ws.resolve(r.path): r for r in wider.results if r.path not in gate}
    now = {p: r for p, r in now.items() if keep(p)}
    texts = found.delta.before
    changed = {p for p in now if p in texts}
    part = Part(changed={ws.display(p) for p in changed}, stops=list(wider.stopped))
    if not now:
        part.beyond = "no file outside the gate asked"
        return part
    reached: list[Path] = []
    if texts:
        state = await overlaid_state(ws, texts, set(now), only=set(now))
        reached = sorted(p for p in state.results if p in now)
        part.before_stops = list(state.stopped)  # what they did not check there is not new
        for path in reached:
            old = texts[path] if path in texts else read_text(path)
            part.before += found_in(state.results[path], old)
    for path in sorted({*reached, *changed}):
        result = now[path]
        part.results.append(result)
        part.after += found_in(result, read_text(path) if result.diagnostics else None)
    part.outside = len(part.results)
    part.beyond = (
        f"{len(now)} file(s) outside the gate: {len(reached)} the change can reach (the "
        "engine's affected set) checked at the baseline's texts, the others unchanged"
    )
    return part
