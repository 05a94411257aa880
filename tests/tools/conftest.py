from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import copy_fixture
from tests.daemon.support import ThreadDaemon, thread_daemon, wait_for_servers


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadDaemon]:
    """A daemon on a copy of the Python fixture, basedpyright prewarmed, for a whole module."""
    base = tmp_path_factory.mktemp("served")
    root = copy_fixture("py", base)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LSPD_STATE_DIR", str(base / "state"))
        with thread_daemon(root) as daemon:
            assert daemon.daemon.port is not None
            wait_for_servers(daemon.daemon.port)
            yield daemon


@pytest.fixture
def root(served: ThreadDaemon) -> Path:
    return served.daemon.root


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
