"""What the daemon starts before the first question: a session per server and toolchain,
with only the folders it needs (`lspd.workspace.prewarm`)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from lspd.ops import file_diagnostics
from lspd.workspace import Workspace, prewarm
from lspd.workspace.prewarm import PREWARM_PROJECTS
from tests.conftest import copy_fixture
from tests.workspace.toolchains import make_venv


def test_prewarm_starts_a_few_projects_of_each_server(tmp_path: Path) -> None:
    (tmp_path / "lspd.toml").write_text('[languages.python]\nserver = "ty"\n')  # starts fast
    for index in range(PREWARM_PROJECTS + 2):
        package = tmp_path / f"packages/p{index}"
        package.mkdir(parents=True)
        (package / "pyproject.toml").write_text(f'[project]\nname = "p{index}"\n')
        (package / "main.py").write_text("x = 1\n")
    ws = Workspace(tmp_path, log_dir=tmp_path.parent / "logs")

    async def prewarm() -> list[str]:
        try:
            await ws.prewarm()
            return [s.state for s in ws.sessions.values()]
        finally:
            await ws.close()

    assert len(ws.projects_present()) == PREWARM_PROJECTS + 2
    states = asyncio.run(prewarm())
    assert len(states) == PREWARM_PROJECTS and "crashed" not in states


def nested_projects(root: Path) -> Path:
    """A Python project with another nested in it (`inner/`, stricter rules); the root."""
    (root / "inner" / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "outer"\n')
    (root / "main.py").write_text("x = 1\n")
    (root / "inner" / "pyproject.toml").write_text(
        '[project]\nname = "inner"\n\n[tool.basedpyright]\nreportMissingParameterType = "error"\n'
    )
    (root / "inner" / "pkg" / "loose.py").write_text("def double(value):\n    return value * 2\n")
    return root.resolve()


def prewarm_then_check(ws: Workspace, path: str) -> tuple[dict[str, list[str]], set[str]]:
    """Each session's folders after prewarm, then the codes of `path`'s diagnostics."""

    async def main() -> tuple[dict[str, list[str]], set[str]]:
        try:
            await ws.prewarm()
            folders = {
                s.toolchain or "": [ws.display(f) for f in s.folders] for s in ws.sessions.values()
            }
            checked = await file_diagnostics.diagnostics(ws, path)
            return folders, {d.code or "" for d in checked.diagnostics}
        finally:
            await ws.close()

    return asyncio.run(main())


def test_prewarm_leaves_a_nested_project_to_the_folder_above_until_asked(tmp_path: Path) -> None:
    # basedpyright loads every workspace folder before it answers: a nested project its
    # root folder covers gets a folder (and its own configuration) only once asked.
    root = nested_projects(tmp_path / "repo")
    ws = Workspace(root, log_dir=tmp_path / "logs")
    folders, codes = prewarm_then_check(ws, "inner/pkg/loose.py")
    assert list(folders.values()) == [["."]]
    assert "reportMissingParameterType" in codes  # inner/pyproject.toml's rule applies
    (session,) = ws.sessions.values()
    assert [ws.display(f) for f in session.folders] == [".", "inner"]


def test_prewarm_starts_a_nested_project_with_its_own_environment(tmp_path: Path) -> None:
    root = nested_projects(tmp_path / "repo")
    make_venv(root / "inner" / ".venv")
    ws = Workspace(root, log_dir=tmp_path / "logs")
    folders, codes = prewarm_then_check(ws, "inner/pkg/loose.py")
    assert sorted(folders.values()) == [["."], ["inner"]]  # a session each, both started
    assert "reportMissingParameterType" in codes
    [inner] = [s for s in ws.sessions.values() if s.root == root / "inner"]
    assert inner.toolchain is not None and "inner/.venv/bin/python" in inner.toolchain


def test_spawned_returns_once_the_processes_run_or_their_start_failed(tmp_path: Path) -> None:
    # The daemon imports the MCP SDK only after this (see lspd.daemon.run).
    root = copy_fixture("py", tmp_path)
    ws = Workspace(root, log_dir=tmp_path / "logs")
    missing = Workspace(root, log_dir=tmp_path / "logs-missing")
    definition = missing.definitions["basedpyright"]
    missing.definitions["basedpyright"] = dataclasses.replace(
        definition, command=("lspd-no-such-server",), install={}
    )

    async def main(ws: Workspace) -> list[tuple[bool, bool]]:
        try:
            chosen = prewarm.sessions(ws)
            starts = prewarm.start(ws, chosen)
            await asyncio.wait_for(prewarm.spawned(chosen, starts), 60)
            return [(s.pid is not None, t.done()) for s, t in zip(chosen, starts, strict=True)]
        finally:
            await ws.close()

    assert asyncio.run(main(ws)) == [(True, False)]  # running, not initialized yet
    assert asyncio.run(main(missing)) == [(False, True)]


def test_a_warm_up_server_is_asked_one_small_files_symbols(tmp_path: Path) -> None:
    """basedpyright (`warm_up` in servers.toml) pays its one-time first-request cost during
    prewarm: the smallest source file's symbols are asked, and the file is closed again."""
    root = copy_fixture("py", tmp_path / "py")
    ws = Workspace(root, log_dir=tmp_path / "logs")
    handled = [p for p in ws.projects.source_files() if ws.handler(p) is not None]
    smallest = min(handled, key=lambda p: (p.stat().st_size, p))

    async def main() -> tuple[list[Path], int]:
        try:
            await ws.prewarm()
            (session,) = ws.sessions.values()
            return ws.symbols.kept(), len(session.documents)
        finally:
            await ws.close()

    assert asyncio.run(main()) == ([smallest], 0)


def test_a_server_without_warm_up_is_asked_nothing(tmp_path: Path) -> None:
    (tmp_path / "lspd.toml").write_text('[languages.python]\nserver = "ty"\n')
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n')
    (tmp_path / "main.py").write_text("x = 1\n")
    ws = Workspace(tmp_path, log_dir=tmp_path.parent / "logs")

    async def main() -> list[Path]:
        try:
            await ws.prewarm()
            return ws.symbols.kept()
        finally:
            await ws.close()

    assert asyncio.run(main()) == []
