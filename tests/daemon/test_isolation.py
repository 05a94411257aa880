"""lspd never imports a module of the workspace (issue: `serve --detach` ran `httpx/__init__.py`
of the project it served).

The workspace shadows every top-level module that lspd and its dependencies import, each
writing a marker when imported; every command, detached and in the foreground, must work and
leave no marker.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import copy_fixture
from tests.daemon.support import env_for, kill, wait_dead, wait_for_port

LSPD = str(Path(sys.executable).parent / "lspd")

# What the CLI and the daemon import, listed by a clean interpreter (not this test process).
_LIST_MODULES = """
import json, sys
import lspd.cli, lspd.cli.query, lspd.cli.daemon, lspd.daemon.run, lspd.tools.server
names = {n.split(".")[0] for n, m in list(sys.modules.items()) if getattr(m, "__file__", None)}
print(json.dumps(sorted(names)))
"""


def _imported_modules() -> list[str]:
    done = subprocess.run(
        [sys.executable, "-I", "-c", _LIST_MODULES], capture_output=True, text=True, check=True
    )
    names: list[str] = json.loads(done.stdout)
    return names


def _shadow(root: Path, markers: Path) -> list[str]:
    """A module of each name in `root`, writing `markers/NAME` when imported."""
    names = sorted({*_imported_modules(), "httpx", "pydantic", "anyio", "click", "mcp", "lspd"})
    for name in names:
        package = root / name
        package.mkdir(exist_ok=True)
        (package / "__init__.py").write_text(
            f"open({str(markers / name)!r}, 'w').close()\n"
            f"raise ImportError('the workspace module {name} was imported')\n"
        )
    return names


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path]:
    root = copy_fixture("py", tmp_path)
    markers = tmp_path / "markers"
    markers.mkdir()
    assert "httpx" in _shadow(root, markers)
    return root, markers


def _lspd(root: Path, state: Path, *args: str, timeout: float = 120) -> str:
    done = subprocess.run(
        [LSPD, *args],
        cwd=root,
        env=env_for(state),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_detached_daemon_and_queries_import_nothing_of_the_workspace(
    hostile: tuple[Path, Path], tmp_path: Path
) -> None:
    root, markers = hostile
    state = tmp_path / "state"
    url = _lspd(root, state, "serve", "--detach", "--no-prewarm").strip().splitlines()[-1]
    assert url.startswith("http://127.0.0.1:")
    try:
        hover = json.loads(_lspd(root, state, "hover", "pkg/greeting.py:12:7", "--json"))
        assert "class Greeter" in hover["contents"]
        assert json.loads(_lspd(root, state, "status", "--json"))["workspace"] == str(root)
    finally:
        _lspd(root, state, "stop")
    assert sorted(p.name for p in markers.iterdir()) == []


def test_foreground_daemon_imports_nothing_of_the_workspace(
    hostile: tuple[Path, Path], tmp_path: Path
) -> None:
    root, markers = hostile
    state = tmp_path / "state"
    process = subprocess.Popen(
        [LSPD, "serve", "--no-prewarm"],
        cwd=root,
        env=env_for(state),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        wait_for_port(root)
        assert "serves" in _lspd(root, state, "health")
        _lspd(root, state, "stop")
        assert wait_dead(process.pid)
    finally:
        kill(process)
    assert sorted(p.name for p in markers.iterdir()) == []
