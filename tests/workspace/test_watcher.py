"""The file watcher on a real file system: batches, ignore rules, and the catch-up barrier."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
import watchfiles

from lspd.workspace import Workspace
from lspd.workspace.ignore import Ignore
from lspd.workspace.watcher import Change, FileEvent, Watcher, fold
from tests.conftest import copy_fixture
from tests.workspace.support import Recorder


def run(body: Callable[[Watcher, Recorder, Path], Coroutine[Any, Any, None]], root: Path) -> None:
    async def main() -> None:
        recorder = Recorder()
        watcher = Watcher(root, root.parent / "marker", Ignore(root), recorder)
        assert await watcher.start()
        try:
            await body(watcher, recorder, root)
        finally:
            await watcher.stop()

    asyncio.run(main())


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "kept.py").write_text("x = 1\n")
    return project


def test_catch_up_returns_after_every_earlier_write_was_delivered(root: Path) -> None:
    async def body(watcher: Watcher, recorder: Recorder, root: Path) -> None:
        (root / "src" / "kept.py").write_text("x = 2\n")
        (root / "src" / "new.py").write_text("y = 1\n")
        (root / "src" / "gone.py").write_text("z = 1\n")
        (root / "src" / "gone.py").unlink()
        assert await watcher.catch_up()  # no sleep: the barrier is the synchronisation
        changes = recorder.changes(root)
        assert (Change.changed, "src/kept.py") in changes
        assert (Change.created, "src/new.py") in changes
        assert not any(path == "src/gone.py" and c is not Change.deleted for c, path in changes)

    run(body, root)


def test_the_inotify_watcher_is_in_place_at_its_first_marker(root: Path) -> None:
    """It says when its watches are added, so the first marker is not lost (each lost one
    cost the start 0.25 s)."""

    async def body(watcher: Watcher, recorder: Recorder, root: Path) -> None:
        assert watcher.running
        assert watcher._written == 1  # one marker written, one came back

    run(body, root)


def test_ignored_paths_are_not_delivered(root: Path) -> None:
    (root / ".gitignore").write_text("generated/\n*.log\n")
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / ".venv-custom").mkdir()
    (root / "env").mkdir()
    (root / "env" / "pyvenv.cfg").write_text("home = /usr\n")
    (root / "generated").mkdir()

    async def body(watcher: Watcher, recorder: Recorder, root: Path) -> None:
        (root / "node_modules" / "dep" / "index.js").write_text("1\n")
        (root / ".git").mkdir()
        (root / ".git" / "HEAD").write_text("ref\n")
        (root / "env" / "lib.py").write_text("1\n")
        (root / "generated" / "out.py").write_text("1\n")
        (root / "debug.log").write_text("1\n")
        (root / "src" / "seen.py").write_text("1\n")
        assert await watcher.catch_up()
        assert recorder.changes(root) == {(Change.created, "src/seen.py")}

    run(body, root)


def test_a_burst_is_delivered_in_batches_and_nothing_is_lost(root: Path) -> None:
    async def body(watcher: Watcher, recorder: Recorder, root: Path) -> None:
        for index in range(500):
            (root / "src" / f"m{index}.py").write_text(f"v = {index}\n")
        assert await watcher.catch_up(timeout=10)
        created = {path for change, path in recorder.changes(root) if change is Change.created}
        assert created == {f"src/m{index}.py" for index in range(500)}

    run(body, root)


def test_catch_up_without_a_running_watcher_says_so(tmp_path: Path) -> None:
    async def main() -> None:
        watcher = Watcher(tmp_path, tmp_path / "marker", Ignore(tmp_path), Recorder())
        assert await watcher.catch_up() is False

    asyncio.run(main())


def test_fold_keeps_one_event_per_path_and_asks_the_disk_when_in_doubt(tmp_path: Path) -> None:
    present, absent = tmp_path / "present.py", tmp_path / "absent.py"
    present.write_text("1\n")
    events = fold(
        [
            (watchfiles.Change.deleted, present),
            (watchfiles.Change.added, present),  # replaced: an editor's atomic save
            (watchfiles.Change.added, absent),
            (watchfiles.Change.deleted, absent),  # a temporary file, gone again
            (watchfiles.Change.modified, tmp_path),  # directories are not reported
        ]
    )
    assert events == [
        FileEvent(Change.deleted, absent, transient=True),  # no module came or went
        FileEvent(Change.created, present),
    ]


def test_a_server_made_while_the_watcher_starts_leaves_watching_to_lspd(tmp_path: Path) -> None:
    # Otherwise tsserver watches by itself for good: it polls every package's missing
    # node_modules (0.4-0.6 % CPU of an idle monorepo, bench/monorepo.py).
    root = copy_fixture("ts", tmp_path)
    ws = Workspace(root, log_dir=tmp_path / "logs")

    async def main() -> None:
        try:
            starting = asyncio.create_task(ws.watch())
            await asyncio.sleep(0)  # its task runs; its watch is not in place yet
            assert ws.watcher is not None and ws.watcher.active and not ws.watcher.running
            session = ws.session_for(root / "src" / "main.ts")
            options = session.definition.initialization_options
            assert options["tsserver"]["useClientFileWatcher"] is True
            assert await starting and ws.watcher.active
            await ws.watcher.stop()
            assert not ws.watcher.active
        finally:
            await ws.close()

    asyncio.run(main())
