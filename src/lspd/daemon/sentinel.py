"""The files beside the workspace that tell clients where the daemon listens.

`ROOT/.vscode/.mcp-port` holds the port as decimal digits and a newline. It is written
atomically (temp file + rename) so a reader never sees half a number, and only once the
daemon accepts connections. `ROOT/.vscode/.mcp-token` (mode 0600) holds the bearer token
in token mode.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from lspd.errors import DaemonError

PORT_FILE = ".mcp-port"
TOKEN_FILE = ".mcp-token"


def port_path(root: Path) -> Path:
    return root / ".vscode" / PORT_FILE


def token_path(root: Path) -> Path:
    return root / ".vscode" / TOKEN_FILE


def _make_dir(directory: Path) -> None:
    """`.vscode/` if missing, writable by its owner only (whatever the umask): whoever can
    write in it can send agents to another server."""
    if not directory.is_dir():
        directory.mkdir(parents=True, exist_ok=True)
        directory.chmod(0o755)


def _write_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """Write `path` whole or not at all; a read-only or full disk is a `DaemonError`."""
    temp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        _make_dir(path.parent)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(text)
        os.chmod(temp, mode)  # the umask may have narrowed or (for 0600) not mattered
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError):
            raise DaemonError(
                f"cannot write {path}: {exc.strerror or exc}. Clients find the daemon through "
                f"this file: make {path.parent} a writable directory (or free space on its "
                "disk) and start lspd again"
            ) from None
        raise


def write_port(root: Path, port: int) -> None:
    _write_atomic(port_path(root), f"{port}\n")


def read_port(root: Path) -> int | None:
    """The port in the sentinel, or None when there is none or it is not a port number."""
    try:
        text = port_path(root).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    if not text.isdigit() or not 0 < int(text) < 65536:
        return None
    return int(text)


def remove_port(root: Path, port: int) -> None:
    """Remove the sentinel if it still names `port` (a successor may have replaced it)."""
    if read_port(root) == port:
        with contextlib.suppress(OSError):
            port_path(root).unlink()


def new_token(root: Path) -> str:
    """Create a random token in a 0600 file beside the sentinel."""
    token = secrets.token_urlsafe(32)
    _write_atomic(token_path(root), f"{token}\n", mode=0o600)
    return token


def read_token(root: Path) -> str | None:
    try:
        return token_path(root).read_text(encoding="ascii").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def remove_token(root: Path, token: str | None = None) -> None:
    """Remove the token file (only if it still holds `token`, when one is given)."""
    if token is None or read_token(root) == token:
        with contextlib.suppress(OSError):
            token_path(root).unlink()
