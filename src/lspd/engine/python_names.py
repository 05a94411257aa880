"""Which importers a Python edit can reach when all it does is add module names: the
files naming them.

pyright checks every importer of a module whose declarations changed again, transitively:
a name added to `dialects/sqlite/json.py`, which no file names, asked its importers and
theirs. A file's diagnostics can change with a name added only where it names it (an
error "is not defined" or "not a known attribute" gone, a star import's name), or,
transitively, names a declaration made of it (`def f(): return extra(x)` infers its type
from it; `Alias = Extra`, `class Sub(Extra)`, `T = TypeVar("T", "Extra")`). So the added
names are followed through the declarations (`engine/declarations.declared`: what an
importer sees) of the files naming them, to a fixed point, and the files asked are those
of the importers (`python_imports.importers`, a superset) whose code names one of them
(`Code`: as a name, an attribute, an import, in a type comment or a string that is not a
docstring).

Anything else asks every importer as before (`reached` is None): a statement changed,
moved or removed (two reviews found 20 ways a change of a name reaches a file that does not
write it: a module fitted to a protocol, a star import's order, `global`, a match pattern,
an import cycle, ...); a name bound again; an import added anywhere (a cycle); `__all__`,
module `__getattr__`, a star import, a statement binding no name; a class member made of an
added name (a member `of` or `order_by` is written for other classes' members everywhere,
and a protocol is fitted by members nobody writes); a module whose names grew used as a
value under any name it is imported as (`impl: HasHelper = m`); more than `_FOLLOWED`
files to follow; a file that does not parse; a file named that reaches an import cycle a
file not named reaches (`engine/python_cycles`: basedpyright's answers there depend on the
order it checks the files in, and the files not named would have been checked first).
"""

from __future__ import annotations

import ast
import copy
import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.declarations import Function, declared
from lspd.engine.python_cycles import Reach, shared

_WORD = re.compile(r"[^\W\d]\w*")
_FOLLOWED = 40  # files followed by name, at most (SQLAlchemy: 0.1-0.2 s each to read)
_SEARCHED = 32  # up to this many names, a file's text is searched before its code is read
_IDENTIFIER_PART = re.compile(r"\w")
_STAR = re.compile(r"\bimport[ \t(]*\*")  # `from m import *`: what m gains, it gains
_UNPLACED = {"", "__all__", "__getattr__"}  # names whose change no use can be told by


@dataclass(frozen=True)
class Declaration:
    """One top-level statement of a module, as its importers see it."""

    names: frozenset[str]  # the module names it binds ("": none that can be told)
    shape: str  # the statement, without positions (a class's: without its members)
    words: frozenset[str]  # the names it is made of (names, attributes, imports)
    members: str = ""  # a class's members, without positions
    inner: frozenset[str] = frozenset()  # the names a class's members are made of
    imports: bool = False  # an import anywhere in it (it may close an import cycle)


@dataclass(frozen=True)
class Code:
    """What a file's code names."""

    words: frozenset[str]  # every identifier (`Declaration.words`, of the whole file)
    values: frozenset[str]  # names and attributes used as values (`x = m`, `f(pkg.m)`)
    aliases: frozenset[tuple[str, str]]  # (what an import names last, the name it binds)


def declarations(text: str) -> list[Declaration] | None:
    """The module's top-level declarations in order (None: it does not parse)."""
    tree = declared(text)
    if tree is None:
        return None
    found: list[Declaration] = []
    for node in tree.body:
        for one in _split(node):
            names = _bound(one)
            imports = any(isinstance(n, ast.Import | ast.ImportFrom) for n in ast.walk(one))
            if isinstance(one, ast.ClassDef):
                members, one.body = one.body, []
                module = ast.Module(body=members, type_ignores=[])
                shape, words = ast.dump(one), frozenset(_words(one))
                found.append(
                    Declaration(names, shape, words, ast.dump(module), frozenset(_words(module)))
                )
            else:
                words = frozenset(_words(one))
                found.append(Declaration(names, ast.dump(one), words, imports=imports))
    return found


def changed_names(old: str | None, new: str | None) -> set[str] | None:
    """The module names the new text of a module adds to the old, when adding them is all
    it does: statements inserted, none changed, moved or removed, none binding a name the
    module had (None otherwise, or a text missing or not parsed)."""
    before = declarations(old) if old is not None else None
    after = declarations(new) if new is not None else None
    if before is None or after is None:
        return None
    shapes = [[d.shape + d.members for d in side] for side in (before, after)]
    matcher = difflib.SequenceMatcher(None, shapes[0], shapes[1], autojunk=False)
    had = {name for declaration in before for name in declaration.names}
    names: set[str] = set()
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag != "insert":
            return None  # a statement changed, moved or removed
        for declaration in after[j1:j2]:
            if declaration.names & (_UNPLACED | had) or declaration.imports:
                return None  # `__all__`, `__getattr__`, a name rebound, an import (a cycle)
            names |= declaration.names
    return names


