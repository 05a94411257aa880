"""Which workspace a command is about: --root, else the nearest ancestor with a sentinel."""

from __future__ import annotations

from pathlib import Path

SENTINEL = Path(".vscode") / ".mcp-port"


def find_root(explicit: str | None, cwd: Path | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser().resolve()
    here = (cwd or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        if (directory / SENTINEL).is_file():
            return directory
    return here
