"""Which files a comparison's second sample asks again (`engine/comparison.difference`'s
`again`): one state's files asked once more right after the switch from the other's texts,
so a checker answering by the order it checks in never makes an error new.

Two callers: a preview (the disk's state after the proposal's, `ops/overlaid_check.py`) and
the committed state of a dirty work tree (the disk's state after HEAD's texts were held,
`engine/committed.py`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from lspd.engine.native_reach import native
from lspd.workspace import Workspace


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
