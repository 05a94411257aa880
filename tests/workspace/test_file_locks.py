"""A file's lock says which text its holder holds: only other text than the disk's keeps
the watcher's changes of the file back (issue 40)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lspd.workspace.file_locks import FileLocks, KeptBack
from lspd.workspace.watcher import Change, FileEvent


def test_a_lock_of_the_disk_text_serializes_but_keeps_nothing_back(tmp_path: Path) -> None:
    path = tmp_path / "a.ts"
    locks, kept = FileLocks(), KeptBack()
    event = FileEvent(Change.changed, path)

    async def main() -> list[object]:
        seen: list[object] = []
        async with locks.held(path, disk=True):
            seen += [locks.locked(path), locks.other_text(path)]
            seen.append(kept.keep([event], locks.other_text))  # told at once
            waiting = asyncio.ensure_future(_other(locks, path, kept, event, seen))
            await asyncio.sleep(0)  # it waits for the lock: no other text yet
            seen.append(locks.other_text(path))
        await waiting
        seen += [locks.locked(path), locks.other_text(path), kept.free(locks.other_text)]
        return seen

    assert asyncio.run(main()) == [
        True,
        False,
        [event],
        False,
        True,  # the overlay's, once the question let go
        [],  # kept back
        False,
        False,
        [event],  # told once it is let go
    ]


async def _other(
    locks: FileLocks, path: Path, kept: KeptBack, event: FileEvent, seen: list[object]
) -> None:
    async with locks.held(path, disk=False):
        seen += [locks.other_text(path), kept.keep([event], locks.other_text)]
