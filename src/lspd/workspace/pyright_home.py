"""Where basedpyright takes the configuration of a folder whose pyproject.toml has no
pyright table from: a directory above it.

basedpyright 1.40 (`_getExtendedConfigurations`), CLI and language server alike, reads a
pyproject.toml without `[tool.basedpyright]` / `[tool.pyright]` as no configuration and
searches from its parent upward (a `pyrightconfig.json` first, else a `pyproject.toml`,
again past one without a table), yet keeps the folder as its project root. Given such a
folder (mcp 2.3.0's src/mcp-types, a package of its own inside the root's `include`), its
service tracks every file of the configuration found above, and basedpyright answers a
file tracked by several folders from the deepest: the root's files then came from a
service rooted in src/mcp-types, which takes the editable install's `src` for the
project's own code (a module of a py.typed package re-exporting a name privately:
reportPrivateLocalImportUsage, off in strict, where the CLI run at the configuration's
directory says reportPrivateImportUsage). The project's gate is that CLI run
(`pyright_scope`: a pyproject.toml without a table governs nothing), so such a folder is
served by the session folder of the configuration's directory. So is a folder marked by a
setup.py or setup.cfg alone: basedpyright reads no configuration there either (its service
took the root's files from a folder on its defaults, without the root's `extraPaths`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace.pyright_scope import CONFIG_JSON, PYPROJECT, _table, is_toml

# Whether a pyproject.toml holds a pyright table, by path, with the stamp it was read at.
_TABLES: dict[str, tuple[tuple[int, int, int], bool]] = {}
_TABLES_KEPT = 1_000


def configuration_home(directory: Path, top: Path) -> Path | None:
    """The directory above `directory`, up to `top`, whose configuration basedpyright reads
    for a folder at `directory`, when `directory` holds no configuration of its own: a
    pyproject.toml without a pyright table, or none (a setup.py or setup.cfg marked it), and
    no pyrightconfig.json; None otherwise, or when none is found up to `top` (basedpyright
    then runs on its defaults there). Strings and os.stat: asked at each question about a
    file of such a folder (pathlib's objects cost more than the stats)."""
    here, end = str(directory), str(top)
    if _file(os.path.join(here, CONFIG_JSON)) or _table_in(here):
        return None  # a configuration of its own (a pyproject.toml unread counts as one)
    start = here
    while start != end and start.startswith(end + os.sep):
        chain = _chain(os.path.dirname(start), end)
        found = next((d for d in chain if _file(os.path.join(d, CONFIG_JSON))), None)
        if found is not None:
            return Path(found)
        tables = ((d, _table_in(d)) for d in chain)
        start, table = next(((d, t) for d, t in tables if t is not None), (end, None))
        if table:
            return Path(start)
    return None


def _chain(directory: str, top: str) -> list[str]:
    """`directory` and each directory above it, up to `top`."""
    chain = [directory]
    while chain[-1] != top and os.path.dirname(chain[-1]) != chain[-1]:
        chain.append(os.path.dirname(chain[-1]))
    return chain


def _file(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _table_in(directory: str) -> bool | None:
    """Whether the directory's pyproject.toml holds a pyright table (None: it has none); one
    that cannot be read counts as holding one (the folder stays a project of its own), but
    not one that is no TOML (`is_toml`: a fixture)."""
    path = os.path.join(directory, PYPROJECT)
    try:
        status = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    now = (status.st_mtime_ns, status.st_size, status.st_ino)
    kept = _TABLES.get(path)
    if kept is not None and kept[0] == now:
        return kept[1]
    try:
        found = _table(Path(path)) is not None
    except InvalidInput:
        found = is_toml(Path(path))
    if len(_TABLES) >= _TABLES_KEPT:
        _TABLES.clear()
    _TABLES[path] = (now, found)
    return found
