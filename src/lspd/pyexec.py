"""Starting Python for lspd's own work so that no file of the workspace is ever imported.

`python -m lspd` run with the workspace as its working directory puts the workspace first on
`sys.path`: a project's `httpx/` or `pydantic.py` would be imported, and run, in place of
lspd's dependency. Every Python lspd starts for itself (the detached daemon, pip, the
watchdog) gets `-I` (no working directory or script directory on the path, no `PYTHON*`
variables, no user site), or `-P -E` when lspd itself is installed in the user site.
"""

from __future__ import annotations

import site
import sys
from pathlib import Path


def python_argv(*args: str) -> list[str]:
    """`sys.executable` with the isolation flags, then `args`."""
    return [sys.executable, *isolation_flags(), *args]


def isolation_flags() -> list[str]:
    """`-I`, unless lspd lives in the user site (which `-I` would hide): then `-P -E`."""
    return ["-P", "-E"] if _in_user_site() else ["-I"]


def _in_user_site() -> bool:
    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE is not False else None
    if not user_site:
        return False
    here = Path(__file__).resolve()
    return here.is_relative_to(Path(user_site).resolve())
