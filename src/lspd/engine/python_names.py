"""Which importers a Python declaration change can reach, when a module's names are all it
changes: the files naming them.

pyright checks every importer of a module whose declarations changed again, transitively:
a name added to `dialects/sqlite/json.py`, which no file names, asked its importers and
theirs. A file's diagnostics can change only where it names something whose type changed: a
module name whose declaration changed, or, transitively, a declaration made of such a name
(`def f(): return helper(x)` infers its type from it; `def g() -> Box`, `Alias = Box`,
`class Sub(Box)`). So the changed names are followed through the declarations
(`engine/declarations.declared`: what an importer sees) of the files naming them, to a
fixed point, and the files asked are those of the importers (`python_imports.importers`, a
superset) whose code names one of them (`identifiers`: as a name, an attribute
`util.helper`, an import, or a string that is an expression, a forward reference). A star
import needs no rule of its own: whoever uses a name it brings writes the name.

A class's members are not followed by name: a member named `of` or `order_by` is written
for other classes' members everywhere, a use need not write it (`a + b` names no `__add__`,
a protocol is fitted by members no one names), and followed by name SQLAlchemy's `to_list`
reached 250 of 255 files through unannotated methods. So a change that reaches a class's
member, in the changed module or in a file that names what changed, is not placed here.

Not placed (then every importer is asked, as before): a member's change, a module that does
not parse, a changed statement that binds no name (`m.x = 1`, a call), a changed star
import, `__all__` (what `import *` takes) or module `__getattr__`.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.declarations import declared

_WORD = re.compile(r"[^\W\d]\w*")
_SEARCHED = 32  # up to this many names, a file's text is searched before its code is read
_UNPLACED = {"", "__all__", "__getattr__"}  # names whose change no use can be told by
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Declaration:
    """One statement of what a module declares at its top level, as its importers see it."""

    names: frozenset[str]  # the module names it binds ("": none that can be told)
    shape: str  # the statement, without positions (a class's: without its members)
    words: frozenset[str]  # the names it is made of (names, attributes, imports)
    members: str = ""  # a class's members, without positions
    inner: frozenset[str] = frozenset()  # the names a class's members are made of


Declarations = dict[str, list[Declaration]]  # by the name each binds


def declarations(text: str) -> Declarations | None:
    """Each top-level declaration of the module, by the name it binds (None: no parse)."""
    tree = declared(text)
    if tree is None:
        return None
    found: Declarations = {}
    for node in tree.body:
        for one in _split(node):
            names = _bound(one)
            if isinstance(one, ast.ClassDef):
                members, one.body = one.body, []
                module = ast.Module(body=members, type_ignores=[])
                declaration = Declaration(
                    names, ast.dump(one), frozenset(_words(one)), ast.dump(module),
                    frozenset(_words(module)),
                )  # fmt: skip
            else:
                declaration = Declaration(names, ast.dump(one), frozenset(_words(one)))
            for name in names:
                found.setdefault(name, []).append(declaration)
    return found


def changed_names(old: str | None, new: str | None) -> set[str] | None:
    """The module names whose declarations differ between two texts of a module (None: one
    that cannot be told by name, or a text missing or not parsed)."""
    before = declarations(old) if old is not None else None
    after = declarations(new) if new is not None else None
    if before is None or after is None:
        return None
    names: set[str] = set()
    for name in before.keys() | after.keys():
        was, now = before.get(name, []), after.get(name, [])
        classes = [d.members for d in was if d.members], [d.members for d in now if d.members]
        if all(classes) and classes[0] != classes[1]:
            return None  # a class's members (a class added or removed is a name's change)
        if [d.shape for d in was] != [d.shape for d in now]:
            if name in _UNPLACED:
                return None
            names.add(name)
    return names


@dataclass
class Read:
    """What was read of the files' texts, kept between checks for the files not changed."""

    words: dict[Path, frozenset[str] | None] = field(default_factory=dict)  # `identifiers`
    made: dict[Path, Declarations | None] = field(default_factory=dict)  # `declarations`

    def without(self, changed: Iterable[Path]) -> Read:
        """What was read of the files other than `changed`."""
        gone = set(changed)
        return Read(
            {p: w for p, w in self.words.items() if p not in gone},
            {p: d for p, d in self.made.items() if p not in gone},
        )


