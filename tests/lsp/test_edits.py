"""The capture of edits a server sends back (`workspace/applyEdit`): kept while someone
listens, never applied; tested on gopls in tests/languages/test_edits.py."""

from __future__ import annotations

import asyncio

from lspd.lsp.edits import NOT_APPLIED, Capture

EDIT = {"changes": {"file:///a.py": []}}


def test_an_edit_is_kept_only_while_someone_listens() -> None:
    async def scenario() -> tuple[list[object], dict[str, object], dict[str, object]]:
        capture = Capture()
        unheard = capture.receive({"edit": EDIT})
        async with capture.listening() as edits:
            heard = capture.receive({"label": "fix", "edit": EDIT})
        capture.receive({"edit": EDIT})
        return edits, unheard, heard

    edits, unheard, heard = asyncio.run(scenario())
    assert edits == [EDIT]
    assert unheard == heard == {"applied": False, "failureReason": NOT_APPLIED}


def test_listeners_take_turns() -> None:
    async def scenario() -> list[str]:
        capture, order = Capture(), []

        async def listen(name: str) -> None:
            async with capture.listening():
                order.append(f"{name} in")
                await asyncio.sleep(0)
                order.append(f"{name} out")

        await asyncio.gather(listen("a"), listen("b"))
        return order

    assert asyncio.run(scenario()) == ["a in", "a out", "b in", "b out"]
