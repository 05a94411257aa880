"""What a workspace's markers make certain to start ahead with nothing remembered
(daemon/head_start_markers.py): the Python and TypeScript servers prewarm starts at the root,
as their sessions run them, and nothing where prewarm would start none or the session would
run something of the workspace. No server starts here (the serves that take these starts are
in test_head_start.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from lspd.daemon import head_start
from lspd.daemon.head_start_markers import records
from lspd.dirs import state_dir
from lspd.servers.registry import definitions
from tests.lsp.test_interpreter_ask import make_shim


def commands(root: Path) -> list[str]:
    """The script (or executable) of each server the markers start, and `ask` for a shim."""
    return ["ask" if "ask" in r else Path(r["command"][-2]).name for r in records(root)]


def workspace(tmp_path: Path, *files: str) -> Path:
    root = tmp_path / "ws"
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("")
    return root.resolve()


@pytest.fixture(autouse=True)
def no_shim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`python3` on PATH is this Python, no script: no question to a shim."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return bin_dir / "python3"


def test_a_python_project_starts_basedpyright_as_its_session_runs_it(
    tmp_path: Path, no_shim: Path
) -> None:
    root = workspace(tmp_path, "pyproject.toml", "src/pkg/mod.py")
    [server] = records(root)
    definition = definitions()["basedpyright"]
    assert server["command"] == definition.resolved_command()
    assert server["command"][-2].endswith("/basedpyright/langserver.index.js")
    assert server["cwd"] == str(root)
    assert server["log_path"] == str(state_dir(root) / "logs" / "basedpyright.log")
    assert server["env"]["PATH"] == f"{no_shim.parent}{os.pathsep}{os.environ['PATH']}"
    assert server["env"]["NODE_OPTIONS"] == definition.resolved_env()["NODE_OPTIONS"]


def test_each_python_marker_at_the_root_makes_it_certain(tmp_path: Path) -> None:
    for marker in ("pyproject.toml", "setup.py", "setup.cfg", "pyrightconfig.json"):
        root = workspace(tmp_path / marker, marker, "app.py")
        assert commands(root) == ["langserver.index.js"], marker


def test_a_shim_on_path_is_asked_as_the_session_asks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shim = make_shim(tmp_path / "shims", f'exec {sys.executable} "$@"')
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    root = workspace(tmp_path, "setup.cfg", "pkg/__init__.py")
    server, ask = records(root)
    assert ask == {
        "ask": str(shim),
        "cwd": str(root),
        "env": {**definitions()["basedpyright"].env, "PATH": server["env"]["PATH"]},
    }


def test_a_typescript_project_starts_typescript_language_server(tmp_path: Path) -> None:
    root = workspace(tmp_path, "tsconfig.json", "src/main.ts")
    [server] = records(root)
    assert server["command"] == definitions()["typescript-language-server"].resolved_command()
    assert server["log_path"] == str(state_dir(root) / "logs" / "typescript-language-server.log")
    both = workspace(tmp_path / "both", "pyproject.toml", "tsconfig.json", "a.py", "web/b.ts")
    assert commands(both) == ["langserver.index.js", "cli.mjs"]


def test_the_projects_typescript_up_to_6_is_no_obstacle(tmp_path: Path) -> None:
    """It reaches the server in its initialization options, not its command."""
    root = workspace(
        tmp_path, "package.json", "index.js", "node_modules/typescript/lib/tsserver.js"
    )
    package = root / "node_modules" / "typescript" / "package.json"
    package.write_text(json.dumps({"version": "5.4.5"}))
    assert commands(root) == ["cli.mjs"]


@pytest.mark.parametrize(
    "files",
    [
        ("app.py",),  # no marker: prewarm starts none (it starts when asked)
        ("pyproject.toml", "README.md"),  # no Python file
        ("pyproject.toml", "sub/pyproject.toml", "sub/x.py"),  # only a nested project's
        ("pyproject.toml", "node_modules/x/y.py", ".hidden/z.py"),  # passed over
        ("pyproject.toml", "x.py", "lspd.toml"),  # lspd.toml may choose another server
        ("pyproject.toml", "x.py", ".venv/pyvenv.cfg"),  # the session runs the workspace's
        ("pyproject.toml", "x.py", "tools/pyvenv.cfg"),  # any environment directory
        ("tsconfig.json", "a.ts", "node_modules/typescript-language-server/lib/cli.mjs"),
        ("tsconfig.json", "a.ts", "node_modules/typescript/package.json"),  # unreadable
    ],
)
def test_nothing_starts_ahead_where_prewarm_or_its_session_would_differ(
    tmp_path: Path, files: tuple[str, ...]
) -> None:
    root = workspace(tmp_path, *files)
    assert head_start.remembered(root) == []


def test_a_typescript_7_is_left_to_its_session(tmp_path: Path) -> None:
    """The session runs the package's native `tsc --lsp`, another server."""
    root = workspace(tmp_path, "tsconfig.json", "a.ts", "node_modules/typescript/lib/tsserver.js")
    package = root / "node_modules" / "typescript" / "package.json"
    package.write_text(json.dumps({"version": "7.0.0"}))
    assert records(root) == []


def test_a_remembered_file_wins_and_markers_are_read_only_without_one(tmp_path: Path) -> None:
    root = workspace(tmp_path, "pyproject.toml", "x.py")
    [guessed] = head_start.remembered(root)
    assert guessed.command[-2].endswith("langserver.index.js")
    logs = str(state_dir(root) / "logs" / "server.log")
    state_dir(root).mkdir(parents=True)
    record = {"command": ["/bin/true"], "cwd": str(root), "env": {}, "log_path": logs}
    (state_dir(root) / head_start.FILE).write_text(json.dumps([record]))
    [remembered] = head_start.remembered(root)
    assert remembered.command == ("/bin/true",)
    (state_dir(root) / head_start.FILE).write_text("[]")  # a file, even of no starts, is read
    assert head_start.remembered(root) == []
