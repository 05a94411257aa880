"""A started language server: its process and the JSON-RPC connection to it, from its
spawn until it exits, breaks the connection or is stopped (its session starts a new one)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Mapping
from pathlib import Path

from lspd.errors import ServerNotInstalled
from lspd.lsp.process import exited, kill_group, spawn
from lspd.lsp.rpc import JsonRpcConnection, NotificationHandler, RequestHandler
from lspd.lsp.stall import Stall

SAID_BYTES = 65536  # of its stderr's end read for `said`
SAID_CHARS = 300
ERROR_LINE = re.compile(r"^error\b|\w*Error\b:|\berror:", re.IGNORECASE)


class ServerProcess:
    """One run of a server's process and its connection; never started again."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        connection: JsonRpcConnection,
        log_path: Path,
        log_from: int,
    ) -> None:
        self.process = process
        self.connection = connection
        self.pid = process.pid
        self._log = (log_path, log_from)  # where this run's stderr begins in its log

    @classmethod
    async def spawn(
        cls,
        name: str,
        command: list[str],
        root: Path,
        env: Mapping[str, str],
        log_path: Path,
        on_request: RequestHandler,
        on_notification: NotificationHandler,
    ) -> ServerProcess:
        """Run `command` in `root` (its stderr to `log_path`) and start reading its output;
        a command that cannot run is `ServerNotInstalled`."""
        log_from = log_path.stat().st_size if log_path.is_file() else 0
        try:
            process = await spawn(command, root, env, log_path)
        except OSError as exc:
            raise ServerNotInstalled(name, f"cannot start {name}: {exc}") from None
        assert process.stdout is not None and process.stdin is not None
        connection = JsonRpcConnection(process.stdout, process.stdin, on_request, on_notification)
        connection.start()
        return cls(process, connection, log_path, log_from)

    async def ended(self, stall: Stall) -> asyncio.Task[int]:
        """Until the process exits or its connection closes (`stall` kills it when it is
        stuck too long); the wait for its exit, which may still run."""
        process, connection = self.process, self.connection
        exit_wait = asyncio.create_task(exited(process))  # an event, never polled
        closed_wait = asyncio.create_task(connection.closed.wait())
        kill = lambda: kill_group(process.pid)  # noqa: E731 - stuck too long: restarted after
        stall_wait = asyncio.create_task(stall.watch(connection, kill))
        await asyncio.wait({exit_wait, closed_wait}, return_when=asyncio.FIRST_COMPLETED)
        if not exit_wait.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(exit_wait), 0.5)
        closed_wait.cancel()
        stall_wait.cancel()
        return exit_wait

    def why_ended(self) -> str:
        """Why it ended, as a user reads it; whatever it started is killed too (it may still
        hold its stdout)."""
        code = self.process.returncode
        kill_group(self.process.pid)
        connection = self.connection
        if connection.protocol_error is not None:  # it may exit once we close its input
            return f"it broke the protocol ({connection.protocol_error}) and was stopped"
        if code is None:
            return f"it stopped answering ({connection.close_reason}) and was stopped"
        return f"it exited with code {code}"

    def said(self) -> str | None:
        """The line of this run's stderr that says why it ended: its first error line, else
        its last line (a server that cannot start says why there: rustup's proxy for a
        component not installed, "error: Unknown binary 'rust-analyzer' ...")."""
        path, start = self._log
        try:
            with open(path, "rb") as log_file:
                log_file.seek(max(start, log_file.seek(0, 2) - SAID_BYTES))
                text = log_file.read().decode("utf-8", "replace")
        except OSError:
            return None
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if not lines:
            return None
        line = next((x for x in lines if ERROR_LINE.search(x)), lines[-1])
        return line if len(line) <= SAID_CHARS else line[: SAID_CHARS - 3] + "..."

    async def stop(self, polite: bool) -> None:
        """End it, asking it to shut down first when `polite` (it was initialized), then make
        sure nothing of it is left."""
        process, connection = self.process, self.connection
        if polite and process.returncode is None:
            with contextlib.suppress(Exception):
                await connection.request("shutdown", None, timeout=2.0)
                connection.notify("exit")
                await asyncio.wait_for(exited(process), 1.0)
        connection.close("the session was stopped")
        kill_group(process.pid)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(exited(process), 2.0)
            if process.stdout is not None:  # until whatever else held it open is gone too
                await asyncio.wait_for(process.stdout.read(), 1.0)
