"""Where the daemon of a workspace listens, as its sentinel files say.

The daemon writes `ROOT/.vscode/.mcp-port` (digits + newline) once it accepts
connections, and in token mode `ROOT/.vscode/.mcp-token` (0600) beside it.
These files are the only contract between the daemon and `lspd sync`.
"""

from __future__ import annotations

from pathlib import Path

from lspd.errors import DaemonError

PORT_FILE = Path(".vscode") / ".mcp-port"
TOKEN_FILE = Path(".vscode") / ".mcp-token"


def endpoint_url(port: int) -> str:
    return f"http://127.0.0.1:{port}/mcp"


def find_root(start: Path) -> Path:
    """The nearest ancestor of `start` holding a sentinel, else `start` itself."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if (candidate / PORT_FILE).is_file():
            return candidate
    return start


def read_port(root: Path) -> int:
    path = root / PORT_FILE
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise DaemonError(f"no daemon for {root}: start it with `lspd serve --detach`") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DaemonError(f"cannot read {path}: {exc}") from exc
    digits = text.strip()
    if not digits.isdigit() or not 0 < int(digits) < 65536:
        raise DaemonError(
            f"{path} holds {text!r}, not a port number; restart the daemon with "
            "`lspd serve --detach`"
        )
    return int(digits)


def read_token(root: Path) -> str | None:
    """The bearer token when the daemon runs in token mode, else None."""
    try:
        token = (root / TOKEN_FILE).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return token or None
