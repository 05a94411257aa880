"""A warm re-check asked of lspd's dmypy server on its socket, as `dmypy run`'s client asks
it, without starting that client.

Every `dmypy run` starts a Python and imports mypy's client before it asks the server:
0.15 s on a quiet machine, 0.4-0.7 s at load 6, most of a re-check after a leaf edit. The
server speaks length-prefixed JSON frames on a Unix socket (`mypy/ipc.py`: a 4-byte
big-endian size, then the UTF-8 JSON; `stdout`/`stderr` frames while it works, then the
one marked `final`). That protocol is mypy's own and has changed before, so it is used only
where the installed mypy's sources show it (`speaks`); anywhere else, and whenever the
server answers something else (a restart it wants, an error, a closed socket), lspd runs
`dmypy run` as before, which starts, restarts or reports as it always did.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import struct
from pathlib import Path
from typing import Any

from lspd.workspace.mypy_installed import site_packages

_FRAMED = 'struct.pack("!L"'
_VERSION = re.compile(r'^__version__\s*=\s*"([^"]+)"\s*$', re.M)


def speaks(interpreter: Path) -> str | None:
    """The mypy version string its server expects from a client, when the environment's
    mypy frames its messages as this module does and its `run` takes the arguments sent
    here; None otherwise (a development build computes its version: also None)."""
    for site in site_packages(interpreter):
        package = site / "mypy"
        try:
            ipc = (package / "ipc.py").read_text("utf-8", "replace")
            server = (package / "dmypy_server.py").read_text("utf-8", "replace")
            version = (package / "version.py").read_text("utf-8", "replace")
        except OSError:
            continue
        found = _VERSION.search(version)
        if _FRAMED not in ipc or "terminal_width: int" not in server or found is None:
            return None
        return None if found.group(1).endswith("+dev") else found.group(1)
    return None


async def ask_run(socket: Path, version: str, flags: list[str]) -> dict[str, Any] | None:
    """The server's last frame in answer to `run` with `flags`: `out`, `err` and `status`
    as `dmypy run` prints and exits with them, or `restart` (why it wants one) or `error`;
    None when it answered nothing (not there, the connection closed)."""
    request = {
        "command": "run",
        "version": version,
        "args": flags,
        "export_types": False,
        "is_tty": False,
        "terminal_width": 80,
    }
    try:
        reader, writer = await asyncio.open_unix_connection(str(socket))
    except OSError:
        return None
    try:
        data = json.dumps(request).encode("utf-8")
        writer.write(struct.pack("!L", len(data)) + data)
        await writer.drain()
        while True:
            size = struct.unpack("!L", await reader.readexactly(4))[0]
            frame = json.loads(await reader.readexactly(size))
            if not isinstance(frame, dict):
                return None
            if frame.get("final"):
                break
    except (OSError, asyncio.IncompleteReadError, ValueError):
        return None
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    return frame
