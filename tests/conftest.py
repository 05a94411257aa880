"""Shared fixtures: copies of the fixture projects and warm workspaces on real servers."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from lspd.workspace import Workspace

FIXTURES = Path(__file__).parent / "fixtures"
T = TypeVar("T")


def copy_fixture(name: str, destination: Path) -> Path:
    """A private copy of a fixture project, so tests may write files and sentinels in it."""
    target = destination / name
    shutil.copytree(FIXTURES / name, target)
    return target.resolve()


@dataclass
class Warm:
    """A workspace whose servers stay warm across a test module, on one event loop."""

    ws: Workspace
    runner: asyncio.Runner

    @property
    def root(self) -> Path:
        return self.ws.root

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.runner.run(coroutine)


def warm_workspace(
    name: str,
    tmp_path_factory: pytest.TempPathFactory,
    config: str | None = None,
    watch: bool = False,
) -> Iterator[Warm]:
    """A warm workspace on a copy of fixture `name`, with `config` as its lspd.toml if given;
    with `watch`, its file watcher runs as in the daemon."""
    root = copy_fixture(name, tmp_path_factory.mktemp(name))
    if config is not None:
        (root / "lspd.toml").write_text(config)
    yield from warm_root(root, root.parent / "logs", watch)


def warm_root(root: Path, log_dir: Path, watch: bool = False) -> Iterator[Warm]:
    """A warm workspace on `root`; with `watch`, its file watcher runs as in the daemon."""
    runner = asyncio.Runner()
    warm = Warm(Workspace(root, log_dir=log_dir), runner)
    try:
        if watch:
            assert warm.run(warm.ws.watch())
        yield warm
    finally:
        runner.run(warm.ws.close())
        runner.close()


def answer(root: Path, question: Callable[[Workspace], Awaitable[T]]) -> T:
    """Ask one question of a fresh workspace on `root` (on an event loop of its own), then
    stop its servers."""

    async def main() -> T:
        ws = Workspace(root, log_dir=root.parent / "logs")
        try:
            return await question(ws)
        finally:
            await ws.close()

    return asyncio.run(main())


@pytest.fixture(autouse=True, scope="session")
def _session_state(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The state (locks, logs, ports, dmypy's files) of every daemon, workspace and CLI the
    tests start, under the session's temp dir instead of the user's ~/.local/state/lspd
    (set before any other fixture; subprocesses inherit it); a test wanting a state of its
    own sets LSPD_STATE_DIR over it. So are the MCP answers their daemons keep
    (LSPD_WIRE_DIR, daemon/kept_wire.py), not in the user's ~/.cache/lspd/mcp-wire."""
    path = tmp_path_factory.mktemp("state")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LSPD_STATE_DIR", str(path))
        patch.setenv("LSPD_WIRE_DIR", str(tmp_path_factory.mktemp("mcp-wire")))
        yield path


@pytest.fixture(scope="module")
def py(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The Python fixture project on basedpyright."""
    yield from warm_workspace("py", tmp_path_factory)


@pytest.fixture(scope="module")
def ts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The TypeScript fixture project on typescript-language-server."""
    yield from warm_workspace("ts", tmp_path_factory)


# The fast lane (`scripts/test --fast`, `pytest --fast`): the test modules that start no
# language server, run in seconds. A test of one that starts a server fails, naming this
# list: that module belongs in the full run only.
FAST = (
    "tests/agents/test_health_script.py",
    "tests/agents/test_plugin.py",
    "tests/agents/test_sync.py",
    "tests/agents/test_sync_stdio.py",
    "tests/bench/test_kept.py",
    "tests/cli/test_mcp.py",
    "tests/cli/test_progress.py",
    "tests/cli/test_render.py",
    "tests/daemon/test_early_calls.py",
    "tests/daemon/test_files.py",
    "tests/daemon/test_guard.py",
    "tests/daemon/test_head_start_markers.py",
    "tests/daemon/test_hook_history.py",
    "tests/daemon/test_kept_wire.py",
    "tests/daemon/test_live.py",
    "tests/daemon/test_loopback.py",
    "tests/daemon/test_watchdog.py",
    "tests/daemon/test_wire.py",
    "tests/engine/test_comparison.py",
    "tests/engine/test_declarations.py",
    "tests/engine/test_python_cycles.py",
    "tests/engine/test_python_imports.py",
    "tests/engine/test_python_names.py",
    "tests/lsp/test_answers.py",
    "tests/lsp/test_capabilities.py",
    "tests/lsp/test_framing.py",
    "tests/lsp/test_globs.py",
    "tests/lsp/test_interpreter_ask.py",
    "tests/lsp/test_positions.py",
    "tests/lsp/test_process.py",
    "tests/lsp/test_readiness.py",
    "tests/lsp/test_rpc.py",
    "tests/ops/test_check_scope.py",
    "tests/ops/test_diff.py",
    "tests/ops/test_uses.py",
    "tests/surface/test_arguments.py",
    "tests/surface/test_commands.py",
    "tests/surface/test_operation.py",
    "tests/surface/test_table.py",
    "tests/test_architecture.py",
    "tests/test_conftest.py",
    "tests/test_scripts.py",
    "tests/tools/test_arguments.py",
    "tests/tools/test_calls.py",
    "tests/workspace/symbols/test_entries.py",
    "tests/workspace/symbols/test_naming.py",
    "tests/workspace/symbols/test_words.py",
    "tests/workspace/test_checker_runs.py",
    "tests/workspace/test_files.py",
    "tests/workspace/test_mypy_config.py",
    "tests/workspace/test_mypy_mirror.py",
    "tests/workspace/test_overlay.py",
    "tests/workspace/test_pool.py",
    "tests/workspace/test_projects.py",
    "tests/workspace/test_watcher.py",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fast",
        action="store_true",
        help="only the tests that start no language server (tests/conftest.py FAST)",
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With --fast, a test module not in FAST is not even imported (collecting every module
    imports the MCP SDK, pydantic's schemas and the workspace: most of the lane's time)."""
    if not config.getoption("--fast") or not collection_path.name.startswith("test_"):
        return None
    relative = collection_path.relative_to(Path(str(config.rootpath))).as_posix()
    return True if relative not in FAST else None


@pytest.fixture(autouse=True)
def _no_server_in_the_fast_lane(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the fast lane, starting a language server fails the test at once."""
    if not request.config.getoption("--fast"):
        return

    async def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(
            f"{request.node.nodeid} starts a language server: take its module out of the "
            "fast lane (FAST in tests/conftest.py)"
        )

    from lspd.lsp import server_process
    from lspd.workspace import tsbuilder

    monkeypatch.setattr(server_process, "spawn", refused)
    monkeypatch.setattr(tsbuilder, "spawn", refused)
