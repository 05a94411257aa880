"""Finding the daemon of a workspace, for the CLI and scripts: its sentinel's port, its
/health, its lock when it does not answer; and stopping it. Calling it is `client`'s.

Light on purpose, as `client`: a bare socket (`loopback`), nothing else imported.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

from lspd import sentinel
from lspd.daemon import lock, loopback
from lspd.daemon.binding import HOST
from lspd.errors import DaemonError, InvalidInput

HEALTH_TIMEOUT_S = 2.0
# A daemon holding its lock that did not answer in HEALTH_TIMEOUT_S is asked once more, this
# long: a caller then uses it rather than check again in-process (a second engine, GBs on a
# large project) or, for a hook, say nothing. Both within an edit hook's 10 s (agents/).
BUSY_TIMEOUT_S = 4.0
# A daemon holding its lock whose port refuses is starting (not listening yet) or stopping
# (listening no more): asked again this often, as long, until it answers or lets go of it.
REFUSED_RETRY_S = 0.05


def resolve_root(root: str | os.PathLike[str] | None = None, cwd: Path | None = None) -> Path:
    """The workspace of a command (spec §5): `root` when given, else the nearest ancestor
    of `cwd` holding `.vscode/.mcp-port`, else `cwd` itself."""
    base = (cwd or Path.cwd()).resolve()
    if root is not None:
        given = (base / root).resolve()
        if not given.is_dir():
            what = "does not exist" if not given.exists() else "is not a directory"
            raise InvalidInput(f"workspace root {given} {what}; send an existing directory")
        return given
    for directory in (base, *base.parents):
        if sentinel.port_path(directory).is_file():
            return directory
    return base


class Probe:
    """What answers for a workspace: `ok` with the daemon's /health, or why not."""

    def __init__(
        self, root: Path, ok: bool, reason: str, port: int | None = None, token: str | None = None
    ) -> None:
        self.root = root
        self.ok = ok
        self.reason = reason
        self.port = port
        self.token = token
        self.health: dict[str, Any] = {}
        self.stale = False  # a sentinel that no daemon of this workspace answers for
        self.pid: int | None = None  # the daemon's, when it answered or holds the lock
        self.refused = False  # its port refused while it holds its lock: starting or stopping
        self.busy = False  # it holds its lock and did not answer in time

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def url(self) -> str:
        """The MCP endpoint, as agents are configured with it."""
        return f"{self.base_url}/mcp"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


def probe(root: Path, timeout: float = HEALTH_TIMEOUT_S) -> Probe:
    """Ask the port in the sentinel whether a daemon serves `root` (else the sentinel is stale)."""
    root = root.resolve()
    port = sentinel.read_port(root)
    if port is None:
        where = sentinel.port_path(root)
        return Probe(root, False, f"no daemon runs for {root} (no port in {where})")
    found = Probe(root, False, "", port, sentinel.read_token(root))
    try:
        status, _, body = loopback.request(HOST, port, "GET", "/health", found.headers, timeout)
    except (OSError, loopback.NotHttp) as exc:
        return _unanswered(found, exc, timeout)
    if status == 401:
        found.reason = f"the daemon on port {port} refused the token in {sentinel.token_path(root)}"
        return found
    if status != 200:
        found.reason = f"port {port} answered /health with HTTP {status}"
        return found
    try:
        health = json.loads(body.decode("utf-8", errors="replace"))
    except ValueError:
        found.reason = f"port {port} answered /health with something that is not JSON"
        return found
    if not isinstance(health, dict) or health.get("workspace") != str(root):
        other = health.get("workspace") if isinstance(health, dict) else None
        found.reason = f"port {port} serves another workspace ({other}): stale sentinel"
        found.stale = True
        return found
    found.health = health
    found.pid = health.get("pid") if isinstance(health.get("pid"), int) else None
    crashed = [s["server"] for s in health.get("servers", []) if s.get("state") == "crashed"]
    found.ok = health.get("status") == "ok"
    if not found.ok:
        found.reason = f"the daemon reports status {health.get('status')!r}"
    elif crashed:
        found.reason = f"daemon up, but crashed: {', '.join(crashed)} (restarts on next request)"
    else:
        found.reason = f"daemon pid {health.get('pid')} serves {root} at {found.url}"
    return found


def _unanswered(found: Probe, exc: Exception, timeout: float) -> Probe:
    """Why the port in the sentinel did not answer /health: a daemon holds its lock and is
    busy (no answer in time) or starting or stopping (its port refuses), else no daemon runs
    and the sentinel is stale."""
    found.pid = pid = lock.holder(found.root)
    port = found.port
    if pid is None:
        found.reason = f"nothing answers on port {port} ({type(exc).__name__}): stale sentinel"
        found.stale = True
    elif isinstance(exc, ConnectionRefusedError):
        found.reason = (
            f"the daemon (pid {pid}) holds its lock but refused the connection on port {port}: "
            "it is starting or stopping; try again in a moment"
        )
        found.refused = True
    elif isinstance(exc, TimeoutError):
        found.busy = True
        found.reason = f"the daemon (pid {pid}) did not answer /health within {timeout:g} s"
    else:  # a reset, or not HTTP (another program's port by now?)
        found.reason = f"the daemon (pid {pid}) did not answer /health on port {port}: {exc}"
    return found


def find_daemon(root: Path) -> Probe | None:
    """The running daemon of `root`, or None (`awaited`: why)."""
    found = awaited(root)
    return found if found.ok else None


def awaited(root: Path) -> Probe:
    """`root`'s daemon as found, one holding its lock waited for, up to BUSY_TIMEOUT_S
    more: asked once more when slow to answer; while its port refuses (it is starting or
    stopping), until it answers or lets go of its lock. The last probe, so that a caller
    saying why none answered does not ask again (`lspd status` took 8 s)."""
    found = probe(root)
    if found.ok or found.pid is None:
        return found
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    if not found.refused:
        found = probe(root, BUSY_TIMEOUT_S)
        if found.busy:
            found.reason += f" when asked again ({HEALTH_TIMEOUT_S:g} s the first time)"
    while found.refused and (left := deadline - time.monotonic()) > 0:
        time.sleep(min(REFUSED_RETRY_S, left))
        found = probe(root, max(deadline - time.monotonic(), REFUSED_RETRY_S))
    return found


def enclosing_daemon(root: Path) -> Probe | None:
    """The running daemon serving `root` or a directory above it (which answers for `root`)."""
    root = root.resolve()
    for directory in (root, *root.parents):
        if sentinel.port_path(directory).is_file() and (found := find_daemon(directory)):
            return found
    return None


def remove_stale(found: Probe) -> None:
    """Remove the sentinel (and token) a killed daemon left behind."""
    if found.stale and found.port is not None:
        sentinel.remove_port(found.root, found.port)
        sentinel.remove_token(found.root, found.token)
        sentinel.remove_created_dir(found.root)


def stop(root: Path, timeout: float = 15.0, found: Probe | None = None) -> Probe:
    """Stop the daemon of `root` with SIGTERM (a clean shutdown) and wait until it is gone;
    one too busy to answer /health is found by its lock (`found`: `root` probed already)."""
    found = probe(root) if found is None else found
    if found.pid is None:
        raise DaemonError(found.reason)
    pid = found.pid
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return found
    except PermissionError as exc:
        raise DaemonError(f"cannot signal the daemon (pid {pid}): {exc}") from None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return found
        time.sleep(0.05)
    raise DaemonError(f"the daemon (pid {pid}) did not stop within {timeout:g} s")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child of ours counts as gone.
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True
