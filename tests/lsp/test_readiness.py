"""A server told its configuration changed is waited for until it says it reloaded each
(`Readiness.reloading`: its `ready_pattern` once per configuration), never for a server
that says no such line; changes told before it began a folder's reload are that one reload
(basedpyright starts its timer again at each), one told after it began is another."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lspd.lsp.readiness import Readiness

PATTERN = r"Found \d+ source files?"
P, Q = Path("/p"), Path("/q")  # two workspace folders


async def _waited(readiness: Readiness, lines: list[str]) -> list[bool]:
    """Whether a question waiting for it is still held after each line; it then goes on."""
    waiting = asyncio.create_task(readiness.wait_reloaded())
    still = []
    for line in lines:
        await asyncio.sleep(0)
        readiness.logged(line)
        still.append(not readiness.reloaded.is_set())
    await asyncio.wait_for(waiting, 1)
    return still


def test_a_question_waits_until_each_configuration_told_changed_is_reloaded() -> None:
    readiness = Readiness("basedpyright", lambda: "log", PATTERN)
    readiness.reloading([P, Q])  # two workspace folders' configurations
    lines = ["Reloading configuration file at /p/pyrightconfig.json", "Found 2 source files"]
    assert asyncio.run(_waited(readiness, [*lines, "Found 1 source file"])) == [
        True,
        True,
        False,
    ]
    assert readiness.reloaded.is_set()


def test_a_server_without_a_ready_line_is_not_waited_for() -> None:
    readiness = Readiness("pyright", lambda: "progress", None)
    readiness.reloading([P])
    assert readiness.reloaded.is_set()


BEGUN = "Reloading configuration file at /p/pyrightconfig.json"
BEGUN_Q = "Reloading configuration file at /q/pyproject.toml"


def test_changes_told_before_a_reload_began_are_one_reload() -> None:
    """Two writes 50 ms apart (two watcher batches): basedpyright reloads once (its 100 ms
    timer started again), and a question waited 20 s for a second reload before."""
    readiness = Readiness("basedpyright", lambda: "log", PATTERN)
    readiness.reloading([P])
    readiness.reloading([P])
    assert asyncio.run(_waited(readiness, [BEGUN, "Found 2 source files"])) == [True, False]


def test_a_change_told_after_a_reload_began_is_another_reload() -> None:
    readiness = Readiness("basedpyright", lambda: "log", PATTERN)
    readiness.reloading([P])
    readiness.logged(BEGUN)
    readiness.reloading([P])  # read after the file was: it reloads again
    lines = ["Found 2 source files", BEGUN, "Found 2 source files"]
    assert asyncio.run(_waited(readiness, lines)) == [True, True, False]


def test_each_folder_reloads_its_own() -> None:
    """Two folders' configurations told in two batches: two reloads (a timer per folder)."""
    readiness = Readiness("basedpyright", lambda: "log", PATTERN)
    readiness.reloading([P])
    readiness.reloading([Q])
    lines = [BEGUN, "Found 2 source files", BEGUN_Q, "Found 1 source file"]
    assert asyncio.run(_waited(readiness, lines)) == [True, True, True, False]


def test_one_folder_told_twice_in_a_server_of_two_is_one_reload() -> None:
    """The reviewer's find: a count capped by the folders held a question 20 s where one
    folder's configuration was written twice in a server serving two."""
    readiness = Readiness("basedpyright", lambda: "log", PATTERN)
    readiness.reloading([Q])
    readiness.reloading([Q])
    assert asyncio.run(_waited(readiness, [BEGUN_Q, "Found 1 source file"])) == [True, False]
