"""What workspace-wide work leaves out: files over the size limits, and files set aside
because a server answered nothing for too long while working on them (`lsp/stall.py`).

A set-aside file stays aside while it is unchanged (same size and mtime); an explicit
question about it gets an error saying why at once instead of stalling the server again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import ServerError
from lspd.lsp.stall import BUSY_AFTER_S, RESTART_AFTER_S, Stall
from lspd.workspace import files
from lspd.workspace.config import Config

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Aside:
    """A file set aside, as it was then, and why."""

    stamp: tuple[int, int] | None
    reason: str


class LeftOut:
    """The size limits, and the files set aside, of one workspace (`config`: lspd.toml)."""

    def __init__(self, config: Config, display: Callable[[Path], str]) -> None:
        self.limits = files.Limits.of(config.max_file_bytes, config.max_file_lines)
        self.busy_after = config.busy_after or BUSY_AFTER_S
        self.restart_after = config.restart_after or RESTART_AFTER_S
        self.display = display
        self.aside: dict[Path, Aside] = {}

    def watch(self, server: str) -> Stall:
        """The stall watch of a new session of `server`: it sets aside what stalls it."""
        return Stall(server, self.busy_after, self.restart_after, self.wedged, self.display)

    def wedged(self, path: Path, reason: str) -> None:
        """A server was restarted, stuck on `path`: leave it out while it is unchanged."""
        self.aside[path] = Aside(files.stamp(path), f"set aside: {reason}")
        log.warning("%s set aside: %s", path, reason)

    def set_aside(self, path: Path) -> str | None:
        """Why `path` is set aside, or None (no longer, once it changed)."""
        entry = self.aside.get(path)
        if entry is None:
            return None
        if files.stamp(path) != entry.stamp:
            del self.aside[path]
            return None
        return entry.reason

    def refuse_aside(self, path: Path, shown: str, server: str) -> None:
        """A question about a file set aside is refused at once, saying why."""
        if (aside := self.set_aside(path)) is not None:
            raise ServerError(server, f"{shown} is {aside}; asked again once it changes")

    def reason(self, path: Path) -> str | None:
        """Why workspace-wide work leaves `path` out, or None."""
        return self.set_aside(path) or self.limits.exceeded(path)
