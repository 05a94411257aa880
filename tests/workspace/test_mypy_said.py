"""mypy 1.13 says a file shadowing a library module as a line of its own, no file's line
(`mypy: "scripts/types.py" shadows library module "types"` and a `note:`, on stderr run
alone, stdout through dmypy; exit 2): lspd said "mypy failed in ...: note: ..." (exit 2)
and proved nothing. Read now (`workspace/mypy_said.shadowing`) as mypy 2.x's whole-file
error at 1:1 in mypy 1.13's words, and a stop (real mypy 1.13.0 and its own run beside)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.workspace.mypy_said import shadowing
from tests.cli.test_hook_mypy import SCRIPTS, blocked_at_mypy_s_stop
from tests.daemon.support import ThreadDaemon, thread_daemon
from tests.ops.test_baseline import committed
from tests.ops.test_mypy_held_files import mypy_113
from tests.workspace.mypy_env import project

SAID = '"scripts/types.py" shadows library module "types"'
NOTE = 'A user-defined top-level module with name "types" is not supported'


def test_the_lines_as_mypy_2_says_them() -> None:
    dmypy = f"Daemon started\nmypy: {SAID}\nnote: {NOTE}\n"
    assert shadowing(dmypy, "") == [
        f"scripts/types.py:1:1:1:0: error: {SAID}",
        f"scripts/types.py:1:1:1:0: note: {NOTE}",
    ]
    assert shadowing("", "mypy: can't read file 'scripts': No such file or directory\n") == []


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadDaemon]:
    root = committed(project(tmp_path / "p", SCRIPTS, mypy_113()))
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    with thread_daemon(root, prewarm=False) as daemon:
        yield daemon


def test_mypy_1_13s_shadowing_stop_is_a_stop(served: ThreadDaemon) -> None:
    root = served.daemon.root
    shadow = root / "scripts" / "types.py"
    shadow.write_text("version = 1\n")
    own = subprocess.run(
        [str(root / ".venv/bin/mypy"), "--no-incremental"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (own.returncode, own.stdout, own.stderr) == (2, "", f"mypy: {SAID}\nnote: {NOTE}\n")
    blocked_at_mypy_s_stop(root, shadow, "scripts/types.py:1", SAID)
