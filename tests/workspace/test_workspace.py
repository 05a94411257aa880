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

from lspd.ops import file_diagnostics, navigation, symbols
from lspd.ops import state as state_ops
from lspd.ops.resolve import AmbiguousSymbol
from lspd.workspace import Workspace
from tests.conftest import Warm, copy_fixture, warm_workspace
from tests.daemon.support import health, thread_daemon

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
    web = mixed.run(navigation.hover(mixed.ws, *WEB_SETTINGS))
    admin = mixed.run(navigation.hover(mixed.ws, *ADMIN_SETTINGS))
    assert "interface Settings" in web.contents and "How the web server listens" in web.contents
    assert "class Settings" in admin.contents and "admin console" in admin.contents


def test_definition_stays_in_the_project(mixed: Warm) -> None:
    web = mixed.run(navigation.definition(mixed.ws, *WEB_SETTINGS))
    admin = mixed.run(navigation.definition(mixed.ws, *ADMIN_SETTINGS))
    assert [(loc.path, loc.line) for loc in web.locations] == [("web/src/config.ts", 2)]
    assert [(loc.path, loc.line) for loc in admin.locations] == [("admin/src/config.ts", 2)]
    python = mixed.run(navigation.definition(mixed.ws, "service/service_pkg/app.py", 4, 24))
    assert [(loc.path, loc.line) for loc in python.locations] == [
        ("service/service_pkg/models.py", 1)
    ]


def test_diagnostics_come_from_each_projects_server(mixed: Warm) -> None:
    web = mixed.run(file_diagnostics.diagnostics(mixed.ws, "web/src/broken.ts"))
    admin = mixed.run(file_diagnostics.diagnostics(mixed.ws, "admin/src/broken.ts"))
    assert [d.message for d in web.diagnostics] == [
        "Type 'string' is not assignable to type 'number'."
    ]
    assert [d.message for d in admin.diagnostics] == [
        "Property 'port' does not exist on type 'Settings'."
    ]
    python = mixed.run(file_diagnostics.diagnostics(mixed.ws, "service/service_pkg/broken.py"))
    assert python.errors == 1 and python.diagnostics[0].code == "reportAssignmentType"


def test_a_project_config_applies_to_its_files_only(mixed: Warm) -> None:
    # service/pyproject.toml makes a missing parameter annotation an error; basedpyright
    # reads it only when rooted at service/. The same code in scripts/ is not checked so.
    (mixed.root / "scripts/loose.py").write_text("def double(value):\n    return value * 2\n")
    inside = mixed.run(file_diagnostics.diagnostics(mixed.ws, "service/service_pkg/loose.py"))
    outside = mixed.run(file_diagnostics.diagnostics(mixed.ws, "scripts/loose.py"))
    assert "reportMissingParameterType" in {d.code for d in inside.diagnostics}
    assert outside.errors == 0


def test_workspace_symbols_ask_every_project(mixed: Warm) -> None:
    result = mixed.run(symbols.workspace_symbols(mixed.ws, "Settings"))
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
        mixed.run(navigation.hover(mixed.ws, symbol="Settings"))
    assert {c.path for c in ambiguous.value.candidates} == {
        "web/src/config.ts",
        "admin/src/config.ts",
        "service/service_pkg/models.py",
    }
    admin = mixed.run(navigation.hover(mixed.ws, symbol="admin.src.config.Settings"))
    assert "class Settings" in admin.contents


def test_status_shows_each_sessions_project(mixed: Warm) -> None:
    mixed.run(navigation.hover(mixed.ws, *WEB_SETTINGS))
    mixed.run(navigation.hover(mixed.ws, *ADMIN_SETTINGS))
    servers = state_ops.status(mixed.ws).servers
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


def test_a_file_written_before_the_watcher_started_reaches_the_running_server(
    tmp_path: Path,
) -> None:
    # The daemon's servers start before its watcher: a file written in between has no event.
    root = copy_fixture("py", tmp_path)
    ws = Workspace(root, log_dir=tmp_path / "logs")
    ws.will_watch()

    async def run() -> list[tuple[int, str]]:
        try:
            assert (
                await file_diagnostics.diagnostics(ws, "pkg/app.py")
            ).errors == 0  # server running
            greeting = root / "pkg" / "greeting.py"  # never opened
            greeting.write_text(
                greeting.read_text().replace("def greet(self, punc", "def hail(self, punc")
            )
            assert await ws.watch()
            found = (await file_diagnostics.diagnostics(ws, "pkg/app.py")).diagnostics
            return [(d.line, d.message.splitlines()[0]) for d in found if d.severity == "error"]
        finally:
            await ws.close()

    unknown = 'Cannot access attribute "greet" for class "Greeter"'
    assert asyncio.run(run()) == [(6, unknown), (10, unknown)]
