"""`diagnostics PATH --baseline HEAD|session` from the kept result: the file now against its
kept diagnostics, once HEAD's result is kept for this commit, configuration and toolchain
(`lspd.ops.committed` makes it; this reads it only, so the file question does not import
the check engine's runs)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lspd.engine.kept import config_key
from lspd.engine.kept_memory import enabled, memory_of
from lspd.engine.revisions import differences, revision
from lspd.ops.changes import compare
from lspd.ops.kept_found import found_in, found_of
from lspd.ops.models import Changes, DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import gate_scope


async def file_since_committed(
    ws: Workspace, path: Path, now: DiagnosticsResult, content: str | None, baseline: str
) -> Changes | None:
    """`diagnostics PATH --baseline`: the file now (`now`: all its diagnostics; `content`
    its text when given) against its kept result; None when that is not kept for
    `baseline` (HEAD's commit now, or `session`), for this configuration and the server and
    toolchain answering the file now, or for this file (not in the gate's files then): the
    two-state comparison answers then. `baseline` names HEAD's commit, another commit whose
    result a whole question kept (`--baseline HEAD~1`), or `session`."""
    if ws.changes_seen is None or not enabled():
        return None
    commit = await asyncio.to_thread(revision, ws, baseline)
    memory = memory_of(ws)
    states = [memory.state, *memory.revisions.values()]
    state = next((s for s in states if s is not None and s.key.commit == commit), None)
    if commit is None or state is None or (kept := state.files.get(now.path)) is None:
        return None
    if (now.server, now.toolchain) not in state.servers:
        return None  # another server or toolchain answers the file now than made the result
    configs = [p for p, _ in (await gate_scope(ws)).read]
    if await asyncio.to_thread(config_key, configs) != state.key.config:
        return None  # made again at the next whole question (`committed`)
    delta = await asyncio.to_thread(differences, ws, baseline)
    text = content if content is not None else read_text(path)
    after = found_in(now, text)
    changed = [ws.display(p) for p in sorted({*delta.before, *delta.after})]
    note = f"this file, against the kept result of {commit[:12]}"
    return compare(found_of(kept), after, baseline, changed, note)
