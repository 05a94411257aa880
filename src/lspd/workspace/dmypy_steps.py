"""A dmypy server that crashed on an update started again: its first run, a whole build,
is mypy's answer.

mypy 1.13 to 1.19's `fine_grained_increment_follow_imports` (every configuration that
follows imports) re-checks the changed modules one after another and then reads each one's
imports from the graph: a module brought back or edited in the same update as a module it
imports is removed keeps that import among its dependencies, and the graph no longer holds
it (`KeyError` in `direct_imports`, "Daemon crashed!"; the server exits). A preview of a
rename (app/models.py -> app/domain.py, its importers not fixed) after the preview of an
importer's deletion did so on the examiner's project. A state removing a Python file
another file names now starts the server again before it is asked (`dmypy._stale`: the
update of such a removal is not mypy's answer either), so no update removes an imported
module; a server that crashes anyway is ended and asked again (started anew), never a
refusal. Tested on 1.19.1 and 1.13.0 against mypy (tests/workspace/test_dmypy_steps.py).

An update changing two modules at once can lose errors a change of one at a time says
(mypy 2.4.1: a leaf edit undone and a signature change made in one update said 1 of the 3
`call-arg` errors of class-body lambdas calling it; sqlglot: 273 of mypy's 572). So where
a few modules changed since the server's last run (`STEPPED`), each is given it in its own
update, in order, the last one's answer taken; more, and they are one update as before.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

from lspd.workspace.mypy_copy import Mirror

log = logging.getLogger(__name__)

CRASHED = "Daemon crashed!"  # dmypy's server's word for an exception of its own
STEPPED = 3  # at most this many changed modules are given the server one update each


class Updatable(Protocol):
    """What an update needs of a project's dmypy (`dmypy.Dmypy`): its three steps, each
    taken under the caller's locks."""

    project: Path
    mirror: Mirror

    @property
    def running(self) -> bool:
        """Whether its server is up (else the next run builds everything)."""

    async def hold(self, texts: dict[str, bytes], flags: list[str]) -> None:
        """The copy made to hold `texts` (a server started meanwhile where none is up)."""

    async def ask(self, argv: list[str]) -> tuple[int, str, str]:
        """The server's run with `argv`: its status, stdout and stderr (`dmypy run` where
        none is up)."""

    async def end(self) -> None:
        """The server ended; the copy stays."""


async def updated(
    server: Updatable, texts: dict[str, bytes], flags: list[str], targets: list[str]
) -> tuple[int, str, str]:
    """dmypy's run on the copy holding `texts` (`flags`, then `targets`), and a server that
    crashed on the update ended, and asked again (started anew)."""
    argv = [*flags, *targets]
    for step in _steps(server, texts):  # one changed module an update
        await server.hold(step, flags)
        if crashed(*await server.ask(argv)):
            await _crashed(server)
            break
    await server.hold(texts, flags)
    ran = await server.ask(argv)
    if crashed(*ran):
        await _crashed(server)
        ran = await server.ask(argv)  # `dmypy run`: a new server's whole build
    return ran


def _steps(server: Updatable, texts: dict[str, bytes]) -> list[dict[str, bytes]]:
    """The states before `texts` each editing one module more than the last, from the
    copy's (where 2 to `STEPPED` modules are edited, none comes or goes, and the server is
    up: a package's files added one at a time left mypy 2.4.1's `Module has no attribute`);
    none otherwise."""
    changed = server.mirror.edited(texts) if server.running else None
    if changed is None or not 2 <= len(changed) <= STEPPED:
        return []
    was = {r: t for r in changed if (t := server.mirror.text_of(r)) is not None}
    if len(was) < len(changed):
        return []
    return [{**texts, **{r: was[r] for r in changed[at:]}} for at in range(1, len(changed))]


def crashed(status: int, out: str, err: str) -> bool:
    """Whether dmypy's server answered its own crash (it has ended)."""
    return status == 2 and CRASHED in out + err


async def _crashed(server: Updatable) -> None:
    log.warning("dmypy of %s crashed on an update: started again", server.project)
    await server.end()
