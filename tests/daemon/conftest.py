from __future__ import annotations

from pathlib import Path

import pytest

from lspd.daemon import kept_wire
from tests.conftest import copy_fixture


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Locks, logs and last ports of test daemons go under the test's temp dir."""
    path = tmp_path / "state"
    monkeypatch.setenv("LSPD_STATE_DIR", str(path))
    return path


@pytest.fixture(autouse=True)
def kept_wire_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The MCP answers kept by test daemons go under the test's temp dir (none at first)."""
    path = tmp_path / "wire"
    monkeypatch.setattr(kept_wire, "folder", lambda: path)
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A private copy of the Python fixture (the sentinel must never land in the repo)."""
    return copy_fixture("py", tmp_path)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
