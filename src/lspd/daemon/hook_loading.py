"""Which checkers of an agent's edited files are still loading (`lspd hook` says so once
per agent session, instead of a check that has not begun)."""

from __future__ import annotations

from pathlib import Path

from lspd.engine.builders import builder_for
from lspd.engine.mypy_project import MypyProject, project_of
from lspd.errors import InvalidInput
from lspd.workspace import Workspace


def still_loading(ws: Workspace, files: list[Path]) -> list[str]:
    """The checkers of `files` still loading: not started, starting, or its process has
    answered no file's diagnostics yet (basedpyright is "ready" at once, then spends its
    first diagnostics of a large project analysing everything the file imports), for
    any caller: a whole check, a preview, a hook's (before, only a comparison this hook
    made counted: trio's hook said basedpyright loading 1736 s into the daemon's life,
    after nine checks the hook had not made). A file is
    judged by the checker that checks it: a TypeScript builder's until it checked the
    file's tsconfig once (tsserver, asked for no file, never loads a project); a
    mypy-gated project's mypy until it runs (basedpyright, which then checks nothing of
    it, never makes a first comparison: httpx's hook said it loading for 20 minutes)."""
    out = set()
    judged = []
    for path in files:
        found = builder_for(ws, path)
        try:
            mypy = project_of(ws, path)
        except InvalidInput:  # its configuration is broken: the check says so
            continue
        if found is not None:
            if found[0].pid is None or found[1] not in found[0].projects:
                out.add(f"{found[0].name} for {ws.display(found[1])}")
        elif mypy is not None:
            if not _mypy_up(ws, mypy):
                out.add(f"mypy for {_shown(ws, mypy.directory)}")
            if mypy.pyright_judges(path):
                judged.append(path)
        else:
            judged.append(path)
    for name, key, project in _servers(ws, judged):
        session = ws.sessions.get(key)
        if session is None or session.state != "ready" or not session.answered:
            out.add(f"{name} for {project}")
    return sorted(out)


def restarted(ws: Workspace, files: list[Path]) -> float | None:
    """When the newest process of the servers of `files` started (monotonic), where one was
    started again since the daemon's start (a check of many files restarts the first server
    to share them with a second: `engine/second_server`); None where none was. "Loading"
    counts from it: the hook said "the daemon started 914 s ago" of a server restarted
    meanwhile, as if lspd had loaded for a quarter of an hour."""
    sessions = (ws.sessions.get(key) for _, key, _ in _servers(ws, files))
    starts = [s.started_at for s in sessions if s is not None and s.starts > 1]
    return max(starts) if starts else None


def _mypy_up(ws: Workspace, project: MypyProject) -> bool:
    """Whether the project's mypy runs (its dmypy, or mypy held for runs once), or has
    answered as mypy run once (`mypy_once`: then nothing stays up between runs)."""
    daemons = ws.pool.mypy.items()
    return any(k[0] == project.directory and (d.pid or d.once) for k, d in daemons)


def _shown(ws: Workspace, project: Path) -> str:
    return ws.display(project) if project != ws.root else ws.root.name


def _servers(ws: Workspace, files: list[Path]) -> list[tuple[str, tuple[str, str], str]]:
    """The server of each file: its name as it runs for the project (TypeScript 7's
    `typescript-native`, not the handler `typescript-language-server`, which never runs
    there), its session's key, its project as shown."""
    out = []
    for path in files:
        definition = ws.handler(path)
        if definition is not None:
            project = ws.project_root(path, definition)
            key = ws.pool.key(definition, project)
            name = ws.pool.adapted(definition, project)[0].name
            out.append((name, key, _shown(ws, project)))
    return out
