"""How lspd runs the environment's dmypy, and starts its server itself on a cold check.

`dmypy run` with no server up starts a client (a Python and mypy's import), which forks the
server, polls for its status file every 0.1 s, and only then asks for the check. Where lspd
speaks the server's protocol (`mypy_ipc`), it starts the server itself (`dmypy daemon`: the
server in the foreground of a process of its own session, as dmypy runs it on Windows) as
soon as the copy holds the configuration, writes the rest of the copy meanwhile, and asks
for the check on the socket as soon as the status file is there. A server that does not
come up is left to `dmypy run`, which starts one or says why it cannot.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from lspd.errors import ServerError
from lspd.workspace.mypy_site import site_of

log = logging.getLogger(__name__)

UP_TIMEOUT_S = 60.0  # the server's start (mypy's import, the configuration read)
STOP_GRACE_S = 2.0  # after SIGTERM, before SIGKILL


def tool_command(interpreter: Path, tool: str) -> list[str]:
    """The environment's `tool` (`dmypy`, `mypy`): its script, else `python -m`."""
    script = interpreter.parent / tool
    if os.access(script, os.X_OK):
        return [str(script)]
    return [str(interpreter), "-m", "mypy.dmypy" if tool == "dmypy" else "mypy"]


def tool_env(interpreter: Path, users: Path | None = None) -> dict[str, str]:
    """The environment as its own shell would have it: its bin first, its VIRTUAL_ENV;
    without MYPY_CACHE_DIR, which would put mypy's cache outside lspd's state directory
    (a dmypy asked for `use_fine_grained_cache`; a run once has `--cache-dir`). `users`:
    its XDG_CONFIG_HOME, holding the user's mypy configuration as lspd's mypy reads it
    (`mypy_outputs.users_config`: no report or cache of its own); the `sitecustomize`
    beside it (`mypy_site`), when written, first on its PYTHONPATH: the project's folders
    on its `sys.path` (an editable install's) made the copy's."""
    env = dict(os.environ)
    if users is not None:
        env["XDG_CONFIG_HOME"] = str(users)
    env["PATH"] = f"{interpreter.parent}{os.pathsep}{env.get('PATH', '')}"
    if (interpreter.parent.parent / "pyvenv.cfg").is_file():
        env["VIRTUAL_ENV"] = str(interpreter.parent.parent)
    for name in ("PYTHONPATH", "PYTHONHOME", "MYPY_CACHE_DIR"):
        env.pop(name, None)
    if (site := site_of(users)) is not None:
        env["PYTHONPATH"] = str(site)
    return env


def server_of(status_file: Path) -> tuple[int | None, Path | None]:
    """The server's pid and socket, from its status file (None, None: no server)."""
    try:
        status = json.loads(status_file.read_text("utf-8"))
    except (OSError, ValueError):
        return None, None
    if not isinstance(status, dict):
        return None, None
    pid, socket = status.get("pid"), status.get("connection_name")
    return (
        pid if isinstance(pid, int) else None,
        Path(socket) if isinstance(socket, str) and socket.startswith("/") else None,
    )


