"""How one question of a mypy-judged project is answered: dmypy re-checking what differs,
or the project's mypy run once (`mypy_once`: an unused ignore it may report, an option
dmypy refuses), or mypy's answer kept before for the same texts (`mypy_kept`).

A dmypy answer its local partial types may have made is asked of mypy once instead, and
where mypy's answer is another, so is every later question of the daemon (`mypy_partial`):
dmypy always checks with them on, mypy before 2.0 off unless configured, and mitmproxy's
`_KEEP_ALIVE = set()` filled in a function was 3 errors its mypy 1.20 never says.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, Protocol

from lspd.workspace import mypy_partial
from lspd.workspace.dmypy_steps import Updatable, updated
from lspd.workspace.mypy_copy import Mirror
from lspd.workspace.mypy_fork import Forks
from lspd.workspace.mypy_kept import Kept, Ran
from lspd.workspace.mypy_mirror import Place, Sees
from lspd.workspace.mypy_once import Caches, cache_flags
from lspd.workspace.mypy_said import MypyFailed, MypyOutput, output_of, said
from lspd.workspace.mypy_server import ran

log = logging.getLogger(__name__)


class Answering(Updatable, Protocol):
    """What an answer needs of a project's dmypy (`dmypy.Dmypy`)."""

    interpreter: Path
    users: Path  # mypy's XDG_CONFIG_HOME
    version: tuple[int, ...] | None
    place: Place
    sees: Sees
    mirror: Mirror
    kept: Kept
    caches: Caches
    forks: Forks
    runs: int
    partial_once: bool  # mypy once said otherwise than dmypy's local partial types
    vouched: Counter[tuple[str, str]]  # the annotations mypy once asks for too, how often


class Asked(NamedTuple):
    """One question of a daemon: the texts it is asked of and how."""

    texts: dict[str, bytes]  # relative path -> text: the disk's, a preview's, a revision's
    flags: list[str]  # the output's (`mypy_said`)
    targets: list[str]  # the gate's options and targets
    json_out: bool  # whether mypy prints JSON lines
    state: bytes  # the question's key (`mypy_kept.state_of`)
    partial_differ: bool  # mypy run once checks without local partial types (`mypy_partial`)


async def answer(
    daemon: Answering, asked: Asked, once: bool, stale: Callable[[], bool]
) -> tuple[bool, Ran, MypyOutput | None]:
    """Whether mypy run once answered, what it printed, and its answer where already read.
    `once`: mypy run once is what answers (`mypy_once.needs_once`); `stale`: whether the
    server must end before it is asked (`dmypy._stale`)."""
    texts, flags, targets = asked.texts, asked.flags, asked.targets
    said: Counter[tuple[str, str]] = Counter()
    if not once:
        await daemon.forks.end()
        if stale():
            await daemon.end()
        said_now = await updated(daemon, texts, flags, targets)
        said = mypy_partial.asked(said_now[1])
        if not asked.partial_differ or not mypy_partial.doubted(said, daemon.vouched):
            return False, said_now, None
        log.info("dmypy of %s: its local partial types may differ: mypy run once", daemon.project)
    kept = daemon.kept.key(asked.state, flags, texts, daemon.place, daemon.sees.files)
    found: MypyOutput | None = None
    if (done := daemon.kept.get(kept)) is None:
        done, found = await run_once(daemon, asked)
        daemon.kept.put(kept, done)  # mypy's answer: for the next process
    if said and not mypy_partial.doubted(said, mypy_partial.asked(done[1])):
        daemon.vouched |= said  # dmypy's were mypy's too (a function's `w = []`)
    elif said:
        daemon.partial_once = True
    return True, done, found


async def run_once(daemon: Answering, asked: Asked) -> tuple[Ran, MypyOutput]:
    """The project's `mypy` run once in the daemon's copy holding the texts, on the cache
    nearest them (dropped after a crash), forked where a holder runs (`mypy_fork`): what it
    printed, and its answer (`output_of`; a failure raised)."""
    await daemon.end()
    daemon.mirror.hold(asked.texts)
    cache = daemon.caches.take(asked.texts)
    # --incremental: not a cold run per question where the configuration says not
    argv = [*asked.flags, "--incremental", *cache_flags(daemon.version), "--cache-dir", str(cache)]
    argv += asked.targets
    daemon.runs += 1
    forked = await daemon.forks.run(argv)  # `mypy argv`, without its start
    workdir = daemon.place.workdir
    status, out, err = forked or await ran(
        daemon.interpreter, "mypy", argv, workdir, users=daemon.users
    )
    try:
        found = output_of(daemon.project, status, out, err, asked.json_out, True)
    except MypyFailed:  # a crash, not a syntax error (nor mypy 1.13's stop at a shadowing file)
        if status not in (0, 1) and not said(out):
            daemon.caches.drop(cache)
        raise
    return (status, out, err), found
