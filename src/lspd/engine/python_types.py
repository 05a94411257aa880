"""Which importers a change of a Python module's declarations reaches, told by the types
the server gives them before and after it.

By name alone (`python_names`) only names added can be followed: a change of SQLAlchemy's
`to_list` is named by 17 files, whose unannotated methods (`order_by`, `of`) are written
for other classes' members everywhere, so following every declaration made of it reached
250 of 255 files. Most of those declarations keep their type. So each declaration a change
can reach is asked its type (a hover of its name) with the old texts and with the new, and
only those whose type differs are followed:

- in the changed modules, each statement changed in place (the same names bound, none
  moved, added or removed but for names added, as `python_names` follows them): a
  function, an assignment, or a class's members changed the same way (its bases, decorators
  and keywords as they were);
- in the importers naming a changed name, each declaration made of it: a function or an
  assignment at module level, or a class's members made of it (a method's type and the
  attributes it sets on `self`); an import of it binds its other name without asking.

A class member whose type differs reaches files that do not write its name (a protocol
fitted by members, an override, an instance passed on), so then every importer is asked,
as for anything this cannot place: a statement moved, removed or of another kind (a
block, a loop), decorators changed, an import added or changed, module `__getattr__`, a
name with no type answered, a module whose names changed used as a value (`python_names`),
more than `_FOLLOWED` files or `_SPOTS` names to ask about. A type is a hover's code
without its docs: the same text, the same type to the files naming it.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from lspd.engine.declarations import Function
from lspd.engine.python_names import (
    STAR,
    UNPLACED,
    Declaration,
    Read,
    located,
    names_any,
    value_users,
    words_of,
)
from lspd.engine.python_spots import Spot, Unplaced, bound, spots_of, value_spots

_FOLLOWED = 100  # files followed, at most (then every importer is asked)
_SPOTS = 600  # names asked their type, at most in each state


class Server(Protocol):
    """What is asked of the server (`engine/hovered_types.py`)."""

    async def types(
        self, before: list[Spot], after: list[Spot]
    ) -> tuple[list[str | None], list[str | None]]:
        """The type of each name of `before` with the old texts, of `after` with the new
        (None: no type answered)."""
        ...

    async def defined(self, spots: list[Spot]) -> list[frozenset[Path] | None]:
        """The files each name (in the disk's texts) is defined in (None: not answered)."""
        ...


Texts = tuple[str, str]  # a file's text in the old state and in the new
Changed = Mapping[Path, tuple[str | None, str | None]]  # each changed file's old and new text
TextOf = Callable[[Path], str | None]  # a file's text (None: unreadable)


@dataclass(frozen=True)
class _Unit:
    """Declarations whose type is compared: the names asked, in each state."""

    names: frozenset[str]  # the module names whose type it is ("": a class's member)
    before: tuple[Spot, ...]
    after: tuple[Spot, ...]


async def typed_reach(
    changed: Changed, importers: Iterable[Path], text_of: TextOf, read: Read, server: Server
) -> set[Path] | None:
    """Of `importers` (the changed modules' importers, transitively), the files naming a
    declaration whose type the changes change (`changed`: each file's text before and
    after; `types`: the server's answer in both states); None when a change cannot be
    placed (then all of them can be reached). `read`: as `python_names.reached`'s."""
    try:
        return await _reach(changed, importers, text_of, read, server)
    except Unplaced:
        return None


Pairs = list[tuple[Declaration, tuple[ast.stmt, ast.stmt]]]  # each with its old statement


async def _reach(changed: Changed, importers: Iterable[Path], text_of: TextOf, read: Read,
                 server: Server) -> set[Path] | None:  # fmt: skip
    names: set[str] = set()
    units: list[_Unit] = []
    pairs: dict[Path, Pairs] = {}  # the followed files' declarations, with the old ones
    for path, (old, new) in changed.items():
        added, made, pairs[path] = _changed_units(path, old, new)
        names |= added
        units += made
    texts = {path: text_of(path) for path in importers}
    fresh = Read()  # the changed files': not kept
    reach: set[Path] = set()
    declaring = set(changed)  # the modules whose names' types changed
    looked: set[tuple[Path, int]] = set()  # declarations made into units already
    spots = 0
    while True:
        spots += sum(len(u.before) for u in units)
        if spots > _SPOTS:
            return None
        for unit, differs in zip(units, await _differing(units, server), strict=True):
            if differs:
                names |= unit.names
                declaring.add(unit.before[0].path)
        for path, text in texts.items():
            held = fresh if path in changed else read
            if path not in reach and (text is None or names_any(path, text, list(names), held)):
                if text is None:
                    return None  # unreadable: what it declares is unknown
                reach.add(path)
                if len(reach) > _FOLLOWED:
                    return None
        units, grown = [], False
        for path in sorted(set(changed) | reach):
            if path not in pairs:
                pairs[path] = _unchanged(texts[path])
            both = changed.get(path) or (texts[path], texts[path])
            for index, (declaration, nodes) in enumerate(pairs[path]):
                if (path, index) in looked or not _made_of(declaration, names):
                    continue
                looked.add((path, index))
                if isinstance(nodes[1], ast.Import | ast.ImportFrom):
                    bound = _imported(nodes[1], names)  # `from m import x as other`
                    grown |= not bound <= names
                    names |= bound
                    if bound:
                        declaring.add(path)  # it has them as its own: `m.x`
                    continue
                assert both[0] is not None and both[1] is not None
                units += _reached_units(path, declaration, nodes, (both[0], both[1]), names)
        if not units and not grown:
            stars = {p for p, text in texts.items() if text is None or STAR.search(text)}
            used = await _used_as_values(declaring | stars, texts, read, server)
            return None if used else reach


async def _used_as_values(
    modules: set[Path], texts: Mapping[Path, str | None], read: Read, server: Server
) -> bool:
    """Whether one of `modules` is used as a value (`python_names.value_users`: by name),
    each use asked where its name is defined (SQLAlchemy's `util` is also
    `cyextension.util`, used as a value in `util/_has_cy.py`)."""
    users = value_users(modules, texts, read)
    if users is None:
        return True
    spots: list[Spot] = []
    for path, names in users.items():
        text = texts[path]
        assert text is not None
        spots += value_spots(path, text, names)
        if len(spots) > _SPOTS:
            return True
    packages = {p.parent for p in modules if p.stem == "__init__"}
    for found in await server.defined(spots) if spots else []:
        if found is None or found & modules or any(p in packages for p in found):
            return True
    return False


def _made_of(declaration: Declaration, names: set[str]) -> bool:
    return not names.isdisjoint(declaration.words) or not names.isdisjoint(declaration.inner)


def _imported(node: ast.Import | ast.ImportFrom, names: set[str]) -> set[str]:
    """The names `from m import x as other` binds for the `names` it imports (a module's
    import binds no declaration's type)."""
    if isinstance(node, ast.Import):
        return set()
    return {alias.asname or alias.name for alias in node.names if alias.name in names}


def _unchanged(text: str | None) -> Pairs:
    """An unchanged file's declarations, each its own old statement."""
    found = located(text) if text is not None else None
    if found is None:
        raise Unplaced  # unreadable, or it does not parse: what it declares is unknown
    return [(declaration, (node, node)) for declaration, node in found]


async def _differing(units: Sequence[_Unit], server: Server) -> list[bool]:
    """For each unit, whether its type differs between the states (a class member's:
    `Unplaced`)."""
    if not units:
        return []
    before = [spot for unit in units for spot in unit.before]
    after = [spot for unit in units for spot in unit.after]
    old, new = await server.types(before, after)
    found: list[bool] = []
    at = 0
    for unit in units:
        count = len(unit.before)
        pairs = zip(old[at : at + count], new[at : at + count], strict=True)
        at += count
        differs = any(a is None or b is None or a != b for a, b in pairs)
        if differs and "" in unit.names:
            raise Unplaced  # a class member's type changed
        found.append(differs)
    return found


def _changed_units(
    path: Path, old: str | None, new: str | None
) -> tuple[set[str], list[_Unit], Pairs]:
    """The names a changed module adds, its statements changed in place as units, and its
    statements unchanged (each with its old self: where it stood)."""
    before = located(old) if old is not None else None
    after = located(new) if new is not None else None
    if before is None or after is None or old is None or new is None:
        raise Unplaced  # added, removed or not parsed
    shapes = [[d.shape + d.members for d, _ in side] for side in (before, after)]
    matcher = difflib.SequenceMatcher(None, shapes[0], shapes[1], autojunk=False)
    had = {name for declaration, _ in before for name in declaration.names}
    added: set[str] = set()
    units: list[_Unit] = []
    same: Pairs = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for (_, was), (declaration, now) in zip(before[i1:i2], after[j1:j2], strict=True):
                same.append((declaration, (was, now)))
            continue
        if tag == "insert":
            for declaration, _ in after[j1:j2]:
                if declaration.names & (UNPLACED | had) or declaration.imports:
                    raise Unplaced  # `__all__`, `__getattr__`, a name rebound, an import
                added |= declaration.names
            continue
        if tag != "replace" or i2 - i1 != j2 - j1:
            raise Unplaced  # a statement moved or removed
        for (gone, node_was), (come, node_now) in zip(before[i1:i2], after[j1:j2], strict=True):
            if gone.names != come.names or gone.names & UNPLACED or gone.imports or come.imports:
                raise Unplaced
            units += _pair_units(path, node_was, node_now, old, new)
    return added, units, same


def _pair_units(path: Path, was: ast.stmt, now: ast.stmt, old: str, new: str) -> list[_Unit]:
    """A statement changed in place, as units; a class's: its changed members'."""
    if isinstance(was, ast.ClassDef) and isinstance(now, ast.ClassDef):
        if _shape(was) != _shape(now):
            raise Unplaced  # its bases, decorators or keywords
        olds, news = was.body, now.body
        shapes = [[ast.dump(m) for m in side] for side in (olds, news)]
        matcher = difflib.SequenceMatcher(None, shapes[0], shapes[1], autojunk=False)
        units = []
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            if tag != "replace" or i2 - i1 != j2 - j1:
                raise Unplaced  # a member added, moved or removed
            for a, b in zip(olds[i1:i2], news[j1:j2], strict=True):
                units.append(_unit(frozenset({""}), spots_of(path, a, old), spots_of(path, b, new)))
        return units
    if type(was) is not type(now) or _decorators(was) != _decorators(now):
        raise Unplaced
    names = frozenset(bound(was))
    return [_unit(names, spots_of(path, was, old), spots_of(path, now, new))]


def _reached_units(
    path: Path,
    declaration: Declaration,
    nodes: tuple[ast.stmt, ast.stmt],
    texts: Texts,
    names: set[str],
) -> list[_Unit]:
    """A declaration of a followed file made of `names`, as units (`nodes`, `texts`: the
    statement and the file's text in the old state and the new: the same but in a changed
    module)."""
    if "__getattr__" in declaration.names:
        raise Unplaced  # every attribute of the module may be made of it
    was, now = nodes
    if not isinstance(was, ast.ClassDef) or not isinstance(now, ast.ClassDef):
        if declaration.names == {""}:
            return []  # binds nothing an importer sees (`print(helper())`)
        names_bound = frozenset(declaration.names)
        return [_unit(names_bound, spots_of(path, was, texts[0]), spots_of(path, now, texts[1]))]
    if not names.isdisjoint(declaration.words):
        raise Unplaced  # its bases, decorators or keywords are made of it
    units = []
    for old, new in zip(was.body, now.body, strict=True):
        if not names.isdisjoint(words_of(new)):
            before, after = spots_of(path, old, texts[0]), spots_of(path, new, texts[1])
            units.append(_unit(frozenset({""}), before, after))
    return units


def _unit(names: frozenset[str], before: tuple[Spot, ...], after: tuple[Spot, ...]) -> _Unit:
    if not before or len(before) != len(after):
        raise Unplaced  # nothing to ask, or not the same names in both
    return _Unit(names, before, after)


def _shape(node: ast.ClassDef) -> str:
    members, node.body = node.body, []
    try:
        return ast.dump(node)
    finally:
        node.body = members


def _decorators(node: ast.stmt) -> list[str]:
    return [ast.dump(d) for d in node.decorator_list] if isinstance(node, Function) else []
