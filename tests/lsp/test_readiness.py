"""When a server is ready: by a log line, by the end of its work-done progress (or none
begun within the grace after `initialized`), never by what another kind of server says."""

from __future__ import annotations

import asyncio

from lspd.lsp.readiness import PROGRESS_GRACE_S, Readiness


def _after_grace() -> asyncio.Future[None]:
    """Done once a grace timer set before it has fired (timers of one delay fire in order)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    loop.call_later(PROGRESS_GRACE_S, done.set_result, None)
    return done


def test_a_log_line_matching_the_pattern_makes_it_ready() -> None:
    readiness = Readiness("srv", lambda: "log", r"Indexing done")
    readiness.logged("Starting")
    assert not readiness.event.is_set()
    readiness.logged("[info] Indexing done in 3 s")
    assert readiness.event.is_set()


def test_a_server_ready_by_progress_that_begins_none_is_ready_after_the_grace() -> None:
    async def main() -> tuple[bool, bool]:
        readiness = Readiness("srv", lambda: "progress", None)
        readiness.initialized()
        before = readiness.event.is_set()
        await _after_grace()
        return before, readiness.event.is_set()

    assert asyncio.run(main()) == (False, True)


def test_a_server_ready_by_progress_is_ready_when_its_last_work_ends() -> None:
    async def main() -> list[bool]:
        readiness = Readiness("srv", lambda: "progress", None)
        readiness.initialized()
        readiness.progressed({"token": 1, "value": {"kind": "begin"}})
        readiness.progressed({"token": 2, "value": {"kind": "begin"}})
        await _after_grace()
        seen = [readiness.event.is_set()]  # busy when the grace ended
        readiness.progressed({"token": 1, "value": {"kind": "end"}})
        seen.append(readiness.event.is_set())  # token 2 still works
        readiness.progressed({"token": 2, "value": {"kind": "end"}})
        seen.append(readiness.event.is_set())
        return seen

    assert asyncio.run(main()) == [False, False, True]


def test_progress_says_nothing_of_a_server_ready_another_way() -> None:
    async def main() -> bool:
        readiness = Readiness("srv", lambda: "diagnostics", "(?!)")
        readiness.initialized()
        readiness.progressed({"token": 1, "value": {"kind": "begin"}})
        readiness.progressed({"token": 1, "value": {"kind": "end"}})
        await _after_grace()
        return readiness.event.is_set()

    assert asyncio.run(main()) is False


def test_a_reset_forgets_what_the_last_start_said_and_an_end_wakes_waiters() -> None:
    async def main() -> tuple[bool, bool, bool]:
        readiness = Readiness("srv", lambda: "log", "ready")
        readiness.logged("ready")
        readiness.progressed({"token": 1, "value": {"kind": "begin"}})
        readiness.reset()
        reset = readiness.event.is_set() or not readiness.progress.idle.is_set()
        waiting = asyncio.ensure_future(readiness.wait(30.0))
        readiness.ended()  # the server died: nobody waits any longer
        await asyncio.wait_for(waiting, 5.0)
        return reset, readiness.event.is_set(), readiness.progress.idle.is_set()

    assert asyncio.run(main()) == (False, True, True)


def test_a_wait_past_its_timeout_goes_on() -> None:
    readiness = Readiness("srv", lambda: "log", "never said")
    asyncio.run(readiness.wait(0.01))  # no error: the answer is then the server's best
    assert not readiness.event.is_set()
