"""A copy of a project made for a question about a state never written (a held deletion, a
file the disk lacks): its files walked and copied or linked, the held texts written over
them. Shared by the copies a server is rooted at (`engine/python_mirror.py`) and the one
TypeScript's own tsc checks (`workspace/tsc_copy.py`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Container, Mapping
from pathlib import Path


def walked(
    root: Path,
    copy: Path,
    skipped: Container[str],
    linked: Callable[[Path], bool],
    copied: Callable[[Path, Path], None],
) -> None:
    """`root`'s folders made again in `copy`, but those named in `skipped`; a linked folder
    and those `linked` says linked (to where they lead); each file given to `copied` with
    its place in the copy."""
    for top, dirs, files in os.walk(root):
        here = Path(top)
        there = copy / here.relative_to(root)
        there.mkdir(exist_ok=True)
        kept = []
        for name in dirs:
            if name in skipped:
                continue
            if (here / name).is_symlink() or linked(here / name):
                os.symlink(os.path.realpath(here / name), there / name)
                continue
            kept.append(name)
        dirs[:] = kept
        for name in files:
            copied(here / name, there / name)


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
