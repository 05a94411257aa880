"""Which files a proposed change can affect, among those the servers answer one by one: the
whole check's rules after an edit, applied to texts not written yet.

- Python (`engine/python_affected.py`): the changed files, and, when one's declarations change
  (`engine/declarations.py`) or it is added or deleted, the files importing it, transitively
  (`python_imports.importers`, over every Python file under the root); of those only the
  files naming what it added when all it did was add module names (`python_names`);
- TypeScript 7 (`engine/native_reach.py`): the changed files, and, unless an edit touched only
  `//` comment lines and blank lines or left the file's declarations as they were (`alike`,
  `native_declared`), the files importing them by name, transitively, through
  every file of the workspace (a barrel's `export *` between: read from the disk where no
  whole check was seen); a `.d.ts`, a script (global declarations, imported by none) or a
  file in node_modules, every file; so does a project whose aliases cannot be followed by
  name, where a declaration changed;
- any other file: the changed ones only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

from lspd.engine.declarations import signature
from lspd.engine.native_reach import (
    NativeSeen,
    everywhere,
    import_aliases,
    import_names,
    native,
    native_sessions,
    reach,
)
from lspd.engine.python_affected import BUILTINS, PYTHON, PythonSeen
from lspd.engine.python_affected import names as python_names
from lspd.engine.python_cycles import cycles_reached
from lspd.engine.python_imports import importers
from lspd.engine.python_names import reached as named_reach
from lspd.engine.source_shape import shape
from lspd.lsp.session import Session
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.pyright_baseline import is_baseline
from lspd.workspace.scope import PYRIGHT_SERVERS

Texts = Mapping[Path, str | None]


def reached(
    ws: Workspace,
    proposed: Texts,
    candidates: set[Path],
    python_seen: PythonSeen | None,
    native_seen: NativeSeen | None,
    alike: Collection[Path] = (),
    disk: Texts | None = None,
) -> set[Path]:
    """Of `candidates` (files the servers answer one by one), those `proposed` can affect;
    the proposed files themselves always. `python_seen`, `native_seen`: what the last whole
    check saw of each language's files (their imports, made again where missing); `alike`:
    TypeScript 7 files proposed whose declarations stay as the disk's (`native_declared`);
    `disk`: the disk's texts of proposed TypeScript 7 files, where the caller read them."""
    found = set(proposed)
    python = {p: t for p, t in proposed.items() if p.suffix in PYTHON}
    if baselines := [p.parent.parent for p in proposed if is_baseline(p)]:
        found |= {p for p in candidates if _pyright(ws, p) and _under(p, baselines)}
    if python:
        found |= _python(ws, python, python_seen)
    typescript = {p: t for p, t in proposed.items() if native(ws, p) is not None}
    if typescript:
        sessions = native_sessions(ws, candidates | set(proposed))
        olds = {p: disk[p] if disk and p in disk else read_text(p) for p in typescript}
        found |= _native(ws, typescript, olds, sessions, native_seen, alike)
    return found & (candidates | set(proposed))


def _pyright(ws: Workspace, path: Path) -> bool:
    """Whether a pyright server answers `path`: its baseline (`pyright_baseline`) silences
    errors of any file of its project, so a proposed one reaches them all."""
    definition = ws.handler(path)
    return definition is not None and definition.name in PYRIGHT_SERVERS


def _under(path: Path, folders: list[Path]) -> bool:
    return any(path.is_relative_to(folder) for folder in folders)


def _python(ws: Workspace, proposed: Texts, seen: PythonSeen | None) -> set[Path]:
    declared: dict[Path, tuple[str | None, str | None]] = {}
    for path, new in proposed.items():
        old = read_text(path)
        if old is None or new is None:
            declared[path] = (old, new)  # added or deleted: imports may resolve otherwise
        elif old != new and (signature(old) is None or signature(old) != signature(new)):
            declared[path] = (old, new)
    if not declared:
        return set()
    seen = seen if seen is not None else PythonSeen(-1)
    if any(path.name == BUILTINS for path in declared):
        return set(python_names(ws, seen))  # what every file sees unimported
    imported = python_names(ws, seen)
    reach = importers(ws.root, declared, imported)
    # What the last check read of the files, less those changed since (read from the disk)
    since = {p for p, n in ws.changed_at.items() if n > seen.changes} | set(proposed)
    read = seen.read.without(since)
    named = named_reach(
        declared,
        reach,
        lambda p: proposed[p] if p in proposed else read_text(p),
        read,
        lambda: cycles_reached(ws.root, imported),
    )
    seen.read.keep(read, since)  # what was read of the files as the disk has them
    return reach if named is None else named


def _native(
    ws: Workspace,
    proposed: Texts,
    olds: Texts,
    sessions: Mapping[Path, Session],
    seen: NativeSeen | None,
    alike: Collection[Path],
) -> set[Path]:
    if any(everywhere(p, (olds[p], t)) for p, t in proposed.items()):
        return set(sessions)  # global declarations
    seeing = {
        path
        for path, new in proposed.items()
        if (old := olds[path]) is None
        or new is None
        or (shape(old) != shape(new) and path not in alike)
    }
    if not seeing:
        return set(proposed)  # no declaration changed: no importer to look for
    aliases = import_aliases(ws, set(sessions.values()))
    if aliases is None:
        return set(sessions)  # aliases not followed by name
    names = _names(ws, sessions, seen)
    for path, new in proposed.items():
        if new is None:
            names.pop(path, None)
        else:
            names[path] = import_names(new)
    return reach(seeing, names, aliases)


def _names(
    ws: Workspace, sessions: Mapping[Path, Session], seen: NativeSeen | None
) -> dict[Path, frozenset[str]]:
    """The module names each TypeScript 7 file of the workspace imports (`import_names`),
    not only `sessions`' (the candidates: one file for `diagnostics FILE --baseline`, whose
    change reaches it through the files between): the last whole check's, less the files
    changed since, else read from the disk (every file's when no check was seen)."""
    paths = set(sessions)
    known: dict[Path, frozenset[str]] = {}
    if seen is None:
        paths |= native_sessions(ws, list(ws.projects.source_files(limit=10_000_000))).keys()
    else:
        paths |= seen.names.keys()
        since = {p for p, n in ws.changed_at.items() if n > seen.changes}
        known = {p: used for p, used in seen.names.items() if p not in since}
    for path in paths - known.keys():
        known[path] = import_names(read_text(path) or "")
    return known
