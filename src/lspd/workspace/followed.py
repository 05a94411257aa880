"""The files a workspace follows that its watcher does not see: outside the root (a
tsconfig's ../base.json, mypy's `.pth` folders there) or in what it leaves out (a package's
config in node_modules, a linked package's git-ignored build a program reads). Each question
looks at their stamps (`Workspace.catch_up`): a change is told as the watcher tells one."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from lspd.workspace import files


class Followed:
    """The followed files and their stamps as last looked at; of them, the sources programs
    read (not configurations: the kept results' key holds those by their text)."""

    def __init__(self) -> None:
        self.stamps: dict[Path, tuple[int, int] | None] = {}
        self.read: set[Path] = set()

    def add(self, path: Path, read: bool = False) -> None:
        """Follow `path` from its stamp now (kept if it was followed already)."""
        self.stamps.setdefault(path, files.stamp(path))
        if read:
            self.read.add(path)

    def changed(self) -> list[Path]:
        """The followed files whose stamp moved since last looked at (now their stamp)."""
        now = {p: files.stamp(p) for p in self.stamps}  # one stat each, every question
        moved = [p for p, was in self.stamps.items() if now[p] != was]
        self.stamps.update((p, now[p]) for p in moved)
        return moved

    def stamp(self, counts: Callable[[Path], bool] = lambda _: True) -> str:
        """A stamp of the sources read (those `counts` takes) as last looked at ("": none):
        a result made of them (HEAD's kept one, of a linked package's build) stands for it."""
        read = sorted(p for p in self.read if counts(p))
        if not read:
            return ""
        digest = hashlib.sha256()
        for path in read:
            digest.update(f"{path}\0{self.stamps.get(path)}\0".encode())
        return digest.hexdigest()[:24]
