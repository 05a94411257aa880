"""The project's `mypy`, run once per question (`mypy_once`) without paying its start: a
process of the project's Python holds mypy's command line imported and forks a child per
question that runs it as the `mypy` script would (`mypy_fork_script`).

A `mypy` run starts an interpreter and imports mypy before it reads its cache (0.15-0.4 s
of each question, most of a leaf edit's). The forked child starts from the state right
after those imports, so its answer is a fresh `mypy` process's, by construction: no state
of mypy's outlives a run (what a resident `mypy.api.run` loop could not show). The parent
is held in a session of its own (told to the daemon's watchdog) and dies with lspd; it is
ended with the project's daemon, and whenever a question is cancelled mid-run. If it
cannot answer (no mypy in the environment, it died), the caller runs `mypy` itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from pathlib import Path

from lspd.lsp.process import exited, kill_group, spawn
from lspd.workspace.mypy_server import RUN_TIMEOUT_S, tool_command, tool_env

log = logging.getLogger(__name__)

SCRIPT = Path(__file__).with_name("mypy_fork_script.py")
GIVE_UP = 2  # holders in a row that could not answer (a Python too old for it, ...)


class Forks:
    """One project's forking `mypy` (started on first need, kept until `end`)."""

    def __init__(
        self, interpreter: Path, cwd: Path, log_file: Path, users: Path | None = None
    ) -> None:
        self.interpreter = interpreter
        self.cwd = cwd
        self.log_file = log_file
        self.users = users  # mypy's XDG_CONFIG_HOME (`tool_env`)
        self._process: asyncio.subprocess.Process | None = None
        self._failed = 0  # holders that gave no answer: after `GIVE_UP`, `mypy` runs itself
        # Whether questions follow (a daemon's workspace): for a one-shot call's one question
        # the holder's start and import cost what `mypy`'s own do, so none is started.
        self.lasting: Callable[[], bool] = lambda: True

    @property
    def pid(self) -> int | None:
        """The holding process, while it runs."""
        process = self._process
        return process.pid if process is not None and process.returncode is None else None

    async def run(self, argv: list[str]) -> tuple[int, str, str] | None:
        """`mypy argv` in `cwd`: its status, stdout and stderr; None when the holder could
        not answer (the caller runs `mypy` itself, which says what is wrong), or is not
        started because no question follows (`lasting`)."""
        if not self.lasting():
            return None
        try:
            async with asyncio.timeout(RUN_TIMEOUT_S):
                return await self._asked(argv)
        except BaseException:  # cancelled or timed out mid-run: its answer would be stale
            await asyncio.shield(self.end())
            raise

    async def _asked(self, argv: list[str]) -> tuple[int, str, str] | None:
        if self._process is not None and self.pid is None:
            await self.end()  # it died since: its group forgotten before another starts
        if self._failed >= GIVE_UP:
            return None
        process = self._process or await self._start()
        if process is None or process.stdin is None or process.stdout is None:
            return None
        try:
            request = {"argv": argv, "cwd": str(self.cwd)}
            process.stdin.write(json.dumps(request).encode() + b"\n")
            await process.stdin.drain()
            line = await process.stdout.readline()
            answer = json.loads(line)
            status, out, err = answer["status"], answer["out"], answer["err"]
        except (OSError, ValueError, KeyError, TypeError):
            log.warning("the forking mypy gave no answer (its log: %s)", self.log_file)
            self._failed += 1
            await self.end()
            return None
        self._failed = 0
        return int(status), str(out), str(err)

    async def _start(self) -> asyncio.subprocess.Process | None:
        command = tool_command(self.interpreter, "mypy")
        # sys.path[0] as the command line has it: the script's directory, or the
        # working directory for `python -m mypy`.
        first = str(Path(command[0]).parent) if len(command) == 1 else str(self.cwd)
        argv = [str(self.interpreter), str(SCRIPT), first, command[0]]
        try:  # in the copy's parent: the copy may be made again meanwhile (`Mirror`)
            env = tool_env(self.interpreter, self.users)
            self._process = await spawn(argv, self.cwd.parent, env, self.log_file)
        except OSError as exc:
            log.warning("no forking mypy in %s: %s", self.cwd, exc)
            return None
        return self._process

    async def end(self) -> None:
        """The holder and any run of it killed (its process group), waited for."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()
        kill_group(process.pid)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(exited(process), 2.0)
