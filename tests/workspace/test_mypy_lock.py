"""Two lspd processes on one workspace (a one-shot CLI check beside the daemon, or two)
share a project's mypy state: its copy, stamps and caches. One check holds it at a time,
and each answer is mypy's for the texts it asked, never the other's. On a real mypy, two
`Dmypy`s on one state directory asking at once (each opens the lock as a process does)."""

from __future__ import annotations

import asyncio
import fcntl
import os
from pathlib import Path

from lspd.engine.mypy_errors import parse
from lspd.workspace.dmypy import Dmypy
from lspd.workspace.mypy_lock import exclusive
from tests.workspace.mypy_env import cli_errors, project
from tests.workspace.test_dmypy import daemon_of, held, shown
from tests.workspace.test_mypy_once import AREA, AREA_EDITED, AREA_SAME_SIZE, IGNORING

Shown = list[tuple[str, int, int, str | None, str]]


def test_two_processes_checking_at_once_each_get_their_own_answer(tmp_path: Path) -> None:
    root = project(tmp_path / "p", IGNORING)
    shapes = root / "app" / "shapes.py"
    first, second = daemon_of(root, tmp_path), daemon_of(root, tmp_path)  # one state dir
    asked = [(first, AREA), (second, AREA_EDITED), (first, AREA_SAME_SIZE), (second, AREA)]

    async def check(daemon: Dmypy, text: str) -> Shown:
        output = await daemon.check([], held(root, {shapes: text}))
        assert output.once
        return shown(root, parse(output, root, daemon.mirror.directory))

    async def run() -> list[Shown]:
        try:
            together = await asyncio.gather(*(check(d, t) for d, t in asked[:2]))
            return [*together, *[await check(d, t) for d, t in asked[2:]]]
        finally:
            await first.stop()
            await second.stop()

    answers = asyncio.run(run())
    for (_, text), answer in zip(asked, answers, strict=True):
        shapes.write_text(text)
        assert sorted(answer) == sorted(cli_errors(root)), text
    assert len({tuple(sorted(a)) for a in answers[:3]}) == 3  # three states, three answers


def test_a_check_waits_for_the_lock_another_holds(tmp_path: Path) -> None:
    lock = tmp_path / "state" / "lock"

    async def run() -> list[str]:
        order: list[str] = []
        held = asyncio.Event()

        async def holder() -> None:
            async with exclusive(lock):
                held.set()
                order.append("first in")
                await asyncio.sleep(0)  # the waiter tries meanwhile
                await asyncio.sleep(0)
                order.append("first out")

        async def waiter() -> None:
            await held.wait()
            async with exclusive(lock):
                order.append("second in")

        await asyncio.gather(holder(), waiter())
        return order

    assert asyncio.run(run()) == ["first in", "first out", "second in"]
    # Released with its file: nothing is left held.
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)