def reached(
    changed: Mapping[Path, tuple[str | None, str | None]],
    importers: Iterable[Path],
    text_of: Callable[[Path], str | None],
    read: Read,
) -> set[Path] | None:
    """Of `importers` (the changed modules' importers, transitively), the files naming
    something a change of `changed` (each file's text before and after) reaches; None when
    one cannot be told by name (then all of them can be reached). `read`: what was read of
    the texts `text_of` gives, added to (the changed files' are not kept)."""
    names: set[str] = set()
    for before, after in changed.values():
        differ = changed_names(before, after)
        if differ is None:
            return None
        names |= differ
    texts = {path: text_of(path) for path in importers}
    fresh = Read()  # the changed files': not kept
    reach: set[Path] = set()
    followed = set(changed)
    looked: set[str] = set()  # the names every file was looked at for
    while True:
        unlooked = [n for n in names if n not in looked]
        looked.update(unlooked)
        for path, text in texts.items():
            held = (fresh if path in changed else read).words
            if path not in reach and (text is None or _names_any(path, text, unlooked, held)):
                reach.add(path)
                followed.add(path)
        grown = False
        for path in followed:
            made = (fresh if path in changed else read).made
            if path not in made:
                text = changed[path][1] if path in changed else texts[path]
                made[path] = declarations(text) if text is not None else None
            found = made[path]
            if found is None:
                return None  # unreadable, or it does not parse: what it declares is unknown
            for declaration in (d for each in found.values() for d in each):
                if not names.isdisjoint(declaration.inner):
                    return None  # a class's member is made of a changed name
                if names.isdisjoint(declaration.words) or declaration.names <= names:
                    continue
                if "" in declaration.names:
                    return None
                names |= declaration.names
                grown = True
        if not grown:
            return reach


def identifiers(text: str) -> frozenset[str] | None:
    """The identifiers a module's code is made of (None: it does not parse): names,
    attributes, imports, what it defines, and the words of a string that is an expression
    (a forward reference `"Box | None"`, `getattr(m, "to_list")`); not comments or prose."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    return frozenset(_words(tree, strings=True))


def _names_any(
    path: Path, text: str, names: list[str], words: dict[Path, frozenset[str] | None]
) -> bool:
    """Whether the code of `path` names one of `names` (a few are first searched for in
    its text: quicker than reading its code)."""
    if path not in words:
        if len(names) <= _SEARCHED and not any(name in text for name in names):
            return False
        words[path] = identifiers(text)
    held = words[path]
    return held is None or not held.isdisjoint(names)


def _split(node: ast.stmt) -> list[ast.stmt]:
    """`node`, or each name of `from m import a, b` as a statement of its own."""
    if not isinstance(node, ast.Import | ast.ImportFrom) or len(node.names) == 1:
        return [node]
    ones: list[ast.stmt] = []
    for alias in node.names:
        one = copy.copy(node)
        one.names = [alias]
        ones.append(one)
    return ones


def _bound(node: ast.stmt) -> frozenset[str]:
    """The module names a statement binds (a compound one: all its bodies'); "" when it
    binds none, or `*`'s (not written there)."""
    if isinstance(node, Function | ast.ClassDef):
        return frozenset({node.name})
    names: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
            names.add(inner.id)
        elif isinstance(inner, ast.alias):
            names.add("" if inner.name == "*" else inner.asname or inner.name.split(".")[0])
        elif isinstance(inner, Function | ast.ClassDef):
            names.add(inner.name)
    return frozenset(names or {""})


def _words(node: ast.AST, strings: bool = False) -> set[str]:
    """The names `node` is made of: names, attributes, imports, and the words of the strings
    in its annotations (a forward reference `"Box | None"`); with `strings`, of every string
    that is an expression and the names it defines, as `identifiers` reads a file."""
    found: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            found.add(inner.id)
        elif isinstance(inner, ast.Attribute):
            found.add(inner.attr)
        elif isinstance(inner, ast.alias):
            found.update(inner.name.split("."))
            if inner.asname:
                found.add(inner.asname)
        elif isinstance(inner, ast.ImportFrom) and inner.module:
            found.update(inner.module.split("."))
        elif strings:
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                if _expression(inner.value):
                    found.update(_WORD.findall(inner.value))
            elif isinstance(inner, Function | ast.ClassDef):
                found.add(inner.name)  # an override of a changed method
        else:
            for annotation in _annotations(inner):
                found |= _words(annotation, strings=True)
    return found


def _annotations(node: ast.AST) -> list[ast.expr]:
    """The annotations `node` holds itself, and what `cast("T", x)` and `bound="T"` name."""
    if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
        return [node.annotation]
    if isinstance(node, Function) and node.returns is not None:
        return [node.returns]
    if isinstance(node, ast.Call):
        bound = [k.value for k in node.keywords if k.arg == "bound"]
        called = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        return [*node.args[:1], *bound] if called == "cast" else bound
    return []


def _expression(text: str) -> bool:
    """Whether a string may name code: one word or a short expression (not prose)."""
    if not text or len(text) > 200:
        return False
    if not any(c.isspace() for c in text):
        return True
    try:
        ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return False
    return True
