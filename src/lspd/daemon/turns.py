"""Where each agent session's turn began, kept in the daemon's state directory.

The stop gate proves every file changed since the turn began (`daemon/feedback.py`), by the
watcher's count of changes; that count dies with the daemon. A daemon started mid-turn (an
`lspd restart`, an upgrade, a crash) read what its predecessor saw here, and proves the
files of the gate's languages written since the turn's start by their modification time, as
no watcher of its own saw them (deleted ones are not known so: their importers are, where
written since). Small: one line per session, the latest `MAX_SESSIONS` kept.

The turn's start too (`ops/turn_start.TurnStart`: the baseline's commit, the files
differing from it and their texts), one compressed file per session, so that daemon sets
aside what the work tree held then as the one that saw the prompt would (`keep_start`,
`kept_start`); one past `MAX_BYTES` compressed is not kept: nothing is set aside then.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import logging
import os
import threading
from pathlib import Path

from lspd.dirs import state_dir
from lspd.errors import LspdError
from lspd.ops.turn_start import TurnStart, changed_since
from lspd.workspace import Workspace
from lspd.workspace.files import stamp

FILE = "turns.json"
STARTS = "turn-starts"  # the folder of the turns' starts, one file per session
MAX_SESSIONS = 64
MAX_BYTES = 4 << 20  # a turn's start kept compressed at most (texts of differing files)
RAW_BYTES = 16 * MAX_BYTES  # one larger is not compressed at all: it would not fit
VERSION = 1
log = logging.getLogger(__name__)
_remembering = threading.Lock()  # `remember`'s read, change and write of turns.json


def remember(root: Path, session: str, began_ns: int) -> None:
    """Keep that `session`'s turn began at `began_ns` (wall clock, ns). Two sessions' prompts
    at once (threads of one daemon) each read, change and write the file: one at a time,
    or one session's line is lost (79 of 200 tries without the lock)."""
    with _remembering:
        turns = _read(root)
        turns.pop(session, None)
        turns[session] = began_ns  # the most recent last
        kept = dict(list(turns.items())[-MAX_SESSIONS:])
        _write(state_dir(root) / FILE, json.dumps(kept).encode())


def began(root: Path, session: str) -> int | None:
    """When `session`'s turn began, as a daemon of `root` kept it; None when none did."""
    return _read(root).get(session)


def written_since(ws: Workspace, began_ns: int) -> set[Path]:
    """The source files of the workspace's languages written at or after `began_ns`."""
    stamps = ((path, stamp(path)) for path in ws.projects.source_files())
    return {path for path, at in stamps if at is not None and at[0] >= began_ns}


def keep_start(root: Path, session: str, start: TurnStart | None) -> None:
    """Keep `session`'s turn start (None: not recorded, so an earlier turn's goes)."""
    path = _start_file(root, session)
    text = None if start is None else json.dumps(_dumped(root, start)).encode()
    # The prompt hook waits for this: gzip's fastest level (30 MB of JSON: 0.84 s, 9.4 s at
    # its default), and none at all for a text no compression brings under the cap.
    data = None if text is None or len(text) > RAW_BYTES else gzip.compress(text, 1)
    if text is not None and (data is None or len(data) > MAX_BYTES):
        log.warning(
            "the turn's start (%d bytes) is not kept (over %d compressed): a daemon started "
            "before this turn's stop sets none of the work tree's earlier errors aside",
            len(text),
            MAX_BYTES,
        )
        data = None
    if data is None:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)
        return
    _write(path, data)
    with contextlib.suppress(OSError):  # the latest sessions' kept
        starts = sorted(path.parent.glob("*.json.gz"), key=lambda p: p.stat().st_mtime_ns)
        for old in starts[:-MAX_SESSIONS]:
            old.unlink(missing_ok=True)


def kept_start(root: Path, session: str, baseline: str) -> TurnStart | None:
    """`session`'s turn start against `baseline` as a daemon before this one recorded it
    (`kept`: its watcher's count is not this daemon's); None when none was, or it is torn."""
    try:
        data = json.loads(gzip.decompress(_start_file(root, session).read_bytes()))
        if data["version"] != VERSION or data["baseline"] != baseline:
            return None
        texts = {root / str(name): text for name, text in data["texts"].items()}
        if not all(text is None or isinstance(text, str) for text in texts.values()):
            return None
        return TurnStart(baseline, str(data["commit"]), -1, texts, int(data["began_ns"]), True)
    except (OSError, ValueError, EOFError, KeyError, TypeError, AttributeError):
        return None


def resumed(
    ws: Workspace, session: str, baseline: str
) -> tuple[TurnStart | None, set[Path]] | None:
    """`session`'s turn as the daemon before this one kept it (None: no daemon saw it
    begin): its start against `baseline` (None: not kept, or its commit is gone) and the
    files changed since: written since it began (by their mtime; the start's own time too:
    turns.json may have lost the line), and with its start kept, every file whose text is
    not its text then (compared by content: deleted ones too)."""
    at, start = began(ws.root, session), kept_start(ws.root, session, baseline)
    if start is not None:
        at = start.began_ns if at is None else min(at, start.began_ns)
    if at is None:
        return None
    changed = written_since(ws, at)
    if start is None:
        return None, changed
    try:
        return start, changed | set(changed_since(ws, start))
    except LspdError:  # the commit is gone: nothing is set aside
        return None, changed


def _dumped(root: Path, start: TurnStart) -> dict[str, object]:
    texts = {str(path.relative_to(root)): text for path, text in start.texts.items()}
    return {
        "version": VERSION,
        "baseline": start.baseline,
        "commit": start.commit,
        "began_ns": start.began_ns,
        "texts": texts,
    }


def _start_file(root: Path, session: str) -> Path:
    name = hashlib.sha256(session.encode()).hexdigest()[:32]
    return state_dir(root) / STARTS / f"{name}.json.gz"


def _write(path: Path, data: bytes) -> None:
    """Write `data` whole or not at all (a daemon reading meanwhile sees the old file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with contextlib.suppress(OSError):
        temporary.write_bytes(data)
        temporary.replace(path)


def _read(root: Path) -> dict[str, int]:
    try:
        data = json.loads((state_dir(root) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):  # none yet, or torn: nothing is known of a turn
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, int)}
