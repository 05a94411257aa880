"""Where each agent session's turn began, kept in the daemon's state directory.

The stop gate proves every file changed since the turn began (`daemon/feedback.py`), by the
watcher's count of changes; that count dies with the daemon. A daemon started mid-turn (an
`lspd restart`, an upgrade, a crash) read what its predecessor saw here, and proves the
files of the gate's languages written since the turn's start by their modification time, as
no watcher of its own saw them (deleted ones are not known so: their importers are, where
written since). Small: one line per session, the latest `MAX_SESSIONS` kept.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from lspd.dirs import state_dir
from lspd.workspace import Workspace
from lspd.workspace.files import stamp

FILE = "turns.json"
MAX_SESSIONS = 64


def remember(root: Path, session: str, began_ns: int) -> None:
    """Keep that `session`'s turn began at `began_ns` (wall clock, ns)."""
    turns = _read(root)
    turns.pop(session, None)
    turns[session] = began_ns  # the most recent last
    kept = dict(list(turns.items())[-MAX_SESSIONS:])
    path = state_dir(root) / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{FILE}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        temporary.write_text(json.dumps(kept), encoding="utf-8")
        temporary.replace(path)


def began(root: Path, session: str) -> int | None:
    """When `session`'s turn began, as a daemon of `root` kept it; None when none did."""
    return _read(root).get(session)


def written_since(ws: Workspace, began_ns: int) -> set[Path]:
    """The source files of the workspace's languages written at or after `began_ns`."""
    stamps = ((path, stamp(path)) for path in ws.projects.source_files())
    return {path for path, at in stamps if at is not None and at[0] >= began_ns}


def _read(root: Path) -> dict[str, int]:
    try:
        data = json.loads((state_dir(root) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):  # none yet, or torn: nothing is known of a turn
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, int)}
