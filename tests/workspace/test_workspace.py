"""A repository of several projects: each file is answered by a server rooted at its own.

The `mixed` fixture holds two TypeScript projects (`web/`, `admin/`, each with its own
tsconfig.json and a different `Settings`), a Python package with its own pyproject.toml
(`service/`) and a loose script outside every project (`scripts/`, answered from the root).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd import ops
from lspd.ops.resolve import AmbiguousSymbol
from lspd.workspace import Workspace
from lspd.workspace.workspace import PREWARM_PROJECTS
from tests.conftest import Warm, copy_fixture, warm_workspace
from tests.daemon.support import health, thread_daemon
from tests.workspace.toolchains import make_venv

# The `Settings` of `settings: Settings` on line 3 of each project's main.ts.
WEB_SETTINGS = ("web/src/main.ts", 3, 35)
ADMIN_SETTINGS = ("admin/src/main.ts", 3, 35)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from warm_workspace("mixed", tmp_path_factory)


def project_of(warm: Warm, path: str) -> str:
    """The project answering `path`: one of its session's workspace folders."""
    file = warm.root / path
    project = warm.ws.project_root(file, warm.ws.definition_for(file))
    assert project in warm.ws.session_for(file).folders
    return warm.ws.display(project)


def test_each_file_goes_to_the_nearest_project(mixed: Warm) -> None:
    assert project_of(mixed, "web/src/main.ts") == "web"
    assert project_of(mixed, "admin/src/config.ts") == "admin"
    assert project_of(mixed, "service/service_pkg/app.py") == "service"
    assert project_of(mixed, "scripts/release.py") == "."  # no marker above it: the root


def test_the_scan_finds_every_project(mixed: Warm) -> None:
    found = {(p.definition.name, mixed.ws.display(p.root)) for p in mixed.ws.projects_present()}
    assert found == {
        ("typescript-language-server", "web"),
        ("typescript-language-server", "admin"),
        ("basedpyright", "service"),
        ("basedpyright", "."),
    }


def test_same_name_means_different_things_per_project(mixed: Warm) -> None:
    web = mixed.run(ops.hover(mixed.ws, *WEB_SETTINGS))
    admin = mixed.run(ops.hover(mixed.ws, *ADMIN_SETTINGS))
    assert "interface Settings" in web.contents and "How the web server listens" in web.contents
    assert "class Settings" in admin.contents and "admin console" in admin.contents


def test_definition_stays_in_the_project(mixed: Warm) -> None:
    web = mixed.run(ops.definition(mixed.ws, *WEB_SETTINGS))
    admin = mixed.run(ops.definition(mixed.ws, *ADMIN_SETTINGS))
    assert [(loc.path, loc.line) for loc in web.locations] == [("web/src/config.ts", 2)]
    assert [(loc.path, loc.line) for loc in admin.locations] == [("admin/src/config.ts", 2)]
    python = mixed.run(ops.definition(mixed.ws, "service/service_pkg/app.py", 4, 24))
    assert [(loc.path, loc.line) for loc in python.locations] == [
        ("service/service_pkg/models.py", 1)
    ]


def test_diagnostics_come_from_each_projects_server(mixed: Warm) -> None:
    web = mixed.run(ops.diagnostics(mixed.ws, "web/src/broken.ts"))
    admin = mixed.run(ops.diagnostics(mixed.ws, "admin/src/broken.ts"))
    assert [d.message for d in web.diagnostics] == [
        "Type 'string' is not assignable to type 'number'."
    ]
    assert [d.message for d in admin.diagnostics] == [
        "Property 'port' does not exist on type 'Settings'."
    ]
    python = mixed.run(ops.diagnostics(mixed.ws, "service/service_pkg/broken.py"))
    assert python.errors == 1 and python.diagnostics[0].code == "reportAssignmentType"


def test_a_project_config_applies_to_its_files_only(mixed: Warm) -> None:
    # service/pyproject.toml makes a missing parameter annotation an error; basedpyright
    # reads it only when rooted at service/. The same code in scripts/ is not checked so.
    (mixed.root / "scripts/loose.py").write_text("def double(value):\n    return value * 2\n")
    inside = mixed.run(ops.diagnostics(mixed.ws, "service/service_pkg/loose.py"))
    outside = mixed.run(ops.diagnostics(mixed.ws, "scripts/loose.py"))
    assert "reportMissingParameterType" in {d.code for d in inside.diagnostics}
    assert outside.errors == 0


def test_workspace_symbols_ask_every_project(mixed: Warm) -> None:
    result = mixed.run(ops.workspace_symbols(mixed.ws, "Settings"))
    found = {(s.path, s.kind) for s in result.symbols if s.name_path == "Settings"}
    assert found == {
        ("web/src/config.ts", "interface"),
        ("admin/src/config.ts", "class"),
        ("service/service_pkg/models.py", "class"),
    }
    places = [(s.path, s.line, s.column, s.name_path) for s in result.symbols]
    assert len(places) == len(set(places)), "a symbol two projects' servers see is listed once"


def test_symbol_names_resolve_across_projects(mixed: Warm) -> None:
    with pytest.raises(AmbiguousSymbol) as ambiguous:
        mixed.run(ops.hover(mixed.ws, symbol="Settings"))
    assert {c.path for c in ambiguous.value.candidates} == {
        "web/src/config.ts",
        "admin/src/config.ts",
        "service/service_pkg/models.py",
    }
    admin = mixed.run(ops.hover(mixed.ws, symbol="admin.src.config.Settings"))
    assert "class Settings" in admin.contents


def test_status_shows_each_sessions_project(mixed: Warm) -> None:
    mixed.run(ops.hover(mixed.ws, *WEB_SETTINGS))
    mixed.run(ops.hover(mixed.ws, *ADMIN_SETTINGS))
    servers = ops.status(mixed.ws).servers
    (typescript,) = [s for s in servers if s.server == "typescript-language-server"]
    assert {"web", "admin"} <= set(typescript.projects), "one process serves both projects"
    assert typescript.pid is not None


def test_the_daemon_prewarms_every_project_and_reports_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("mixed", tmp_path)
    # One process per server and toolchain, serving each of its projects as a folder.
    expected = {
        ("typescript-language-server", ("admin", "web")),
        ("basedpyright", ("service",)),  # scripts/release.py is no project: not prewarmed
    }
    with thread_daemon(root) as daemon:
        deadline = time.monotonic() + 60
        while True:
            servers = health(daemon.daemon.port or 0)["servers"]
            running = {(s["server"], tuple(sorted(s["projects"]))) for s in servers if s["pid"]}
            if running == expected:
                break
            assert time.monotonic() < deadline, f"prewarmed: {running}"
            time.sleep(0.1)


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
            checked = await ops.diagnostics(ws, path)
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


def test_a_server_started_before_the_promised_watch_leaves_watching_to_lspd(
    tmp_path: Path,
) -> None:
    # The daemon starts its servers before its watcher (which waits for the sentinel).
    root = copy_fixture("ts", tmp_path)
    main_ts = root / "src" / "main.ts"
    unwatched, promised = (Workspace(root, log_dir=tmp_path / "logs") for _ in range(2))
    promised.will_watch()
    assert (unwatched.watching, promised.watching) == (False, True)
    options = [
        ws.session_for(main_ts).definition.initialization_options for ws in (unwatched, promised)
    ]
    assert [o.get("tsserver", {}).get("useClientFileWatcher") for o in options] == [None, True]
