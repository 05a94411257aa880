"""The listening socket: 127.0.0.1 only, the last port if it is free, else one the OS picks.

The socket is created with `IPPROTO_TCP` and `TCP_NODELAY`: uvicorn sets no-delay only on
sockets it creates itself, and without it every response stalls ~44 ms (Nagle + delayed ACK).
"""

from __future__ import annotations

import contextlib
import socket
from pathlib import Path

from lspd.dirs import state_dir
from lspd.errors import DaemonError

HOST = "127.0.0.1"  # never 0.0.0.0, never a LAN address, whatever the options
LAST_PORT_FILE = "last-port"
BACKLOG = 2048


def mcp_url(port: int) -> str:
    """The MCP endpoint of a daemon on `port`: what agents are given."""
    return f"http://{HOST}:{port}/mcp"


def last_port_path(root: Path) -> Path:
    """Where the workspace's last port is kept, to bind it again after a restart."""
    return state_dir(root) / LAST_PORT_FILE


def read_last_port(root: Path) -> int | None:
    """The port the daemon last listened on, or None."""
    try:
        text = last_port_path(root).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() and 0 < int(text) < 65536 else None


def remember_port(root: Path, port: int) -> None:
    """Keep `port` for the next start (agents' configs hold the URL); best effort."""
    path = last_port_path(root)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{port}\n", encoding="ascii")


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((HOST, port))
        sock.listen(BACKLOG)  # now, so a port another process listens on fails here
        sock.set_inheritable(False)
    except BaseException:
        sock.close()
        raise
    return sock


def bind(root: Path, port: int | None = None) -> socket.socket:
    """A bound socket on 127.0.0.1: `port` if given (or fail), else the last port or any."""
    if port is not None:
        try:
            return _bind(port)
        except OSError as exc:
            raise DaemonError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    last = read_last_port(root)
    if last is not None:
        with contextlib.suppress(OSError):
            return _bind(last)
    return _bind(0)
