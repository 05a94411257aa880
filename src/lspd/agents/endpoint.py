"""Where the daemon of a workspace listens, as its sentinel files say.

The daemon writes `ROOT/.vscode/.mcp-port` (digits + newline) once it accepts
connections, and in token mode `ROOT/.vscode/.mcp-token` (0600) beside it
(`lspd.sentinel`). These files are the only contract between the daemon
and `lspd sync`, which may run while no daemon does.
"""

from __future__ import annotations

from pathlib import Path

from lspd import sentinel
from lspd.errors import DaemonError


def read_port(root: Path) -> int:
    """The sentinel's port; a missing or garbled sentinel says how to start the daemon."""
    path = sentinel.port_path(root)
    if not path.exists():
        raise DaemonError(f"no daemon for {root}: start it with `lspd serve --detach`")
    port = sentinel.read_port(root)
    if port is None:
        raise DaemonError(
            f"{path} does not hold a port number; restart the daemon with `lspd serve --detach`"
        )
    return port


def read_token(root: Path) -> str | None:
    """The bearer token when the daemon runs in token mode, else None."""
    return sentinel.read_token(root)
