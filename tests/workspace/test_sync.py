"""Document sync: what the servers hold of the files, opened as on disk, refused with a
clear error before any server starts, and files opened only for a visit closed again."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.servers.registry import definitions
from lspd.workspace import Workspace
from lspd.workspace.watcher import Change, FileEvent
from tests.conftest import Warm, copy_fixture, warm_root, warm_workspace


@pytest.fixture(scope="module")
def py(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from warm_workspace("py", tmp_path_factory)


def test_a_missing_file_is_refused_naming_the_files_ending_like_it(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "core.py").write_text("x = 1\n")
    ws = Workspace(tmp_path, log_dir=tmp_path.parent / "logs")
    try:
        with pytest.raises(InvalidInput) as refused:
            asyncio.run(ws.sync.open("core.py"))
        assert str(refused.value) == (
            "core.py does not exist; files ending in core.py: pkg/core.py. "
            "Send the path relative to the workspace root"
        )
        assert ws.pool.sessions == {}  # refused before any server was made
    finally:
        asyncio.run(ws.close())


def test_a_file_lock_is_held_only_inside_its_block(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, log_dir=tmp_path.parent / "logs")
    path = tmp_path / "a.py"

    async def main() -> tuple[bool, bool, bool]:
        before = ws.sync.locked(path)
        async with ws.sync.file_lock(path):
            inside = ws.sync.locked(path)
        return before, inside, ws.sync.locked(path)

    try:
        assert asyncio.run(main()) == (False, True, False)
    finally:
        asyncio.run(ws.close())


def test_a_visit_closes_what_it_opened_and_leaves_an_open_file_open(py: Warm) -> None:
    ws = py.ws
    greeting, app = py.root / "pkg" / "greeting.py", py.root / "pkg" / "app.py"

    async def visit(path: Path) -> tuple[bool, str]:
        async with ws.sync.visiting(path) as (session, document):
            held = ws.holds(path) and session.documents.get(document.uri) is document
            return held, document.text

    py.run(ws.open("pkg/app.py"))
    assert py.run(visit(greeting)) == (True, greeting.read_text())
    assert py.run(visit(app)) == (True, app.read_text())
    assert (ws.holds(greeting), ws.holds(app)) == (False, True)
    assert ws.first_seen[greeting] == greeting.read_text()  # the `session` baseline


def test_a_file_as_synced_is_not_read_again_until_its_stamp_or_document_changes(
    py: Warm,
) -> None:
    ws, path = py.ws, py.root / "pkg" / "settled.py"
    path.write_text("x = 1\n")
    old = time.time_ns() - 10 * 10**9  # settled: past files.RACY_NS
    os.utime(path, ns=(old, old))
    try:
        session, first = py.run(ws.open("pkg/settled.py"))
        path.write_text("y = 2\n")  # same size, its stamp put back: only a read would see it
        os.utime(path, ns=(old, old))
        _, again = py.run(ws.open("pkg/settled.py"))
        assert (again is first, again.text, again.version) == (True, "x = 1\n", 1)
        py.run(session.sync_document(path, "z = 3\n", "python", on_disk=False))
        _, read = py.run(ws.open("pkg/settled.py"))  # its text was replaced: read again
        assert read.text == "y = 2\n"
        os.utime(path, ns=(old + 10**9, old + 10**9))  # a newer stamp: read again
        path.write_text("w = 4\n")
        os.utime(path, ns=(old + 10**9, old + 10**9))
        assert py.run(ws.open("pkg/settled.py"))[1].text == "w = 4\n"
    finally:
        ws.close_document(path)
        path.unlink()


def test_a_deleted_file_leaves_nothing_of_it_as_synced(py: Warm) -> None:
    """The document `open` remembers as synced (its whole text) goes with the file: a
    deletion closes it in the server, and nothing keeps its text after."""
    ws, path = py.ws, py.root / "pkg" / "gone.py"
    path.write_text("x = 1\n")
    try:
        py.run(ws.open("pkg/gone.py"))
        assert path in ws.sync._synced._documents
        path.unlink()
        py.run(ws.sync.changes.apply([FileEvent(Change.deleted, path)]))
        assert (ws.holds(path), path in ws.sync._synced._documents) == (False, False)
    finally:
        ws.close_document(path)
        path.unlink(missing_ok=True)


def test_a_file_or_directory_replaced_by_a_symlink_is_opened_where_it_leads(
    py: Warm,
) -> None:
    """Nothing of an earlier `open` of the same path answers for it: moved, with a symlink
    in its place (its stamp the same: a rename keeps it), it is opened at its new place."""
    ws, sub = py.ws, py.root / "pkg" / "sub"
    sub.mkdir()
    (sub / "linked.py").write_text("x = 1\n")
    old = time.time_ns() - 10 * 10**9  # settled: past files.RACY_NS
    for path in (sub / "linked.py", sub, py.root / "pkg"):
        os.utime(path, ns=(old, old))
    try:
        assert py.run(ws.open("pkg/sub/linked.py"))[1].path == sub / "linked.py"
        (sub / "linked.py").rename(sub / "real.py")
        (sub / "linked.py").symlink_to("real.py")
        assert py.run(ws.open("pkg/sub/linked.py"))[1].path == sub / "real.py"
        sub.rename(py.root / "pkg" / "moved")
        sub.symlink_to("moved")
        _, document = py.run(ws.open("pkg/sub/linked.py"))
        assert (document.path, document.text) == (py.root / "pkg/moved/real.py", "x = 1\n")
    finally:
        for path in (sub / "linked.py", sub / "real.py", py.root / "pkg/moved/real.py"):
            ws.close_document(path)
        if sub.is_symlink():
            sub.unlink()
        shutil.rmtree(sub, ignore_errors=True)
        shutil.rmtree(py.root / "pkg/moved", ignore_errors=True)


def test_a_project_marker_coming_or_going_is_seen_by_the_next_open(tmp_path: Path) -> None:
    """The project root `open` finds is kept while the directories above the file are
    unchanged (`Projects.project_root`): a marker written into a settled directory makes
    the next open's project that directory, and its removal the root again."""
    root, sub = _sub_module(tmp_path)
    _settled(sub / "mod.py", sub, root / "pkg")
    basedpyright = definitions()["basedpyright"]
    for warm in warm_root(root, tmp_path / "logs"):
        projects = warm.ws.pool.projects
        assert _opened_twice(warm, sub) == [root]
        (sub / "pyproject.toml").write_text("[project]\nname = 'sub'\n")
        session, _ = warm.run(warm.ws.open("pkg/sub/mod.py"))
        assert session.folders == [root, sub]
        assert projects.project_root(sub / "mod.py", basedpyright) == sub
        (sub / "pyproject.toml").unlink()
        assert projects.project_root(sub / "mod.py", basedpyright) == root


