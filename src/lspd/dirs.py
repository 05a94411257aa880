"""Where lspd keeps things outside the workspace: installed servers (cache) and logs (state)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """Installed language servers; shared by every workspace. `LSPD_CACHE_DIR` overrides."""
    if override := os.environ.get("LSPD_CACHE_DIR"):
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "lspd"


def state_dir(root: Path) -> Path:
    """Logs and runtime files of the daemon for one workspace. `LSPD_STATE_DIR` overrides."""
    if override := os.environ.get("LSPD_STATE_DIR"):
        base = Path(override)
    else:
        base = Path(os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state"))
        base = base / "lspd"
    import hashlib  # here: 2-4 ms of every CLI command's start, used only for this name

    digest = hashlib.sha256(str(root).encode()).hexdigest()[:12]
    return base / f"{root.name or 'root'}-{digest}"
