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
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

log = logging.getLogger(__name__)

CRASHED = "Daemon crashed!"  # dmypy's server's word for an exception of its own


class Updatable(Protocol):
    """What an update needs of a project's dmypy (`dmypy.Dmypy`): its three steps, each
    taken under the caller's locks."""

    project: Path

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
    await server.hold(texts, flags)
    ran = await server.ask(argv)
    if crashed(*ran):
        await _crashed(server)
        ran = await server.ask(argv)  # `dmypy run`: a new server's whole build
    return ran


def crashed(status: int, out: str, err: str) -> bool:
    """Whether dmypy's server answered its own crash (it has ended)."""
    return status == 2 and CRASHED in out + err


async def _crashed(server: Updatable) -> None:
    log.warning("dmypy of %s crashed on an update: started again", server.project)
    await server.end()
