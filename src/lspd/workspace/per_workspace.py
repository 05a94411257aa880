"""State an operation keeps for each workspace, made at its first need and gone with it.

Operations hold no module-level state of their own (a daemon serves one workspace, tests
many): what must outlive a call (the last check, the last comparisons) hangs off the
workspace weakly, so a closed workspace takes it with it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from lspd.workspace import Workspace

T = TypeVar("T")


class PerWorkspace(Generic[T]):
    """One `T` per workspace, made by `make` when first asked for."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._kept: weakref.WeakKeyDictionary[Workspace, T] = weakref.WeakKeyDictionary()

    def of(self, ws: Workspace) -> T:
        """The workspace's `T`, made now if it has none yet."""
        kept = self._kept.get(ws)
        if kept is None:
            kept = self._kept[ws] = self._make()
        return kept

    def get(self, ws: Workspace) -> T | None:
        """The workspace's `T`, or None when none was made (nothing is made here)."""
        return self._kept.get(ws)

    def __len__(self) -> int:
        """How many workspaces hold one now."""
        return len(self._kept)
