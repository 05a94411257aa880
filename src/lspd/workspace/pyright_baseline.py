"""basedpyright's baseline file: `.basedpyright/baseline.json` beside its configuration
(its default `baselineFile`, what `basedpyright --writebaseline` writes), the errors it
silences. Its CLI reads it at each run; its language server (1.40, baseline.ts) reads it at
each analysis but matches it only against the files it checks again then, and watches no
such file: told of its change, it kept every checked file's old answer (deleted: 2 errors
where the CLI says 14). So a server of a folder whose baseline came, changed or went is
restarted (`sync`, as for a stub come or gone), and the file is a configuration of a
comparison (`engine/revisions`: HEAD's result made with HEAD's baseline, on a copy). A
settings push (`workspace/didChangeConfiguration`, its whole setup run again) is no
cheaper way: its check after the baseline's deletion still said 2 errors (1.8-2.9 s). The
restart's cost, the examiner's tomli 2.2.1 + app (8 files, typeCheckingMode "all", load
4.5 on 2 cores): the whole check after the change 3.0-4.7 s, where one unchanged takes
0.03 s and one after a source edit 0.2 s.

A baselined error is matched by its file, rule, columns and line count, in order
(`diffArrays`), never by its line: one moved by lines added above stays silenced, in the
CLI as in the server; lspd takes the server's word for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from lspd.workspace import paths
from lspd.workspace.watcher import FileEvent

BASELINE = (".basedpyright", "baseline.json")


def is_baseline(path: Path) -> bool:
    """Whether `path` is a basedpyright baseline file by its place (`BASELINE`)."""
    return (path.parent.name, path.name) == BASELINE


def baseline_changed(
    root: Path, server: str, folders: Iterable[Path], events: Iterable[FileEvent]
) -> str | None:
    """Why a pyright server (`server`, of `folders`) restarts for `events`: a baseline file
    of one of its folders came, changed or went (None: none did, or it is no pyright)."""
    if "pyright" not in server:
        return None
    roots = list(folders)
    for event in events:
        if is_baseline(event.path) and any(event.path.is_relative_to(r) for r in roots):
            return f"its baseline changed: {paths.display(root, event.path)}"
    return None
