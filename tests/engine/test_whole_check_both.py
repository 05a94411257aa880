"""A project both mypy and basedpyright judge (`engine/whole_check.py`): basedpyright's files
are asked while mypy runs, not after it. trio's cold check was mypy's 10 s, then
basedpyright's 5 s. Here mypy is held at its start by a plugin of the project's own (real
mypy, a real plugin) until the test has seen basedpyright answer; one after the other, the
test's wait ends first and fails. Both answers are the CLIs'."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from lspd.lsp.text import path_to_uri
from lspd.ops.check import check_all
from lspd.ops.checked import Checked
from lspd.workspace import Workspace
from tests.conftest import warm_root
from tests.workspace.mypy_env import cli_errors, project
from tests.workspace.test_pyright_part import FILES, PYRIGHT_RUN

# The plugin waits for RELEASED to exist (up to 120 s, longer than the test waits); named
# whole: lspd's mypy may run on a mirror of the project, the plugin's copy in it.
HELD = '''"""Holds mypy at its start until the test writes RELEASED."""
import time
from pathlib import Path

from mypy.plugin import Plugin

RELEASED = Path(%r)


def plugin(version: str) -> type[Plugin]:
    ends = time.monotonic() + 120
    while not RELEASED.exists() and time.monotonic() < ends:
        time.sleep(0.05)
    return Plugin
'''
WAIT_S = 60  # for basedpyright's answer while mypy is held


def test_basedpyrights_files_are_asked_while_mypy_runs(tmp_path: Path) -> None:
    pyproject = FILES["pyproject.toml"].replace(
        "strict = true\n", 'strict = true\nplugins = ["held.py"]\n'
    )
    released = tmp_path / "released"
    held = HELD % str(released)
    root = project(tmp_path / "p", {**FILES, "pyproject.toml": pyproject, "held.py": held})
    typed = root / "app/typed/check.py"

    async def ask(ws: Workspace) -> Checked:
        checking = asyncio.ensure_future(check_all(ws))
        ends = time.monotonic() + WAIT_S
        while not _answered(ws, typed):  # a pull of basedpyright's, with mypy still held
            assert not checking.done() and time.monotonic() < ends, "mypy ran first"
            await asyncio.sleep(0.05)
        released.write_text("")
        return await checking

    for warm in warm_root(root, tmp_path / "logs", watch=True):  # its files kept open: pulled
        checked = warm.run(ask(warm.ws))
    said = sorted((d.source or "", r.path, d.line) for r in checked.results for d in r.diagnostics)
    mypy = sorted((f, line) for f, line, _, _, _ in cli_errors(root))
    assert ("app/typed/check.py", 1) in mypy and ("app/main.py", 8) in mypy
    assert said == sorted(
        [("mypy", f, line) for f, line in mypy] + [(PYRIGHT_RUN, "app/typed/check.py", 1)]
    )


def _answered(ws: Workspace, path: Path) -> bool:
    """Whether `path`'s server (made, not started, by the first who asks) has answered a
    pull of its diagnostics."""
    return path_to_uri(path) in ws.session_for(path).inbox.pulled
