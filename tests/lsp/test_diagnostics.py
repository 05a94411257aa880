"""The inbox of pushed diagnostics: which publish answers for which document version.

The publishes are the ones gopls 0.5 was seen sending (a just-opened file's first publish
sometimes without a version, later ones with it); the inbox is the session's own.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lspd.errors import ServerTimeout
from lspd.lsp.diagnostics import Inbox
from lspd.lsp.progress import Progress

MAIN, SHAPES = "file:///w/main.go", "file:///w/shapes/shapes.go"
ERROR = {"range": {}, "severity": 1, "message": "undefined: x"}


def _inbox(tmp_path: Path) -> Inbox:
    return Inbox("gopls", tmp_path / "log", Progress(), lambda: None)


def test_an_unversioned_first_publish_still_answers_once_others_are_versioned(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        inbox = _inbox(tmp_path)
        inbox.receive({"uri": MAIN, "diagnostics": [ERROR]})  # no version: gopls's first
        assert await inbox.pushed(MAIN, "main.go", 1, 1.0) == [ERROR]
        inbox.receive({"uri": SHAPES, "version": 1, "diagnostics": []})  # it versions now
        # main.go has not changed: its publish still holds (it used to wait out the timeout).
        assert await inbox.pushed(MAIN, "main.go", 1, 1.0) == [ERROR]

    asyncio.run(main())


def test_an_unversioned_publish_after_versioned_ones_says_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        inbox = _inbox(tmp_path)
        inbox.receive({"uri": SHAPES, "version": 1, "diagnostics": []})
        inbox.forget(MAIN)  # main.go closed and opened again...
        inbox.receive({"uri": MAIN, "diagnostics": []})  # ...and the close's empty list comes
        with pytest.raises(ServerTimeout, match=r"sent no diagnostics for main\.go"):
            await inbox.pushed(MAIN, "main.go", 2, 0.2)
        inbox.receive({"uri": MAIN, "version": 2, "diagnostics": [ERROR]})
        assert await inbox.pushed(MAIN, "main.go", 2, 1.0) == [ERROR]

    asyncio.run(main())