def test_a_gitignore_edited_in_place_is_seen_by_the_next_open(tmp_path: Path) -> None:
    """The kept project root also holds for the .gitignore's rules (`Ignore.rules`): with
    `pkg/sub` ignored, its pyproject.toml is passed over (the root answers); the rule
    taken out of the .gitignore in place (no directory changes), the next open's project is
    pkg/sub. Before, the kept root held: the session's folders stayed [root]."""
    root, sub = _sub_module(tmp_path)
    (sub / "pyproject.toml").write_text("[project]\nname = 'sub'\n")
    gitignore = root / ".gitignore"
    gitignore.write_text("*.log\npkg/sub\n")
    old = _settled(sub / "mod.py", sub, root / "pkg", root, gitignore, sub / "pyproject.toml")
    basedpyright = definitions()["basedpyright"]
    for warm in warm_root(root, tmp_path / "logs"):
        projects = warm.ws.pool.projects
        assert _opened_twice(warm, sub) == [root]
        with gitignore.open("r+") as file:  # in place: the rule taken out
            file.truncate(len("*.log\n"))
        session, _ = warm.run(warm.ws.open("pkg/sub/mod.py"))
        assert session.folders == [root, sub]
        assert projects.project_root(sub / "mod.py", basedpyright) == sub
        assert [p.stat().st_mtime_ns for p in (sub, root / "pkg", root)] == [old] * 3


def _sub_module(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the py fixture with pkg/sub/mod.py: its root, and pkg/sub."""
    root = copy_fixture("py", tmp_path)
    sub = root / "pkg" / "sub"
    sub.mkdir()
    (sub / "mod.py").write_text("x = 1\n")
    return root, sub


def _settled(*paths: Path) -> int:
    """`paths`' mtimes set past files.RACY_NS (the one they now have)."""
    old = time.time_ns() - 10 * 10**9
    for path in paths:
        os.utime(path, ns=(old, old))
    return old


def _opened_twice(warm: Warm, sub: Path) -> list[Path]:
    """pkg/sub/mod.py opened twice, its project root kept the second time: the folders of
    the session answering it."""
    session, _ = warm.run(warm.ws.open("pkg/sub/mod.py"))
    warm.run(warm.ws.open("pkg/sub/mod.py"))  # kept: the same
    key = (definitions()["basedpyright"].roots, str(sub))
    assert warm.ws.pool.projects._roots[key][0] == session.folders[-1]
    return session.folders
