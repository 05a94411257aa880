"""What the daemon and its servers are doing, and which servers this machine has."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from lspd import __version__
from lspd.lsp.session import Session
from lspd.ops.check_models import SkippedFile
from lspd.ops.state_models import ServerInfo, ServersResult, ServerStatus, StatusResult
from lspd.servers.registry import ServerDefinition, definitions, servers_by_language
from lspd.servers.versions import inspect
from lspd.workspace import Workspace
from lspd.workspace.dmypy import Dmypy
from lspd.workspace.kept_copy import KEEP_S
from lspd.workspace.memory import tree_rss_mb
from lspd.workspace.toolchain import Choice, Toolchain, adapt
from lspd.workspace.tsbuilder import Builder


def status(ws: Workspace) -> StatusResult:
    """The daemon's state and each language server's."""
    return StatusResult(
        workspace=str(ws.root),
        pid=os.getpid(),
        version=__version__,
        uptime_s=round(time.monotonic() - ws.started, 3),
        restricted=ws.restricted,
        watches=None if ws.watcher is None else ws.watcher.watches,
        watch_problem=None if ws.watcher is None else ws.watcher.problem,
        servers=[
            ServerStatus(
                language=session.definition.language,
                server=session.name,
                project=ws.display(session.root),
                projects=[ws.display(folder) for folder in session.folders],
                state=session.display_state,
                pid=session.pid,
                open_documents=len(session.documents),
                rss_mb=None if session.pid is None else _rounded(tree_rss_mb(session.pid)),
                toolchain=session.toolchain,
                busy=None if (stuck := session.busy()) is None else stuck.describe(ws.display),
                restarted=session.stall.reason,
                environment=session.environment,
            )
            for session in ws.sessions.values()
        ]
        + [_builder_status(ws, builder) for builder in ws.builders.values()]
        + [_dmypy_status(ws, daemon) for daemon in ws.pool.mypy.values()]
        + [_copy_status(ws, helper) for helper in ws.kept_copy.helpers.values()],
        set_aside=[
            SkippedFile(path=ws.display(path), reason=reason)
            for path in list(ws.left_out.aside)
            if (reason := ws.left_out.set_aside(path)) is not None
        ],
    )


def _builder_status(ws: Workspace, builder: Builder) -> ServerStatus:
    """A TypeScript builder of whole-project checks: a process holding a whole program, so
    its memory is shown beside the servers' (and counts against `memory_mb`)."""
    configs = [ws.display(config) for config in builder.projects]
    return ServerStatus(
        language="typescript",
        server=builder.name,
        project=configs[0] if configs else ws.display(builder.package),
        projects=configs,
        state="ready" if builder.pid is not None else "stopped",
        pid=builder.pid,
        rss_mb=None if builder.pid is None else _rounded(tree_rss_mb(builder.pid)),
        toolchain=builder.toolchain,
    )


def _dmypy_status(ws: Workspace, daemon: Dmypy) -> ServerStatus:
    """A mypy-gated project's dmypy (lspd's own), or its mypy run once per question where
    dmypy's answer is not mypy's (`mypy_once`, forked from a process holding mypy imported,
    `mypy_fork`: its pid): which judges it and why."""
    version = ".".join(map(str, daemon.version or ())) or "?"
    return ServerStatus(
        language="python",
        server="mypy" if daemon.once else "dmypy",
        project=ws.display(daemon.project),
        projects=[ws.display(daemon.project)],
        state="ready" if daemon.pid is not None or daemon.once else "stopped",
        pid=daemon.pid,
        rss_mb=None if daemon.pid is None else _rounded(tree_rss_mb(daemon.pid)),
        toolchain=f"mypy {version} ({ws.display(daemon.interpreter)})",
        checker=daemon.reason or None,
    )


def _copy_status(ws: Workspace, helper: Session) -> ServerStatus:
    """A server of the copy kept warm for Python previews of deletions, renames and new
    modules (`workspace/kept_copy.py`): its memory shown, and counted against `memory_mb`."""
    return ServerStatus(
        language=helper.definition.language,
        server=helper.name,
        project=str(helper.root),
        projects=[str(folder) for folder in helper.folders],
        state=helper.display_state,
        pid=helper.pid,
        open_documents=len(helper.documents),
        rss_mb=None if helper.pid is None else _rounded(tree_rss_mb(helper.pid)),
        toolchain=helper.toolchain,
        kept_for=f"previews on a copy of the project, for {KEEP_S:.0f} s after the last",
    )


def servers(
    chosen: Mapping[str, str] | None = None, root: Path | None = None, choice: Choice | None = None
) -> ServersResult:
    """Each language's servers, the one answering it first: `chosen` (language -> server,
    from lspd.toml) else the first defined; with `root`, the toolchain each selected server
    runs for the root's project (`choice`: lspd.toml's toolchain settings)."""
    infos = []
    for language, names in servers_by_language().items():
        selected = (chosen or {}).get(language, names[0])
        runs, toolchain = None, None
        if root is not None:
            runs, toolchain = adapt(definitions()[selected], root, root, choice or Choice())
        for name in sorted(names, key=lambda n: n != selected):
            definition = definitions()[name]
            info = _server_info(definition, selected=name == selected)
            if runs is not None and name == selected:
                by = None if runs.name == name else runs.name  # TypeScript 7: tsc --lsp
                info.toolchain = None if toolchain is None else toolchain.label(by)
            elif runs is not None and runs.name == name and definition.stands_in_for == selected:
                _standing_in(info, runs, toolchain)
            infos.append(info)
    return ServersResult(servers=infos)


def _standing_in(info: ServerInfo, runs: ServerDefinition, toolchain: Toolchain | None) -> None:
    """`info` of a server the root's project installs itself, standing in for the selected
    one there (its pyright for basedpyright): found, as it runs, not missing from lspd's."""
    info.found, info.missing, info.command = True, None, list(runs.command)
    if toolchain is not None and toolchain.server_version:  # "pyright 1.1.414"
        info.version = toolchain.server_version.rsplit(" ", 1)[-1]


def _server_info(definition: ServerDefinition, selected: bool) -> ServerInfo:
    installed = inspect(definition)
    return ServerInfo(
        server=definition.name,
        language=definition.language,
        languages=sorted(set(definition.extensions.values())),
        selected=selected,
        found=installed.missing is None,
        missing=installed.missing,
        version=installed.version,
        command=definition.resolved_command(),
        install=definition.install_hint(),
    )


def _rounded(mb: float | None) -> float | None:
    return None if mb is None else round(mb, 1)