def spawn(
    interpreter: Path, cwd: Path, status_file: Path, options: list[str], users: Path | None
) -> subprocess.Popen[bytes] | None:
    """`dmypy --status-file ... daemon <options>` started in `cwd`, in a session of its
    own: its process group is its pid, which the caller tells the daemon's watchdog at once;
    None if it cannot start. `users`: its XDG_CONFIG_HOME (`tool_env`)."""
    command = [*tool_command(interpreter, "dmypy"), "--status-file", str(status_file)]
    try:
        return subprocess.Popen(
            [*command, "daemon", *options],
            cwd=cwd,
            env=tool_env(interpreter, users),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return None


async def up(process: subprocess.Popen[bytes], status_file: Path) -> bool:
    """Whether the server `process` wrote its status file (its socket listens then), within
    `UP_TIMEOUT_S`; False when it ended first (a configuration mypy refuses, ...)."""
    deadline = time.monotonic() + UP_TIMEOUT_S
    while time.monotonic() < deadline and process.poll() is None:
        if server_of(status_file)[0] == process.pid:
            return True
        await asyncio.sleep(0.01)
    return False


def killed(process: subprocess.Popen[bytes]) -> None:
    """The server `process` and its session's process group (its pid) killed, reaped."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def forget_status(status_file: Path) -> None:
    """The server's status file and socket removed (what dmypy's stop removes)."""
    socket = server_of(status_file)[1]
    status_file.unlink(missing_ok=True)
    if socket is not None and socket.parent.parent == Path(tempfile.gettempdir()):
        shutil.rmtree(socket.parent, ignore_errors=True)


def ours(pid: int, status_file: Path) -> bool:
    """Whether `pid` is still the dmypy server of `status_file` (not a reused pid): forked
    from `dmypy --status-file ... run`, it keeps that command line."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return str(status_file).encode() in command


async def ended(pid: int, status_file: Path) -> None:
    """SIGTERM, then SIGKILL after `STOP_GRACE_S`; back once `pid` is no longer the server
    (gone, or a zombie: its command line is empty)."""
    for sent in (signal.SIGTERM, signal.SIGKILL):
        if sent == signal.SIGKILL:
            log.warning("dmypy server %d did not end on SIGTERM: killed", pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sent)
        deadline = time.monotonic() + STOP_GRACE_S
        while time.monotonic() < deadline:
            if not ours(pid, status_file):
                return
            await asyncio.sleep(0.01)
    log.warning("dmypy server %d did not end after SIGKILL", pid)


RUN_TIMEOUT_S = 600.0


class MypyMissing(ServerError):
    """The project's environment has no mypy: the message says how to install it."""


async def ran(
    interpreter: Path,
    tool: str,
    argv: list[str],
    cwd: Path,
    timeout: float = RUN_TIMEOUT_S,
    users: Path | None = None,
) -> tuple[int, str, str]:
    """The environment's `tool` run in `cwd`: its status, stdout and stderr. `users`: its
    XDG_CONFIG_HOME (`tool_env`)."""
    command, env = tool_command(interpreter, tool), tool_env(interpreter, users)
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            *argv,
            cwd=cwd,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as exc:
        raise MypyMissing("mypy", f"cannot run {command[0]}: {exc.strerror}") from None
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except BaseException:
        if process.returncode is None:
            process.kill()
        raise
    code = process.returncode if process.returncode is not None else 2
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


async def asked_version(interpreter: Path, project: Path) -> tuple[int, ...]:
    """`mypy --version` run in `project`: a mypy found beyond the environment's own
    site-packages (`mypy_installed` reads those without running anything)."""
    status, out, _ = await ran(interpreter, "mypy", ["--version"], project)
    found = re.search(r"mypy (\d+)\.(\d+)(?:\.(\d+))?", out)
    if status != 0 or found is None:
        raise MypyMissing(
            "mypy",
            f"mypy judges the project, but {interpreter} has no mypy: "
            f"install it there ({interpreter} -m pip install mypy), or choose "
            'another checker with python_checker = "basedpyright" in lspd.toml',
        )
    return tuple(int(part or 0) for part in found.groups())


# What dmypy's client says when its server is gone (killed mid-check, a stale status file);
# "No data received": the server closed the connection before answering; "Connection reset
# by peer" (errno 104): it was killed with the request unread.
DIED = (
    *("Daemon has died", "Connection refused", "No such file", "BrokenPipe", "Response: {}"),
    *("No data received", "Connection reset by peer"),
)


def died(text: str) -> bool:
    """dmypy's client lost its daemon (killed mid-check, or a stale status file)."""
    return any(word in text for word in DIED) or "ConnectionResetError" in text
