"""lspd's inotify watcher: ignored directories are never watched, new ones are at once, and
a watch limit turns watching off with a reason instead of failing."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from lspd.ops import file_diagnostics, state
from lspd.workspace import Workspace
from lspd.workspace.ignore import Ignore
from lspd.workspace.watcher import Change, Watcher
from tests.conftest import copy_fixture
from tests.workspace.support import Recorder


def _tree(root: Path) -> int:
    """Source directories (watched) beside dependency trees (never watched); how many of
    the former, the root included."""
    for name in ("src/app", "src/lib/deep", "tests"):
        (root / name).mkdir(parents=True)
        (root / name / "x.py").write_text("x = 1\n")
    for index in range(50):  # what makes a monorepo's watch count explode
        (root / f"node_modules/pkg{index}/lib").mkdir(parents=True)
        (root / f".git/objects/{index:02x}").mkdir(parents=True)
    (root / "venv/lib/site").mkdir(parents=True)
    (root / "venv/pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / "generated/out").mkdir(parents=True)
    (root / ".gitignore").write_text("generated/\n")
    return 6  # ., src, src/app, src/lib, src/lib/deep, tests


def test_ignored_directories_are_never_watched(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    sources = _tree(root)

    async def main() -> int | None:
        watcher = Watcher(root, tmp_path / "marker", Ignore(root), Recorder())
        assert await watcher.start()
        try:
            return watcher.watches
        finally:
            await watcher.stop()

    assert asyncio.run(main()) == sources + 1  # and the catch-up marker's folder


def test_a_new_directory_is_watched_with_the_files_made_before_its_watch(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()

    async def main() -> tuple[set[tuple[Change, str]], int | None]:
        recorder = Recorder()
        watcher = Watcher(root, tmp_path / "marker", Ignore(root), recorder)
        assert await watcher.start()
        try:
            (root / "pkg/sub").mkdir(parents=True)  # faster than any watch can be added
            (root / "pkg/sub/early.py").write_text("x = 1\n")
            assert await watcher.catch_up()
            (root / "pkg/sub/late.py").write_text("y = 2\n")
            assert await watcher.catch_up()
            return recorder.changes(root), watcher.watches
        finally:
            await watcher.stop()

    changes, watches = asyncio.run(main())
    # The new directories too (tsserver 5.4 lists a configured project's directories from a
    # cache that only a directory's own event updates).
    assert {(Change.created, "pkg"), (Change.created, "pkg/sub")} <= changes
    assert (Change.created, "pkg/sub/early.py") in changes
    assert (Change.created, "pkg/sub/late.py") in changes
    assert watches == 4  # root, pkg, pkg/sub and the marker's folder


def test_a_watch_limit_turns_watching_off_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_MAX_WATCHES", "2")
    root = copy_fixture("py", tmp_path)
    (root / "pkg/sub").mkdir()

    async def main() -> None:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            assert not await ws.watch()
            status = state.status(ws)
            assert status.watch_problem is not None
            assert "watch limit (2) is reached" in status.watch_problem
            assert "open files are re-read" in status.watch_problem
            before = await file_diagnostics.diagnostics(ws, "pkg/app.py")
            assert before.errors == 0
            (root / "pkg/app.py").write_text("x: int = 'no'\n")
            os.utime(root / "pkg/app.py", ns=(1, 1))  # a new stamp the stat check sees
            after = await file_diagnostics.diagnostics(ws, "pkg/app.py")
            assert after.fresh and after.errors == 1
        finally:
            await ws.close()

    asyncio.run(main())
