"""Shared fixtures: copies of the fixture projects and warm workspaces on real servers."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Coroutine, Iterator
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


@pytest.fixture(scope="module")
def py(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The Python fixture project on basedpyright."""
    yield from warm_workspace("py", tmp_path_factory)


@pytest.fixture(scope="module")
def ts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The TypeScript fixture project on typescript-language-server."""
    yield from warm_workspace("ts", tmp_path_factory)
