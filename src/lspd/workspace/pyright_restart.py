"""Why a pyright server restarts for the disk's changes: what its running server does not
follow, so that only a new one reads it as its CLI does (`sync` restarts it).

- A stub come or gone under its `stubPath` (`retool.stubs_moved`): it kept a deleted stub's
  types for good.
- Its baseline file come, changed or gone (`pyright_baseline`): it kept its checked files'
  old answers.
- A pyrightconfig.json written in a folder its pyproject.toml configured: basedpyright 1.40
  watches the configuration file it read (`_updateConfigFileWatcher`), the pyproject alone,
  so it reloaded nothing and kept the pyproject's options where its CLI reads the new file
  (a question asked after the write waited `RELOAD_TIMEOUT_S`, 20 s, for a reload that never
  came, then said the old configuration's answer).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from lspd.workspace import paths
from lspd.workspace.pyright_baseline import baseline_changed
from lspd.workspace.pyright_scope import CONFIG_JSON, PYPROJECT
from lspd.workspace.pyright_watch import PYRIGHT
from lspd.workspace.retool import stubs_moved
from lspd.workspace.watcher import Change, FileEvent


def restart_reason(
    root: Path, server: str, folders: Iterable[Path], events: list[FileEvent]
) -> str | None:
    """Why the pyright server `server` (of `folders`) restarts for `events`; None when it
    takes them in as they come (or is no pyright)."""
    if PYRIGHT not in server:
        return None
    served = list(folders)
    if stubs := stubs_moved(served, events):
        return f"a stub came or went in {paths.display(root, stubs)}"
    return baseline_changed(root, server, served, events) or _replaced(root, served, events)


def _replaced(root: Path, folders: list[Path], events: list[FileEvent]) -> str | None:
    """A pyrightconfig.json written in one of `folders` that a pyproject.toml configured."""
    for event in events:
        config = event.path
        if (
            event.change is Change.created
            and config.name == CONFIG_JSON
            and config.parent in folders
            and (config.parent / PYPROJECT).is_file()
        ):
            return f"{paths.display(root, config)} now configures it, not its pyproject.toml"
    return None
