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
served by the session folder of the configuration's directory.
"""

from __future__ import annotations

from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace.files import stamp
from lspd.workspace.pyright_scope import CONFIG_JSON, PYPROJECT, _table

# Whether a pyproject.toml holds a pyright table, by path, with the stamp it was read at.
_TABLES: dict[Path, tuple[tuple[int, int], bool]] = {}
_TABLES_KEPT = 1_000


def configuration_home(directory: Path, top: Path) -> Path | None:
    """The directory above `directory`, up to `top`, whose configuration basedpyright reads
    for a folder at `directory`, when `directory` holds a pyproject.toml without a pyright
    table (and no pyrightconfig.json); None otherwise, or when none is found up to `top`
    (basedpyright then runs on its defaults there)."""
    if (directory / CONFIG_JSON).is_file() or not (directory / PYPROJECT).is_file():
        return None
    if _has_table(directory / PYPROJECT):
        return None
    start = directory
    while start != top and start.is_relative_to(top):
        chain = _chain(start.parent, top)
        found = next((d for d in chain if (d / CONFIG_JSON).is_file()), None)
        if found is not None:
            return found
        start = next((d for d in chain if (d / PYPROJECT).is_file()), top)
        if (start / PYPROJECT).is_file() and _has_table(start / PYPROJECT):
            return start
    return None


def _chain(directory: Path, top: Path) -> list[Path]:
    """`directory` and each directory above it, up to `top`."""
    chain = [directory]
    while chain[-1] != top and chain[-1].parent != chain[-1]:
        chain.append(chain[-1].parent)
    return chain


def _has_table(path: Path) -> bool:
    """Whether the pyproject.toml holds a pyright table; one that cannot be read counts as
    holding one (the folder stays a project of its own, as before)."""
    now = stamp(path)
    if now is None:
        return False
    kept = _TABLES.get(path)
    if kept is not None and kept[0] == now:
        return kept[1]
    try:
        found = _table(path) is not None
    except InvalidInput:
        found = True
    if len(_TABLES) >= _TABLES_KEPT:
        _TABLES.clear()
    _TABLES[path] = (now, found)
    return found
