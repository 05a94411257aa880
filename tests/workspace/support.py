"""What the watcher tests share: a recorder of the events it delivers."""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.watcher import Change, FileEvent


class Recorder:
    """Collects what the watcher delivers."""

    def __init__(self) -> None:
        self.events: list[FileEvent] = []

    async def __call__(self, events: list[FileEvent]) -> None:
        self.events += events

    def changes(self, root: Path) -> set[tuple[Change, str]]:
        return {(e.change, e.path.relative_to(root).as_posix()) for e in self.events}
