"""The edited files' own errors, asked alone beside an edit's whole check that runs past the
hook's first second (`daemon/feedback.py`).

The hook's check is the engine's whole check against the baseline's kept result, and its
findings come at its end. After a declaration change in a big program that end waits for
every importer's check: on ts-pattern a signature change's 20 errors came after ~75 s, and
four edit hooks said "still checking" with none named, while `lspd diagnostics` of the
edited file answered its own 5 in 0.6 s beside that check. So once the check has run
`AFTER_S`, the edited files are asked alone against the kept result (the quick path of
`diagnostics FILE --baseline`), and what they show is told when the budget ends before the
check does, under the engine's keys: the check's end does not tell them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path

from lspd.engine.seen import snippet
from lspd.engine.stops import Stop
from lspd.lsp.text import split_lines
from lspd.ops.models import Changes
from lspd.ops.progressive import Introduced, Key, Progress
from lspd.workspace import Workspace
from lspd.workspace.files import read_text

log = logging.getLogger(__name__)
AFTER_S = 1.0  # a check still running this long: its edited files are asked alone beside it
MAX_FILES = 5  # edited files asked alone (a hook names one, a formatter's run many)
_running: set[asyncio.Task[list[Introduced]]] = set()  # held until they end (not collected)


async def edited_alone(ws: Workspace, paths: list[Path], baseline: str) -> list[Introduced]:
    """What the edited source files (at most `MAX_FILES`) introduced since `baseline`, each
    file now against its kept result, as `diagnostics FILE --baseline` compares it first;
    nothing of a file no kept result answers, or whose question fails (the whole check
    tells those). Never the baseline's texts held: the whole check runs meanwhile, and a
    server holding them would answer it from them (so this takes the gate shared)."""
    found: list[Introduced] = []
    sources = [p for p in paths if ws.handler(p) is not None and p.is_file()]
    for path in sources[:MAX_FILES]:
        try:
            async with ws.gate.shared():
                changes = await _against_kept(ws, path, baseline)
        except asyncio.CancelledError:
            raise
        except Exception:  # its whole check says what it is
            log.debug("the edited file %s asked alone failed", path, exc_info=True)
            continue
        if changes is None:
            continue
        lines = split_lines(read_text(path) or "")
        for d in changes.introduced:
            at = snippet(lines, d.line, d.column, d.end_column)
            key: Key = (d.path or ws.display(path), d.severity, d.code, d.message, at)
            found.append(Introduced(d, key, path))
    return found


async def _against_kept(ws: Workspace, path: Path, baseline: str) -> Changes | None:
    """`path` now against its kept result (`file_since_committed`); None where none is."""
    from lspd.engine.named import named  # a file's question's steps, as `lspd diagnostics`
    from lspd.ops.file_diagnostics import check_file
    from lspd.ops.file_since_baseline import file_since_kept

    stops: list[Stop] = []
    now = await check_file(ws, ws.display(path), None, 1, budget=False, stops=stops)
    return await file_since_kept(ws, path, now, await named(ws, baseline), stops)


async def beside(
    ws: Workspace, check: Progress, paths: list[Path], baseline: str, until: float
) -> list[Introduced]:
    """The check awaited until `until` (the monotonic clock), the edited files asked alone
    meanwhile; what they showed when it has not ended by then (else nothing: its end says
    all). A question not answered by then ends unheard: never cancelled, since one holding
    the baseline's texts in a server puts the disk's back as it ends."""
    wait = until - time.monotonic()
    if check.done.is_set() or wait <= 0:
        return []
    alone = asyncio.create_task(edited_alone(ws, paths, baseline))
    _running.add(alone)
    alone.add_done_callback(_running.discard)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(check.done.wait()), wait)
    if check.done.is_set() or not alone.done() or alone.cancelled():
        return []
    return alone.result()  # its failures are caught inside: none raised here
