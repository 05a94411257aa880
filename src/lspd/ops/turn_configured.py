"""The turn's start where the turn edited a checker's configuration or a JSON a program
reads (`ops/turn_start.py`): no run of the texts then held over the work tree's check holds
those for every checker, so the state is made as HEAD's is made under HEAD's configuration
(`engine/committed.made_state`: each checker's part on a copy under the configuration then
where its own was edited, tsc -p on a copy for a JSON module, the texts held elsewhere),
under a key of its own: never HEAD's, never kept nor saved. Its errors against HEAD's kept
result, and its stops, are what the turn began with. Where a part cannot be made (the
engine says so), None: nothing is set aside, as before."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from lspd.engine import kept_memory
from lspd.engine.committed import Committed, NotKept, Run, made_state
from lspd.engine.comparison import Found
from lspd.engine.kept import StateKey
from lspd.engine.revisions import Delta
from lspd.ops import progressive_kept
from lspd.ops.check_memory import memory_of
from lspd.ops.checked import Checked
from lspd.ops.kept_found import Item, found_of
from lspd.ops.overlaid_state import HeldAnswers
from lspd.ops.progressive import Before, Key, Progress
from lspd.workspace import Workspace
from lspd.workspace.files import read_text

Texts = dict[Path, str | None]


@dataclass(frozen=True)
class Then:
    """The files changed in the turn, at their texts as it began: sources and JSON modules
    (`texts`), and the configurations that configured a checker otherwise (`configs`)."""

    texts: Texts
    configs: Texts


async def configured_then(
    ws: Workspace, commit: str, then: Then, found: Committed[Checked], progress: Progress
) -> Before | None:
    """`Before` of the turn's start (`then`) against `found`'s kept result of `commit`, made
    by the engine as a commit's state under its own configuration; None where a part of it
    cannot be made. `progress`: the work tree's comparison (its baseline's stops stand: no
    turn changes the baseline). The caller holds the gate exclusively."""
    delta = Delta(dict(then.texts), {p: read_text(p) for p in then.texts})
    key = StateKey(f"turn start over {commit}", "", "", tuple(sorted(then.configs)))
    run = Run(HeldAnswers(ws), memory_of(ws))
    try:
        state = await made_state(ws, key, dict(then.configs), found.checked, delta, run)
    except NotKept:  # a configuration choosing other files, a file no tsconfig's, ...
        return None
    finally:  # the disk's second sample of this state: no answer reads it
        kept_memory.memory_of(ws).again.pop(key, None)
    if any(stop.why for stop in state.stopped):  # a part of it not made
        return None
    keys: set[Key] = set()
    for shown, file in state.files.items():
        kept = found.state.files.get(shown)
        base = Counter(f.key for f in found_of(kept)) if kept is not None else Counter()
        keys |= set(Counter(f.key for f in found_of(file)) - base)

    def found_in(shown: str) -> list[Found[Item]]:
        file = state.files.get(shown)
        return [] if file is None else found_of(file)

    def text(shown: str) -> str | None:
        path = ws.resolve(shown)
        return then.texts[path] if path in then.texts else read_text(path)

    said = progressive_kept.stop_keys(state.stopped, found_in, "", text)
    kept_stops = {k for k in progress.stop_keys if json.loads(k)[0] != ""}  # the baseline's
    return Before(progress.baseline, frozenset(keys), frozenset(kept_stops | set(said.values())))
