"""One daemon per root: `serve` takes the instance lock or finds the daemon holding it;
`spawn_detached` starts `lspd serve` in the background and waits for it to answer."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from lspd.daemon.run import Options, configure_logging, log_path, run
from lspd.dirs import state_dir
from lspd.errors import DaemonError
from lspd.pyexec import python_argv


def python_command() -> list[str]:
    """How lspd starts itself: isolated, so no module of the workspace shadows its own."""
    return python_argv("-m", "lspd")


LOCK_WAIT_S = 60.0


def serve(
    options: Options,
    announce: Callable[[str], None],
    farewell: Callable[[str], None] | None = None,
) -> str | None:
    """Serve `options.root` in this process until a signal; or, when a daemon already
    serves it, return that daemon's URL at once (a lock decides, not a race)."""
    from lspd.daemon import finding
    from lspd.daemon.lock import InstanceLock

    # Nothing the daemon (or a server it starts) writes may be writable by others: the
    # sentinel and the state directory tell agents where to connect and what to trust.
    os.umask(os.umask(0) | 0o022)
    root = options.root.resolve()
    lock = InstanceLock(root)
    deadline = time.monotonic() + LOCK_WAIT_S
    while not lock.acquire():
        # Another `serve` holds the lock: it is starting, or running. Wait for its answer.
        found = finding.find_daemon(root)
        if found is not None:
            return found.url
        if time.monotonic() > deadline:
            raise DaemonError(
                f"another lspd holds {lock.path} but no daemon answers for {root}; "
                f"see {log_path(root)}"
            )
        time.sleep(0.05)
    try:
        found = finding.find_daemon(root)  # one started with another state directory
        if found is not None:
            return found.url
        configure_logging(root, options.log_level)
        run(options, announce, farewell)
        return None
    finally:
        lock.release()


def spawn_detached(options: Options, timeout: float = 60.0) -> str:
    """Start `lspd serve` in the background and return its URL once it answers."""
    import subprocess

    from lspd.daemon import finding

    root = options.root.resolve()
    command = [*python_command(), "serve", str(root), "--log-level", options.log_level]
    if options.port is not None:
        command += ["--port", str(options.port)]
    if options.token:
        command.append("--token")
    if not options.prewarm:
        command.append("--no-prewarm")
    if options.idle_timeout is not None:
        command += ["--idle-timeout", f"{options.idle_timeout:g}"]
    if options.sync_agents:
        command += ["--sync", ",".join(options.sync_agents)]
    if options.restricted:
        command.append("--restricted")
    output = state_dir(root) / "daemon.out"
    output.parent.mkdir(parents=True, exist_ok=True)
    with open(output, "ab") as out:
        process = subprocess.Popen(
            command,
            cwd=output.parent,  # never the workspace: see lspd.pyexec
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,  # no SIGHUP when the terminal closes
            close_fds=True,
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = finding.find_daemon(root)
        if found is not None:
            return found.url
        if process.poll() is not None and process.returncode != 0:
            said = _last_line(output).removeprefix("lspd: ")  # e.g. the sentinel's error
            raise DaemonError(
                f"the daemon exited with code {process.returncode}"
                + (f": {said}" if said else "")
                + f"; see {output} and {log_path(root)}"
            )
        time.sleep(0.02)
    raise DaemonError(f"the daemon did not answer within {timeout:g} s; see {log_path(root)}")


def _last_line(path: Path) -> str:
    """The last line a detached daemon wrote to its output file (its error, if it failed)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, handle.seek(0, os.SEEK_END) - 4096))
            lines = handle.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return ""
    return lines[-1] if lines else ""
