"""What the whole-workspace checks of one workspace keep between checks, in one object:
the engine's part (`engine/check_state.py`'s `WholeState`: each file's last result with the
server's answer it was made of, the check running now, one check at a time, what the last
check saw of each language's files, the last complete check per question) and each result
stamped with its path and its JSON text (`Stamped`), the answers made of whole checks.

Reusing a result while the server answers "unchanged": converting SQLAlchemy's 84,000
diagnostics again took longer than basedpyright's answers. Without a watcher nothing says
what changed between two checks: only the running check is kept then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.check_state import Running, WholeState
from lspd.ops.checked import Checked, Stamped, stamp
from lspd.ops.models import DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.per_workspace import PerWorkspace


@dataclass
class CheckMemory(WholeState[DiagnosticsResult, Checked]):
    """What the checks of one workspace keep (see the module's docstring)."""

    stamped: Stamped = field(default_factory=dict)

    def keep_only(self, paths: set[Path], shown: set[str]) -> None:
        """Forget the files a whole-workspace check no longer has (deleted, ignored)."""
        super().keep_only(paths, shown)
        self.stamped = {p: v for p, v in self.stamped.items() if p in shown}

    def renewed(self, result: DiagnosticsResult) -> None:
        """A file's result was replaced by `result` while a check runs: the old one's stamp
        goes at once, the new one's is made now, while the server checks the next files,
        not after the last answer (SQLAlchemy's signature change: 80,000 JSON texts)."""
        stamp(self.stamped, result, texts=True)


_memories = PerWorkspace(CheckMemory)


def memory_of(ws: Workspace) -> CheckMemory:
    """The checks' memory of `ws` (made at its first check, gone with the workspace)."""
    return _memories.of(ws)


def running(ws: Workspace) -> Running | None:
    """The check running in `ws` now (the latest one begun), or None."""
    memory = _memories.get(ws)
    return None if memory is None else memory.running
