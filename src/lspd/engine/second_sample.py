"""Which files a comparison's second sample asks again (`engine/comparison.difference`'s
`again`): one state's files asked once more right after the switch from the other's texts,
so a checker answering by the order it checks in never makes an error new.

Two callers: a preview (the disk's state after the proposal's, `ops/overlaid_check.py`) and
the committed state made with texts held (the disk's state after HEAD's texts were held:
`disk_again`, for a dirty work tree's and for the held part of a gate two checkers share,
`engine/committed.py`, `engine/configured_parts.py`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from lspd.engine.committed_seen import absolute
from lspd.engine.kept_memory import Again
from lspd.engine.native_reach import native
from lspd.engine.overlaid_state import Held, with_also
from lspd.engine.results import FileResult, WholeCheck
from lspd.engine.seen import seen_of
from lspd.lsp.text import split_lines
from lspd.workspace import Workspace
from lspd.workspace.files import read_text

R = TypeVar("R", bound=FileResult)


def sampled_again(ws: Workspace, asked: Sequence[Path], differ: Collection[Path]) -> list[Path]:
    """The files of the second sample, in the order they were asked (`asked`): those with a
    difference (`differ`; another sample of a file without one changes nothing: `difference`
    takes the most and the fewest of each key; after a core change every reached file asked
    again doubled the preview, effect 4.1 on TypeScript 7: 532), and, of a server whose
    answer for a file depends on the files asked before it (basedpyright: which file of an
    import cycle reaches a class first decides where its error stands), every file asked
    before the last that differs. TypeScript 7's pulled answers do not depend on the order."""
    wanted = set(differ)
    ordered = [p for p in asked if native(ws, p) is None]
    last = max((i for i, p in enumerate(ordered) if p in wanted), default=-1)
    prefix = set(ordered[: last + 1])
    return [p for p in asked if p in wanted or p in prefix]


async def disk_again(
    ws: Workspace,
    checked: WholeCheck,
    asked: Sequence[Path],
    made: Mapping[Path, FileResult],
    held: Held[R],
) -> Again:
    """The files the servers were asked at the old texts (`asked`, in order) whose result
    (`made`) differs from the work tree's check, asked again at the disk's right after the
    switch back, in the same order and after the files a checker answering by that order
    needs asked before them (`sampled_again`: basedpyright on a cycle), so it makes no error
    new (`engine/comparison.difference`'s `again`). Before, every file asked was asked
    again when one differed: twice the old state's asks after a core change."""
    now = {r.path: r for r in checked.results}
    # A program stopped at a syntax error answers tsc's syntax errors: nothing to sample.
    stopped = {path for stop in checked.stopped for path in stop.files}
    on_disk = [p for p in asked if ws.display(p) in now and ws.display(p) not in stopped]
    differ = set()
    for p in on_disk:  # a file at a time: SQLAlchemy's 350,000 rows held the loop for seconds
        await asyncio.sleep(0)
        if p in made and _rows(made[p]) != _rows(now[ws.display(p)]):
            differ.add(p)
    if not (files := sampled_again(ws, on_disk, differ)):
        return {}
    again = {absolute(ws, r.path): r for r in await held.asked(files, {})}
    sample = (await with_also(ws, again, {}, held)).values()  # every program's, as `checked`
    # mypy answers every file its run reached: only the check's files are compared.
    return {r.path: (now[r.path], seen_of(r, _lines(ws, r))) for r in sample if r.path in now}


def _lines(ws: Workspace, result: FileResult) -> list[str]:
    """The lines of the file of `result` on disk, where a diagnostic's snippet is read from
    them (mypy answers every file of a project: SQLAlchemy's 765 read 0.15 s for none)."""
    return split_lines(read_text(absolute(ws, result.path)) or "") if result.diagnostics else []


def _rows(result: FileResult) -> list[tuple[object, ...]]:
    return [(d.severity, d.code, d.message, d.line, d.column) for d in result.diagnostics]
