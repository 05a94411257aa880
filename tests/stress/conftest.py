"""Fixtures of the stress suites: private state dirs, and a scripted server in a real daemon.

A real language server cannot be made to crash, hang or babble on demand, so
`scripted_server` puts `tests/fake_lsp_server.py` on PATH under the name of the Rust server
(`rust-analyzer`): the daemon finds, starts and supervises it like any server.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.daemon.conftest import anyio_backend, root, state

__all__ = ["anyio_backend", "root", "state"]  # the daemon tests' fixtures serve here too

FAKE_SERVER = Path(__file__).parent.parent / "fake_lsp_server.py"
SCRIPTED = "rust-analyzer"  # the server the scripted one stands in for
SOURCE = "src/main.rs"


ScriptedServer = Callable[..., Path]


@pytest.fixture
def scripted_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ScriptedServer:
    """`scripted_server(mode, *args)`: a Rust workspace whose server misbehaves as scripted.

    Every fault fires once (`--once`), so the server the daemon restarts behaves. Returns
    the workspace root; PATH (of this process, so of thread daemons and their children)
    finds the scripted server first.
    """

    def make(mode: str, *args: str) -> Path:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        command = [sys.executable, str(FAKE_SERVER), "--mode", mode, *args]
        command += ["--once", str(tmp_path / "fault-fired")]
        script = bin_dir / SCRIPTED
        script.write_text(
            "#!/bin/sh\n"
            f'[ "$1" = --version ] && echo "{SCRIPTED} 0.0.0 (scripted)" && exit 0\n'
            f"exec {shlex.join(command)}\n"
        )
        script.chmod(0o755)
        monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
        workspace = tmp_path / "rust"
        (workspace / "src").mkdir(parents=True)
        (workspace / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\n')
        (workspace / SOURCE).write_text('fn main() {\n    println!("hi");\n}\n')
        return workspace.resolve()

    return make
