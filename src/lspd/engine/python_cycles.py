"""Which Python files reach the same import cycle: where basedpyright's answers depend on
the order it checks the files in.

basedpyright evaluates an import cycle's types from whichever file reaches them first, and
some answers depend on it: of two classes deriving from each other, "Class cannot derive
from itself" is said in the one reached second; SQLAlchemy's orm/session.py:3693-3694 is
said only when the files before it in its CLI's order were checked first. After an edit
it drops its types and checks again only the files it is asked, in the order asked. Every
importer of a changed module asked in order reaches the cycles the module's importers are
in as the CLI does (each file reaching such a cycle imports the module); a part of them
(`engine/python_names`: the files naming an added name) does not when a file left out
reaches a cycle an asked file reaches: an added name in c.py that b.py names, with a.py and
b.py deriving their classes from each other, asked b.py alone and lost b.py's error, which
the CLI (a.py first) keeps (tests/engine/test_python_cycles.py).

The cycles are the strongly connected components of the import graph (`python_imports`'s
reading of each file's imports: a superset, so more cycles than Python runs, never fewer).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from lspd.engine.python_imports import Name, imports, module_parts

Reach = Mapping[Path, frozenset[int]]  # per file, the import cycles it is in or imports


def cycles_reached(root: Path, names: Mapping[Path, Iterable[Name]]) -> dict[Path, frozenset[int]]:
    """The import cycles each file of `names` (each file's `touched`) is in or imports,
    transitively, by number; a file reaching none is left out."""
    edges = _edges(root, names)
    found: dict[Path, frozenset[int]] = {}
    component: dict[Path, int] = {}
    for number, members in enumerate(_components(edges)):  # each after those it imports
        for path in members:
            component[path] = number
        reached: set[int] = {number} if len(members) > 1 else set()  # (not a self-import)
        for path in members:
            for imported in edges[path]:
                if component[imported] != number:
                    reached |= found.get(imported, frozenset())
        if reached:
            for path in members:
                found[path] = frozenset(reached)
    return found


def shared(reach: Reach, asked: Iterable[Path], left: Iterable[Path]) -> bool:
    """Whether a file of `left` reaches an import cycle a file of `asked` reaches."""
    cycles: set[int] = set()
    for path in asked:
        cycles |= reach.get(path, frozenset())
    return bool(cycles) and any(not cycles.isdisjoint(reach.get(p, ())) for p in left)


def _edges(root: Path, names: Mapping[Path, Iterable[Name]]) -> dict[Path, set[Path]]:
    """Each file's imports among the files of `names` (as `python_imports.importers` finds a
    module's importers; the root's own `__init__.py`, which has no name, by every file)."""
    by_end: dict[str, list[tuple[Path, Name]]] = {}
    for path, touched_names in names.items():
        for name in touched_names:
            end = name[-2] if name[-1] == "*" and len(name) > 1 else name[-1]
            by_end.setdefault(end, []).append((path, name))
    edges: dict[Path, set[Path]] = {path: set() for path in names}
    for module_path in names:
        module, shortest = module_parts(root, module_path)
        if not module:
            for path in names:
                edges[path].add(module_path)
            continue
        for end in set(module[-2:]):
            for path, name in by_end.get(end, ()):
                if imports([name], module, shortest):
                    edges[path].add(module_path)
    return edges


def _components(edges: Mapping[Path, set[Path]]) -> list[list[Path]]:
    """The strongly connected components of `edges` (Tarjan's, without recursion), each
    listed after every component it reaches."""
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on_stack: set[Path] = set()
    found: list[list[Path]] = []
    for start in edges:
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(edges[start]))]
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(edges[successor])))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members: list[Path] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    found.append(members)
    return found
