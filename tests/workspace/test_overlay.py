"""The gate: calls share the workspace, an overlay has it alone, and waiting overlays go first."""

from __future__ import annotations

import asyncio

from lspd.workspace.overlay import Gate


def test_an_overlay_waits_for_running_calls_and_blocks_new_ones() -> None:
    async def scenario() -> list[str]:
        gate, order = Gate(), []
        release = asyncio.Event()

        async def running_call() -> None:
            async with gate.shared():
                order.append("call 1 starts")
                await release.wait()
                order.append("call 1 ends")

        async def overlay() -> None:
            async with gate.exclusive():
                order.append("overlay")

        async def later_call() -> None:
            async with gate.shared():
                order.append("call 2")

        first = asyncio.create_task(running_call())
        await asyncio.sleep(0)  # call 1 holds the gate
        waiting = asyncio.create_task(overlay())
        await asyncio.sleep(0)  # the overlay waits for call 1
        second = asyncio.create_task(later_call())
        await asyncio.sleep(0)  # call 2 queues behind the waiting overlay
        assert order == ["call 1 starts"]
        release.set()
        await asyncio.gather(first, waiting, second)
        return order

    assert asyncio.run(scenario()) == ["call 1 starts", "call 1 ends", "overlay", "call 2"]


def test_a_cancelled_waiting_overlay_lets_calls_through() -> None:
    async def scenario() -> bool:
        gate = Gate()
        async with gate.shared():
            waiting = asyncio.create_task(gate.exclusive().__aenter__())
            await asyncio.sleep(0)
            waiting.cancel()
            await asyncio.gather(waiting, return_exceptions=True)
        async with asyncio.timeout(1), gate.shared():
            return True

    assert asyncio.run(scenario())
