"""What the daemon and its servers are doing, and which servers this machine has."""

from __future__ import annotations

import os
import time

from lspd import __version__
from lspd.ops.models import ServerInfo, ServersResult, ServerStatus, StatusResult
from lspd.servers.registry import definitions
from lspd.servers.versions import installed_version
from lspd.workspace import Workspace


def status(ws: Workspace) -> StatusResult:
    return StatusResult(
        workspace=str(ws.root),
        pid=os.getpid(),
        version=__version__,
        uptime_s=round(time.monotonic() - ws.started, 3),
        servers=[
            ServerStatus(
                language=session.definition.language,
                server=session.name,
                project=ws.display(session.root),
                state=session.display_state,
                pid=session.pid,
                open_documents=len(session.documents),
            )
            for session in ws.sessions.values()
        ],
    )


def servers() -> ServersResult:
    infos = []
    for definition in definitions().values():
        missing = definition.missing()
        infos.append(
            ServerInfo(
                server=definition.name,
                languages=sorted(set(definition.extensions.values())),
                found=missing is None,
                version=installed_version(definition) if missing is None else None,
                command=definition.resolved_command(),
                install=definition.install_hint(),
            )
        )
    return ServersResult(servers=infos)
