"""The inbox of diagnostics: which publish answers for which document version, and pulls
that let the server answer "unchanged".

The publishes are the ones gopls 0.5 was seen sending (a just-opened file's first publish
sometimes without a version, later ones with it); the inbox is the session's own. The pulls
go to a real basedpyright.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from lspd.errors import ServerTimeout
from lspd.lsp.diagnostics import Inbox, answer_of
from lspd.lsp.documents import Document
from lspd.lsp.progress import Progress
from lspd.servers.registry import definitions
from lspd.workspace import Workspace
from tests.conftest import copy_fixture

MAIN, SHAPES = "file:///w/main.go", "file:///w/shapes/shapes.go"
ERROR = {"range": {}, "severity": 1, "message": "undefined: x"}


def _inbox(tmp_path: Path) -> Inbox:
    return Inbox(definitions()["gopls"], tmp_path / "log", Progress(), lambda: None)


def _main(version: int) -> Document:
    return Document(Path("/w/main.go"), MAIN, "go", version, "package main\n")


def _ignore(method: str, params: Any) -> None:
    raise AssertionError(f"nothing is sent here, not {method}")


def test_an_unversioned_first_publish_still_answers_once_others_are_versioned(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        inbox = _inbox(tmp_path)
        inbox.receive({"uri": MAIN, "diagnostics": [ERROR]})  # no version: gopls's first
        assert await inbox.pushed(_main(1), 1.0, _ignore) == [ERROR]
        inbox.receive({"uri": SHAPES, "version": 1, "diagnostics": []})  # it versions now
        # main.go has not changed: its publish still holds (it used to wait out the timeout).
        assert await inbox.pushed(_main(1), 1.0, _ignore) == [ERROR]

    asyncio.run(main())


def test_an_unversioned_publish_after_versioned_ones_says_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        inbox = _inbox(tmp_path)
        inbox.receive({"uri": SHAPES, "version": 1, "diagnostics": []})
        inbox.forget(MAIN)  # main.go closed and opened again...
        inbox.receive({"uri": MAIN, "diagnostics": []})  # ...and the close's empty list comes
        sent: list[str] = []
        with pytest.raises(ServerTimeout, match=r"sent no diagnostics for main\.go"):
            await inbox.pushed(_main(2), 0.2, lambda method, _: sent.append(method))
        # Silent past half its timeout (NUDGE_AFTER_S at most), it was sent again, once.
        assert sent == ["textDocument/didChange"]
        inbox.receive({"uri": MAIN, "version": 2, "diagnostics": [ERROR]})
        assert await inbox.pushed(_main(2), 1.0, _ignore) == [ERROR]

    asyncio.run(main())


def test_after_another_change_the_document_is_sent_again_and_its_new_list_answers(
    tmp_path: Path,
) -> None:
    """gopls re-publishes a dependent's list without a version, in its own time: after a
    change elsewhere, only the list of the document sent again (next version) answers."""

    async def main() -> None:
        inbox = _inbox(tmp_path)
        main_go = _main(1)
        inbox.forget(MAIN)  # opened
        inbox.receive({"uri": MAIN, "version": 1, "diagnostics": []})
        assert await inbox.pushed(main_go, 1.0, _ignore) == []
        inbox.forget(SHAPES)  # shapes.go changed: main.go's list may no longer hold
        sent: list[tuple[str, Any]] = []
        inbox.receive({"uri": MAIN, "diagnostics": [ERROR]})  # unversioned, in its own time
        waiting = asyncio.ensure_future(inbox.pushed(main_go, 1.0, lambda *m: sent.append(m)))
        await asyncio.sleep(0)
        assert sent == [
            (
                "textDocument/didChange",
                {
                    "textDocument": {"uri": MAIN, "version": 2},
                    "contentChanges": [{"text": "package main\n"}],
                },
            )
        ]
        assert not waiting.done()
        inbox.receive({"uri": MAIN, "version": 2, "diagnostics": [ERROR]})
        assert await waiting == [ERROR]
        assert not inbox.outdated(MAIN)  # sending it again changed nothing for the others
        assert not inbox.outdated(SHAPES)

    asyncio.run(main())


def test_a_pull_names_the_last_result_and_unchanged_gives_the_same_items(
    tmp_path: Path,
) -> None:
    """basedpyright answers "unchanged" to the result id of its last answer: the inbox then
    gives the items it kept (compressed: equal items, the same answer), or none to a caller
    holding its result of that answer; a document told anything is asked afresh, a new
    answer."""
    root = copy_fixture("py", tmp_path)

    async def main() -> None:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            session, document = await ws.open("pkg/broken.py")
            await session.wait_ready()
            asked: list[tuple[bool, str]] = []

            async def send(method: str, params: Any, timeout: float) -> Any:
                answer = await session.send(method, params, timeout)
                asked.append(("previousResultId" in params, answer["kind"]))
                return answer

            first = await session.inbox.pull(send, document.uri, 60)
            again = await session.inbox.pull(send, document.uri, 60)
            assert again == first and [d["code"] for d in first] == ["reportReturnType"]
            assert answer_of(again) is answer_of(first) and again is not first
            # A caller holding its result of that answer gets the repeat without the items.
            held = await session.inbox.pull(send, document.uri, 60, answer_of(first))
            assert held == [] and answer_of(held) is answer_of(first)
            assert asked == [(False, "full"), (True, "unchanged"), (True, "unchanged")]
            await ws.open("pkg/broken.py", content="x: int = ''\n")
            changed = await session.inbox.pull(send, document.uri, 60, answer_of(first))
            assert asked[3] == (False, "full")
            assert [d["code"] for d in changed] == ["reportAssignmentType"]
            assert answer_of(changed) is not answer_of(first)
        finally:
            await ws.close()

    asyncio.run(main())


def test_a_change_sent_while_waiting_is_the_version_answered(tmp_path: Path) -> None:
    """A didChange sent while a question waits (a question's disk-text lock lets the
    watcher's edit through): the list of the version before no longer answers, the new
    one's does (its positions are read in the new text)."""

    async def main() -> None:
        inbox = _inbox(tmp_path)
        main_go = _main(1)
        inbox.forget(MAIN)  # opened
        waiting = asyncio.ensure_future(inbox.pushed(main_go, 1.0, _ignore))
        await asyncio.sleep(0)
        main_go.version = 2  # the watcher's edit, sent meanwhile
        inbox.receive({"uri": MAIN, "version": 1, "diagnostics": []})
        await asyncio.sleep(0.3)  # past PUSH_QUIET_S: version 1's list would have answered
        assert not waiting.done()
        inbox.receive({"uri": MAIN, "version": 2, "diagnostics": [ERROR]})
        assert await waiting == [ERROR]

    asyncio.run(main())