@dataclass
class Read:
    """What was read of the files' texts, kept between checks for the files not changed."""

    code: dict[Path, Code | None] = field(default_factory=dict)  # `code_of`
    made: dict[Path, list[Declaration] | None] = field(default_factory=dict)  # `declarations`

    def without(self, changed: Iterable[Path]) -> Read:
        """What was read of the files other than `changed`."""
        gone = set(changed)
        return Read(
            {p: c for p, c in self.code.items() if p not in gone},
            {p: d for p, d in self.made.items() if p not in gone},
        )

    def keep(self, other: Read, changed: Iterable[Path]) -> None:
        """Keep what `other` read of the files other than `changed` (their texts here)."""
        gone = set(changed)
        for path, code in other.code.items():
            if path not in gone:
                self.code.setdefault(path, code)
        for path, made in other.made.items():
            if path not in gone:
                self.made.setdefault(path, made)


def reached(
    changed: Mapping[Path, tuple[str | None, str | None]],
    importers: Iterable[Path],
    text_of: Callable[[Path], str | None],
    read: Read,
    cycles: Callable[[], Reach],
) -> set[Path] | None:
    """Of `importers` (the changed modules' importers, transitively), the files whose code
    names something the changes reach (`changed`: each file's text before and after); None
    when a change cannot be told by name (then all of them can be reached), or when a file
    named and one not named reach the same import cycle (`cycles`: what each file reaches,
    made when needed; see `engine/python_cycles`). `read`: what was read of the texts
    `text_of` gives, added to (the changed files' are not kept)."""
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
    declaring = set(changed)  # the modules whose names changed, the fixed point's too
    looked: set[str] = set()  # the names every file was looked at for
    while True:
        unlooked = [n for n in names if n not in looked]
        looked.update(unlooked)
        for path, text in texts.items():
            held = fresh if path in changed else read
            if path not in reach and (text is None or _names_any(path, text, unlooked, held)):
                reach.add(path)
                followed.add(path)
                if len(followed) > _FOLLOWED:
                    return None  # reading them costs more than asking every importer saves
        grown = False
        for path in followed:
            made = (fresh if path in changed else read).made
            if path not in made:
                text = changed[path][1] if path in changed else texts[path]
                made[path] = declarations(text) if text is not None else None
            found = made[path]
            if found is None:
                return None  # unreadable, or it does not parse: what it declares is unknown
            for declaration in found:
                if not names.isdisjoint(declaration.inner):
                    return None  # a class's member is made of a changed name
                if names.isdisjoint(declaration.words) or declaration.names <= names:
                    continue
                if declaration.names & _UNPLACED or declaration.imports:
                    return None
                names |= declaration.names
                declaring.add(path)
                grown = True
        if not grown:  # a module used as a value may have gained a name through any of them
            stars = {p for p, text in texts.items() if text is None or _STAR.search(text)}
            if _used_as_values(declaring | reach | stars, texts, read):
                return None
            return None if _met_first(reach, set(changed), set(texts), cycles) else reach


def _met_first(
    reach: set[Path], changed: set[Path], importers: set[Path], cycles: Callable[[], Reach]
) -> bool:
    """Whether an importer not asked reaches an import cycle a file asked reaches (the
    changed files alone asked: no), which basedpyright would have met from it first."""
    asked = reach | changed
    return bool(reach - changed) and shared(cycles(), asked, importers - asked)


def code_of(text: str) -> Code | None:
    """What a module's code names (None: it does not parse): see `Code`; not comments or
    prose."""
    try:
        tree = ast.parse(text, type_comments=True)
    except (SyntaxError, ValueError):
        return None
    words, values, aliases = _read(tree)
    return Code(frozenset(words), frozenset(values), frozenset(aliases))


def _used_as_values(modules: Iterable[Path], texts: Mapping[Path, str | None], read: Read) -> bool:
    """Whether one of `modules` may be used as a value by a file of `texts` (`impl:
    HasHelper = m`, `f(pkg.m)`: its names then are used unwritten): the names it is imported
    as (`m`, `import m as util`, `from f1 import util`, to a fixed point) where a value
    stands, not before `.name`. Each file writing one of them is read."""
    names = {p.parent.name if p.stem == "__init__" else p.stem for p in modules}
    looked: set[str] = set()
    while unlooked := names - looked:
        looked |= unlooked
        for path, text in texts.items():
            if text is None:
                return True
            if path not in read.code:
                searched = _searchable(text)
                if not any(n in searched for n in unlooked) or not _maybe_value(searched, unlooked):
                    continue
                read.code[path] = code_of(text)
            code = read.code[path]
            if code is None or not code.values.isdisjoint(names):
                return True
            names |= {alias for last, alias in code.aliases if last in names}
    return False


