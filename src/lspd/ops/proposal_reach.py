"""Which files a proposed change can affect, among those the servers answer one by one: the
whole check's rules after an edit, applied to texts not written yet.

- Python (`ops/python_affected.py`): the changed files, and, when one's declarations change
  (`engine/declarations.py`) or it is added or deleted, the files importing it, transitively
  (`python_imports.importers`, over every Python file under the root);
- TypeScript 7 (`ops/native_check.py`): the changed files, and, unless an edit touched only
  `//` comment lines and blank lines, the files importing them by name, transitively; a
  project whose aliases cannot be followed by name reaches every file;
- any other file: the changed ones only.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from lspd.engine.declarations import signature
from lspd.engine.python_imports import importers
from lspd.lsp.session import Session
from lspd.ops.check_memory import CheckMemory, PythonSeen
from lspd.ops.native_check import _aliases, _names, _reach, _shape, native, native_sessions
from lspd.ops.python_affected import PYTHON
from lspd.ops.python_affected import _names as python_names
from lspd.workspace import Workspace
from lspd.workspace.files import read_text

Texts = Mapping[Path, str | None]


def reached(
    ws: Workspace, proposed: Texts, candidates: set[Path], memory: CheckMemory
) -> set[Path]:
    """Of `candidates` (files the servers answer one by one), those `proposed` can affect;
    the proposed files themselves always."""
    found = set(proposed)
    python = {p: t for p, t in proposed.items() if p.suffix in PYTHON}
    if python:
        found |= _python(ws, python, memory)
    typescript = {p: t for p, t in proposed.items() if native(ws, p) is not None}
    if typescript:
        found |= _native(ws, typescript, native_sessions(ws, candidates | set(proposed)), memory)
    return found & (candidates | set(proposed))


def _python(ws: Workspace, proposed: Texts, memory: CheckMemory) -> set[Path]:
    declared = []
    for path, new in proposed.items():
        old = read_text(path)
        if old is None or new is None:
            declared.append(path)  # added or deleted: imports may resolve otherwise
        elif old != new and (signature(old) is None or signature(old) != signature(new)):
            declared.append(path)
    if not declared:
        return set()
    seen = memory.python if memory.python is not None else PythonSeen(-1)
    return importers(ws.root, declared, python_names(ws, seen))


def _native(
    ws: Workspace, proposed: Texts, sessions: Mapping[Path, Session], memory: CheckMemory
) -> set[Path]:
    aliases = _aliases(ws, set(sessions.values()))
    if aliases is None:
        return set(sessions)
    seen = memory.native
    names = dict(seen.names) if seen is not None else {}
    for path in sessions:
        if path not in names and path not in proposed:
            names[path] = _names(read_text(path) or "")
    seeing = set()
    for path, new in proposed.items():
        old = read_text(path)
        if new is None:
            names.pop(path, None)
        else:
            names[path] = _names(new)
        if old is None or new is None or _shape(old) != _shape(new):
            seeing.add(path)
    return _reach(seeing, names, aliases)
