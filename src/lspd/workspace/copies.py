"""A copy of a project made for a question about a state never written (a held deletion, a
file the disk lacks): the held texts written over it (its files copied or linked by
`workspace/tsc_kept.py` for the copy TypeScript's own tsc checks, `workspace/tsc_copy.py`),
never through a link into the repository."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


class LeadsOut(Exception):
    """A held text whose place in the copy is under a linked folder (node_modules, a folder
    that is a symlink): written or removed there, it would land in the repository."""


def written(root: Path, copy: Path, texts: Mapping[Path, str | None]) -> None:
    """`texts` (the files of `root` a state holds: None, absent) written over `copy`;
    `LeadsOut` before any where one's place leads out of the copy."""
    inside = Path(os.path.realpath(copy))
    places = {p: copy / p.relative_to(root) for p in texts if p.is_relative_to(root)}
    for path, target in places.items():
        if not Path(os.path.realpath(target)).is_relative_to(inside):
            raise LeadsOut(f"{path} is under a linked folder of the copy")
    for path, target in places.items():
        text = texts[path]
        if text is None:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
