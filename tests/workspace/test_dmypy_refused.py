"""A dmypy run mypy refuses (a target it cannot read: `No such file or directory`) leaves
no server behind: lspd took the words for its server's death, forgot the status file of
the server still up and started another, so each refused check left a dmypy server running
until its idle stop (1 h; two per check after a symlinked folder's targets went, before
b9302a9). The server is ended first (`Dmypy.ask`). Real mypy."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from lspd.workspace.mypy_said import MypyFailed
from tests.workspace.mypy_env import STRICT, environment, project
from tests.workspace.test_dmypy import daemon_of, held


def servers(status_file: Path) -> list[int]:
    """The processes whose command line names `status_file` (a dmypy server keeps its
    `dmypy --status-file ... run` one)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if entry.isdigit() and str(status_file).encode() in command:
            found.append(int(entry))
    return found


@pytest.mark.parametrize("version", ["1.19.1", "2.4.1"])
def test_a_target_mypy_cannot_read_leaves_no_server_behind(tmp_path: Path, version: str) -> None:
    root = project(tmp_path / "p", STRICT, environment(f"mypy-{version}", f"mypy=={version}"))
    daemon = daemon_of(root, tmp_path)

    async def run() -> list[int]:
        try:
            for _ in range(2):
                with pytest.raises(MypyFailed, match="No such file"):
                    await daemon.check(["app/gone.py"], held(root))
            return servers(daemon.status_file)
        finally:
            await daemon.stop()

    assert len(asyncio.run(run())) <= 1  # the one server lspd knows
    assert servers(daemon.status_file) == []
