"""The whole-workspace check beside generated heavy files, on real basedpyright: files over
the size limits are left out and named, a file that stalls the server gets it restarted
and is set aside, and the check answers for the rest; a small file's hover never waits.

The heavy files are the kinds generated code holds: 200,000 lines of `xN = N` (3.2 MB;
basedpyright needs about a minute for it) and 50,000 lines assigning one variable (over two
minutes). Limits come from lspd.toml, small enough to show each behaviour in seconds.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from lspd.cli import render
from lspd.errors import ServerError, ServerTimeout
from lspd.ops.check import workspace_diagnostics
from lspd.ops.check_models import SkippedFile
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.navigation import hover
from lspd.ops.state import status
from lspd.workspace import Workspace
from lspd.workspace.pool import HEAVY

SMALL = "x: int = 1\ny = x\n"
TOO_COMPLEX = (
    "Code is too complex to analyze; reduce complexity by refactoring into subroutines or "
    "reducing conditional code paths"
)
HOVER_Y = "```python\n(variable) y: Literal[1]\n```"


def project(tmp_path: Path, config: str, timeout: float = 20.0, **files: str) -> Workspace:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (root / "lspd.toml").write_text(config)
    (root / "small.py").write_text(SMALL)
    for name, text in files.items():
        (root / f"{name}.py").write_text(text)
    return Workspace(root, log_dir=tmp_path / "logs", diagnostics_timeout=timeout)


def numbered(lines: int) -> str:
    return "".join(f"x{i} = {i}\n" for i in range(lines))


def one_variable(lines: int) -> str:
    return "v = 0\n" + "".join(f"v = v + {i}\n" for i in range(lines))


def closing(ws: Workspace, scenario: Coroutine[Any, Any, None]) -> None:
    """Run `scenario`, then close the workspace, on one event loop."""

    async def main() -> None:
        try:
            await scenario
        finally:
            await ws.close()

    asyncio.run(main())


async def hover_y(ws: Workspace) -> float:
    """Hover on the small file; the seconds it took."""
    began = time.monotonic()
    assert (await hover(ws, "small.py", 2, 1)).contents == HOVER_Y
    return time.monotonic() - began


def test_files_over_the_size_limits_are_left_out_and_named(tmp_path: Path) -> None:
    ws = project(
        tmp_path,
        "max_file_lines = 10000\n",
        timeout=3.0,
        generated=numbered(200_000),
        long=numbered(10_001),
    )

    async def scenario() -> None:
        await hover_y(ws)
        checking = asyncio.create_task(workspace_diagnostics(ws))
        assert await hover_y(ws) < 5.0  # while the check runs
        result = await checking
        assert result.files_checked == 1
        assert result.skipped == [
            SkippedFile(
                path="generated.py",
                reason="3,177,780 bytes, over max_file_bytes = 2,560,000 (lspd.toml)",
            ),
            SkippedFile(
                path="long.py", reason="10,001 lines, over max_file_lines = 10,000 (lspd.toml)"
            ),
        ]
        text = render.render("WorkspaceDiagnosticsResult", result.model_dump(mode="json"))
        assert (
            "skipped generated.py: 3,177,780 bytes, over max_file_bytes = 2,560,000 (lspd.toml)"
            in text.splitlines()
        )
        # Asked explicitly, it is asked (of a server of its own, started first): a clear
        # error within its timeout (or an answer).
        with pytest.raises(ServerTimeout, match=r"^language server basedpyright timed out: "):
            await diagnostics(ws, "generated.py")
        began = time.monotonic()
        with pytest.raises(ServerTimeout, match=r"^language server basedpyright timed out: "):
            await diagnostics(ws, "generated.py")
        assert time.monotonic() - began < 3.0 + 1.0

    closing(ws, scenario())


def test_a_check_answers_for_the_rest_when_a_file_stalls_its_server(tmp_path: Path) -> None:
    # restart_after leaves room for the restarted server's first answer on a loaded machine.
    config = "max_file_lines = 100000\nbusy_after = 0.5\nrestart_after = 10\n"
    ws = project(tmp_path, config, heavy=one_variable(50_000))
    aside = (
        r"set aside: basedpyright answered nothing for \d+ s, working on "
        r"textDocument/diagnostic heavy\.py; lspd restarted it \(busy_after = 0\.5 s, "
        r"restart_after = 10 s in lspd\.toml\)"
    )

    async def scenario() -> None:
        await hover_y(ws)
        checking = asyncio.create_task(workspace_diagnostics(ws))
        deadline = time.monotonic() + 30
        while not (busy := [s.busy for s in status(ws).servers if s.busy]):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        assert re.fullmatch(
            r"answering nothing for \d+ s, working on textDocument/diagnostic heavy\.py", busy[0]
        )
        assert [s.state for s in status(ws).servers] == ["busy"]
        result = await checking
        assert result.files_checked == 1  # small.py, asked again of the new server
        assert [s.path for s in result.skipped] == ["heavy.py"]
        assert re.fullmatch(aside, result.skipped[0].reason)
        after = status(ws)
        assert [s.path for s in after.set_aside] == ["heavy.py"]
        assert re.fullmatch(aside.removeprefix("set aside: "), after.servers[0].restarted or "")
        # Named in every later answer that leaves it out; asked about, refused at once.
        again = await workspace_diagnostics(ws)
        assert again.skipped == result.skipped
        with pytest.raises(ServerError, match=f"^heavy\\.py is {aside}; asked again once it"):
            await diagnostics(ws, "heavy.py")
        assert await hover_y(ws) < 5.0

    closing(ws, scenario())


def test_an_explicit_question_about_a_heavy_file_stalls_no_other(tmp_path: Path) -> None:
    # 40,000 lines of `xN = N` (over max_file_lines' 20,000): basedpyright works on its
    # diagnostics for about 20 s here. Asked explicitly, it is answered by a server of its
    # own; a small file's hover answers meanwhile and after, from the other.
    ws = project(tmp_path, "", timeout=300.0, gen=numbered(40_000))

    async def scenario() -> None:
        await hover_y(ws)
        (regular,) = ws.pool.regular()
        began = time.monotonic()
        asking = asyncio.create_task(diagnostics(ws, "gen.py"))
        while len(ws.sessions) < 2 or not ws.sessions[_heavy_key(ws)].working_on()[0]:
            assert not asking.done(), asking
            await asyncio.sleep(0.05)
        heavy = ws.sessions[_heavy_key(ws)]
        during = []  # hovers asked while the heavy server worked on gen.py
        while not asking.done():
            working = heavy.working_on()[0] > 0
            took_hover = await hover_y(ws)
            if working:
                during.append(took_hover)
            await asyncio.wait([asking], timeout=1.0)
        result = await asking
        took = time.monotonic() - began
        assert (result.path, result.fresh) == ("gen.py", True), result
        assert [d.message for d in result.diagnostics] == [TOO_COMPLEX], took  # its own word
        assert during and max(during) < 5.0, (during, took)
        assert len(during) >= 3, f"answered in {took:.1f} s: too fast to show anything"
        assert await hover_y(ws) < 5.0  # after
        assert [s.name for s in ws.pool.regular()] == ["basedpyright"]
        assert not any(d.path.name == "gen.py" for d in regular.documents.values())

    closing(ws, scenario())


def _heavy_key(ws: Workspace) -> tuple[str, str]:
    (key,) = [key for key in ws.sessions if key[1].endswith(HEAVY)]
    return key
