"""Whether npm finished installing a server's packages into lspd's prefix.

npm writes a package's files first and its hidden lockfile (`node_modules/.package-lock.json`)
last: pyright's `langserver.index.js` was there 0.5 s into a 4.2 s install, the lockfile at
4.2 s. An install killed between the two (a daemon stopped, a timeout) leaves a script that
exists in a package that does not run (10 of pyright's 5,423 files), which lspd took as
installed. A package the lockfile does not name is therefore missing; npm run again into
that prefix installs it whole ("changed 1 package": the half-made folder carries none of
the metadata npm records).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

LOCKFILE = ".package-lock.json"  # npm's hidden lockfile, under node_modules


def package_name(spec: str) -> str:
    """The package an install spec names: `pyright@1.1.411` -> `pyright`, `@scope/x@^1` ->
    `@scope/x`."""
    return spec[:1] + spec[1:].split("@", 1)[0]


def unfinished(root: Path, specs: Iterable[str]) -> list[Path]:
    """The folders under `root` (a prefix's node_modules) of the packages of `specs` that
    npm's hidden lockfile does not name: none finished installing there."""
    try:
        listed = json.loads((root / LOCKFILE).read_text(encoding="utf-8")).get("packages")
    except (OSError, ValueError, AttributeError):
        listed = None
    named = listed if isinstance(listed, dict) else {}
    folders = [root / package_name(spec) for spec in specs]
    return [f for f in folders if f"node_modules/{f.relative_to(root).as_posix()}" not in named]
