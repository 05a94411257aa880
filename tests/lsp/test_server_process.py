"""One run of a server's process: a command that cannot run is `ServerNotInstalled`, and
the end of a process is told as a user reads it, whatever it started killed too."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from lspd.errors import ServerNotInstalled
from lspd.lsp.server_process import ServerProcess
from lspd.lsp.stall import Stall


async def _request(method: str, params: Any) -> Any:
    return None


def _notification(method: str, params: Any) -> None:
    pass


async def _spawn(command: list[str], tmp_path: Path) -> ServerProcess:
    log = tmp_path / "logs" / "srv.log"
    return await ServerProcess.spawn("srv", command, tmp_path, {}, log, _request, _notification)


def test_a_command_that_cannot_run_is_not_installed(tmp_path: Path) -> None:
    with pytest.raises(ServerNotInstalled) as refused:
        asyncio.run(_spawn([str(tmp_path / "no-such-server")], tmp_path))
    assert str(refused.value).startswith("cannot start srv: ")


def test_an_exit_is_told_with_its_code_and_its_stderr_goes_to_the_log(tmp_path: Path) -> None:
    script = "import sys; print('broken install', file=sys.stderr); sys.exit(3)"

    async def main() -> tuple[str, int | None]:
        server = await _spawn([sys.executable, "-c", script], tmp_path)
        exit_wait = await asyncio.wait_for(server.ended(Stall("srv")), 30)
        await exit_wait
        return server.why_ended(), server.process.returncode

    assert asyncio.run(main()) == ("it exited with code 3", 3)
    assert (tmp_path / "logs" / "srv.log").read_text() == "broken install\n"


def test_a_stop_ends_a_process_that_ignores_its_input(tmp_path: Path) -> None:
    async def main() -> int | None:
        server = await _spawn([sys.executable, "-c", "import time; time.sleep(600)"], tmp_path)
        await server.stop(polite=False)
        return server.process.returncode

    assert asyncio.run(main()) == -9  # killed, with whatever it started


def test_what_a_run_said_is_its_first_error_line_not_an_earlier_runs(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "srv.log"
    log.parent.mkdir()
    log.write_text("error: an earlier run's\n")
    lines = ["info: syncing channel", "error: Unknown binary 'srv' in official toolchain", "  0: x"]
    script = f"import sys; print({chr(10).join(lines)!r}, file=sys.stderr); sys.exit(1)"

    async def main() -> str | None:
        server = await _spawn([sys.executable, "-c", script], tmp_path)
        await (await asyncio.wait_for(server.ended(Stall("srv")), 30))
        return server.said()

    assert asyncio.run(main()) == "error: Unknown binary 'srv' in official toolchain"


def test_what_a_run_said_without_an_error_line_is_its_last(tmp_path: Path) -> None:
    script = "import sys; print('starting\\ngiving up during initialize', file=sys.stderr)"

    async def main() -> str | None:
        server = await _spawn([sys.executable, "-c", script], tmp_path)
        await (await asyncio.wait_for(server.ended(Stall("srv")), 30))
        return server.said()

    assert asyncio.run(main()) == "giving up during initialize"
