"""What the committed state's answers say of it (`engine/committed.py`): the toolchain or
the configuration it was made under, when another answers now, and why no result of a
commit can be made under its own configuration."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from lspd.engine.kept import KeptState, StateKey, made_before
from lspd.workspace import Workspace

NAMED = 8  # configurations named in a note before "and N more"


async def retooled(was: KeptState | None, now: KeptState, folder: Path) -> str:
    """What the note says when the toolchain that made the result kept for this commit
    before is not the one answering now (mypy upgraded in the project's .venv, another
    node_modules/typescript, lspd's own servers): the commit was checked again by it. With
    none in memory (`was`: a restart), the one saved in `folder` by another toolchain
    (`kept.made_before`): before, a restarted daemon said "(checked)" alone."""
    if was is None:
        was = await asyncio.to_thread(made_before, folder, now.key)
    if was is None or was.key.commit != now.key.commit or was.key.toolchain == now.key.toolchain:
        return ""
    gone = ", ".join(sorted(str(t) for _, t in was.servers - now.servers))
    came = ", ".join(sorted(str(t) for _, t in now.servers - was.servers))
    if gone == came:  # the same toolchains, other servers answering (a configuration edit)
        gone = ", ".join(sorted({name for name, _ in was.servers - now.servers}))
        came = ", ".join(sorted({name for name, _ in now.servers - was.servers}))
    # the same labels: lspd's servers.toml, or an environment's packages or .pth files
    # (a server no longer answering: `-> none`, not an empty side)
    moved = (
        f"{gone or 'none'} -> {came or 'none'}"
        if gone or came
        else "lspd's own servers, or the environment's"
    )
    return f"; the toolchain changed since its result was made ({moved}): checked again by it"


def edited(ws: Workspace, key: StateKey) -> str:
    """What the note says of the configurations edited since the baseline: the result it
    compares with is the one made under the configuration then."""
    if not key.edited:
        return ""
    named = _named(ws, key.edited)
    since = "the session's start" if key.commit == "session" else key.commit[:12]
    return f"; the configuration changed since {since} ({named}): compared under the one then"


def configured(ws: Workspace, key: StateKey) -> str:
    """Why no result of `key`'s commit can be made now (its configuration is not the disk's),
    and what makes one: the commit's configuration back on the disk for one question (a
    daemon's background keeping, refused so, waits for the next change: that one). A
    restart does not help: the daemon refused may well have started at that configuration,
    the edit made before it had kept its result."""
    named = _named(ws, key.edited)
    commit = key.commit[:12]
    if commit == "session":
        return (
            f"the checkers' configuration changed since the session's start ({named}) and "
            "the session's result must be made again (the toolchain answering now is not the "
            "one that made it), but the servers check with the disk's configuration only: "
            "which errors the session introduced is not known. `lspd check` lists every "
            "error now; `--baseline HEAD` compares with HEAD's result"
        )
    return (
        f"the checkers' configuration changed since {commit} ({named}) and no result of "
        f"{commit} under its own configuration is kept (lspd checks each checker's files "
        "under a commit's configuration on a copy: TypeScript's where every one is a "
        "tsconfig project's, Python's where mypy or basedpyright alone judges them and its "
        "configuration names the files the disk's does), so which errors the edit "
        "introduced is not known. `lspd check` "
        f"lists every error under the new configuration. To compare: put {named} back as "
        f"at {commit} and run `lspd check --baseline {commit}` once (its result is made and "
        "kept then; a daemon keeps it by itself at the next change it sees), then make the "
        "edit again: this question then compares every file of the gate under the "
        "configuration then. Or commit the "
        "configuration and compare the source edits with that commit"
    )


def _named(ws: Workspace, paths: Sequence[Path]) -> str:
    """The configurations edited, as the notes name them: every one up to `NAMED` (the
    refusal says to put them back: naming 3 of 5 left a user refused again), then how many
    more."""
    named = ", ".join(ws.display(p) for p in paths[:NAMED])
    return named + (f" and {len(paths) - NAMED} more" if len(paths) > NAMED else "")
