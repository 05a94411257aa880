"""The state a set of texts would make, never written: the check engine's run with them
overlaid on the work tree's last check (`check_all`, which must come first).

- TypeScript files a builder checks: the builder over a host serving the texts
  (`lspd.engine.overlaid`): only the files it would re-check are checked, its kept state
  is left for the next real check;
- the files of other servers (basedpyright, TypeScript 7, ...): the texts held while the
  files the whole check would ask after such an edit are asked (`engine/proposal_reach.py`);
  mypy's projects' files in one run of its daemon (`diagnose`).
Every other file's result is the work tree's check's. Two callers: `preview` (the proposed
texts, `ops/overlaid_check.py`) and the committed state of a dirty work tree (HEAD's
texts of the changed files, `ops/committed.py`).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from lspd.engine.builders import builder_for
from lspd.engine.mypy_check import by_project
from lspd.engine.overlaid import Overlaid, builders_overlaid
from lspd.engine.proposal_reach import reached
from lspd.lsp import shapes
from lspd.lsp.positions import Encoding
from lspd.lsp.text import split_lines
from lspd.ops.changes import diagnose
from lspd.ops.check_memory import memory_of
from lspd.ops.convert import Converter, convert_items
from lspd.ops.file_diagnostics import make_result
from lspd.ops.models import DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.tsbuilder import Items

Texts = Mapping[Path, str | None]


@dataclass(frozen=True)
class OverlaidState:
    """What the engine says with the texts overlaid: the results of the files it checked
    anew for them (the changed ones among them), and the files the servers were asked
    one by one (the texts they held: `held`)."""

    results: dict[Path, DiagnosticsResult]
    asked: list[Path]
    held: dict[Path, str | None]


async def overlaid_state(
    ws: Workspace,
    texts: Texts,
    checked: Collection[Path],
    only: Collection[Path] | None = None,
) -> OverlaidState:
    """The results `texts` (file -> its text, None: absent) would make, of the files the
    engine would check again for them; `checked`: the files of the work tree's check.
    With `only`, of those files alone (the changed files are then not asked for their own
    sake, and no builder runs when none of `only` is a builder's)."""
    owner = functools.partial(builder_for, ws)
    wanted = None if only is None else set(only)
    built = Overlaid()
    if wanted is None or any(owner(p) is not None for p in wanted):
        built = await builders_overlaid(texts, owner)
    results = {p: r for p, r in _converted(ws, built.items, texts).items() if _in(p, wanted)}
    # The servers' files: a builder's changed file goes to a server only when its program
    # does not hold it (a new file no tsconfig includes or imports: tsserver places it).
    held = {
        p: t
        for p, t in texts.items()
        if p not in built.held and (t is not None or owner(p) is None)
    }
    candidates = {p for p in checked if p not in built.held}
    # mypy alone judges its projects' files, all in one run of its daemon (`diagnose`): what
    # basedpyright would re-check for them is not asked (~0.8 s of parsing on rich).
    mypy_only = {p for j, m in by_project(ws, list(held)).items() if not j.also_pyright for p in m}
    others = {p: t for p, t in held.items() if p not in mypy_only}
    memory = memory_of(ws)
    found = reached(ws, others, candidates, memory.python, memory.native)
    asked = sorted(p for p in (found | mypy_only) - built.held if _in(p, wanted))
    answered = await diagnose(ws, asked, held) if asked else None
    if answered is not None:
        results.update((ws.resolve(r.path), r) for r in answered.results)
    return OverlaidState(results, asked, held if asked else {})


def _in(path: Path, wanted: set[Path] | None) -> bool:
    return wanted is None or path in wanted


class _Overlaid(Converter):
    """Converts positions in the overlaid texts (the disk's for the other files)."""

    def __init__(self, ws: Workspace, encoding: Encoding, texts: Texts) -> None:
        super().__init__(ws, encoding)
        self.texts = texts

    def lines(self, path: Path) -> list[str]:
        if path in self.texts:
            return split_lines(self.texts[path] or "")
        return super().lines(path)


def _converted(
    ws: Workspace, items: Mapping[Path, Items], texts: Texts
) -> dict[Path, DiagnosticsResult]:
    """A builder's items as results, as the whole check makes them (`engine/builders.py`)."""
    convert = _Overlaid(ws, "utf-16", texts)
    made = {}
    for path, found in items.items():
        handler = ws.definition_for(path)
        definition, toolchain = ws.pool.adapted(handler, ws.project_root(path, handler))
        label = None if toolchain is None else toolchain.label()
        converted = convert_items(convert, path, cast(list[shapes.Diagnostic], found))
        made[path] = make_result(ws, path, definition.name, label, converted)
    return made