def _maybe_value(searched: str, names: Iterable[str]) -> bool:
    """Whether one of `names` stands in `searched` where a value or an import's name may:
    a whole word not followed by `.` (the base of an attribute) nor by `import` (a
    `from ... import` statement's module). A file without one cannot use them as values
    or bind them anew, so its code need not be read. A name added to SQLAlchemy's
    `dialects/sqlite/json.py`: 5 of its 20 importers hold `json`, 4 only so (`json.loads`,
    `from .json import JSON`); the first proof read 5 files' code (0.4-0.8 s), now 1 (0.2)."""
    alternatives = "|".join(sorted(map(re.escape, names)))
    # The word's start looked at apart: a pattern opening with a look-behind is tried at
    # every position (a hundred times slower than one opening with the names).
    for found in re.finditer(rf"(?:{alternatives})(?!\w)(?!\s*\.)(?!\s+import\b)", searched):
        if found.start() == 0 or not _IDENTIFIER_PART.match(searched, found.start() - 1):
            return True
    return False


def _searchable(text: str) -> str:
    """`text` as Python reads its names (NFKC: `ｈelper` is `helper`), for a plain search."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def _names_any(path: Path, text: str, names: list[str], read: Read) -> bool:
    """Whether the code of `path` names one of `names` (a few are first searched for in
    its text: quicker than reading its code; not a text Python reads otherwise)."""
    if path not in read.code:
        searched = _searchable(text) if len(names) <= _SEARCHED else ""
        if searched and not any(n in searched for n in names):
            return False
        read.code[path] = code_of(text)
    code = read.code[path]
    return code is None or not code.words.isdisjoint(names)


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
    """The module names a statement binds (a compound one: all its bodies'; a function or
    class: its name and the globals it assigns); "" when it binds none, or `*`'s (not
    written there)."""
    names: set[str] = set()
    if isinstance(node, Function | ast.ClassDef):
        names.add(node.name)
    for inner in ast.walk(node):
        if isinstance(inner, ast.ImportFrom) and inner.level and inner.module:
            names.add(inner.module.split(".")[0])  # in a package, `from .sub import x`: `sub`
        if isinstance(inner, ast.Global):
            names.update(inner.names)
        elif isinstance(node, Function | ast.ClassDef):
            continue  # inside: its own scope
        elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
            names.add(inner.id)
        elif isinstance(inner, ast.alias):
            names.add("" if inner.name == "*" else inner.asname or inner.name.split(".")[0])
        elif isinstance(inner, Function | ast.ClassDef):
            names.add(inner.name)
        elif isinstance(inner, ast.MatchAs | ast.MatchStar | ast.MatchMapping):
            bound = inner.rest if isinstance(inner, ast.MatchMapping) else inner.name
            names.update([bound] if bound else [])  # `case int() as value`, `*rest`, `**rest`
    return frozenset(names or {""})


def _words(node: ast.AST) -> set[str]:
    """The names `node` is made of (`_read`)."""
    return _read(node)[0]


def _read(node: ast.AST) -> tuple[set[str], set[str], set[tuple[str, str]]]:
    """In one walk of `node` (a pure-Python walk is most of the time spent here): the names
    it is made of (names, attributes, imports, what it defines, the words of its type
    comments and of its strings that may be code: a forward reference `"Box | None"`,
    `TypeVar("T", "Box")`, `getattr(m, "helper")`; a long one whole), those used as values
    (`Code.values`), and the other names imports bind (`Code.aliases`)."""
    words: set[str] = set()
    bases: set[int] = set()
    loads: list[ast.Name | ast.Attribute] = []
    aliases: set[tuple[str, str]] = set()
    prose: set[int] = set()
    for inner in ast.walk(node):
        kind = type(inner)
        if kind is ast.Name:
            assert isinstance(inner, ast.Name)
            words.add(inner.id)
            if type(inner.ctx) is ast.Load:
                loads.append(inner)
        elif kind is ast.Attribute:
            assert isinstance(inner, ast.Attribute)
            words.add(inner.attr)
            bases.add(id(inner.value))
            if type(inner.ctx) is ast.Load:
                loads.append(inner)
        elif kind is ast.Constant and id(inner) not in prose:
            value = getattr(inner, "value", None)
            if type(value) is str:
                words.update(_WORD.findall(value))
        elif isinstance(inner, ast.Expr):
            prose.add(id(inner.value))  # a docstring, or a string standing alone
        elif kind is ast.alias:
            assert isinstance(inner, ast.alias)
            words.update(inner.name.split("."))
            if inner.asname:
                words.add(inner.asname)
                aliases.add((inner.name.split(".")[-1], inner.asname))
        elif kind is ast.ImportFrom:
            assert isinstance(inner, ast.ImportFrom)
            words.update(inner.module.split(".") if inner.module else ())
        if isinstance(inner, Function | ast.ClassDef):
            words.add(inner.name)  # an override of a changed method
        if kind in _COMMENTED and (comment := getattr(inner, "type_comment", None)):
            words.update(_WORD.findall(comment))
    values = {n.id if isinstance(n, ast.Name) else n.attr for n in loads if id(n) not in bases}
    return words, values, aliases


_COMMENTED = {ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign, ast.For, ast.AsyncFor}
_COMMENTED |= {ast.With, ast.AsyncWith, ast.arg}
