"""Plain readings of Python text for `python_names`: the names a statement binds, a quick
look for names used as values, and where an imported name leads (a module of the package
that is not the one changed: `from ..cyextension import util` in SQLAlchemy's
`util/_has_cy.py` is not `sqlalchemy.util`).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from lspd.engine.declarations import Function


def bound(node: ast.stmt) -> frozenset[str]:
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


def maybe_value(text: str, names: Iterable[str]) -> bool:
    """Whether `text` may use one of `names` as a value or import it under another name:
    written not before a `.`, on a line that is not an import, or before `as` on one (a
    quick look before reading its code: SQLAlchemy's files import `util` all, and use it
    as `util.name`)."""
    pattern = r"\b(?:" + "|".join(re.escape(n) for n in sorted(names)) + r")\b"
    for found in re.finditer(pattern + r"(?![ \t]*\.)", text):
        start = text.rfind("\n", 0, found.start()) + 1
        line = text[start : text.find("\n", found.end()) % (len(text) + 1)].lstrip()
        if not line.startswith(("from ", "import ")) or ";" in line:
            return True  # `import m; use(m)`: the line is more than an import
        if "(" in line or line.rstrip().endswith("\\"):
            return True  # the import goes on: `from pkg import (m\n as n)`, `m \\`
        if re.match(r"(?:\s|\\|#[^\n]*)*as\b", text[found.end() :]):
            return True
    return False


def searchable(text: str) -> str:
    """`text` as Python reads its names (NFKC: `ｈelper` is `helper`), for a plain search."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def other_module(path: Path, text: str, name: str, modules: set[Path]) -> bool:
    """Whether `name` in `path` (its text `text`) is bound only by imports of a module that
    is none of `modules` (`from ..cyextension import util` in SQLAlchemy's `util/_has_cy.py`,
    `from sqlalchemy.sql import util as sql_util`: not `sqlalchemy.util`): a module file in
    the package (relative, or under the folder of a top package of `modules`), which the
    package's `__init__` does not name otherwise."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    found = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == name:
            return False  # `pkg.m`: not what the plain name is bound to
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) != name:
                    continue
                if not _a_module(_package(path, node, modules), alias.name, modules):
                    return False
                found = True
        elif isinstance(node, ast.Import):
            if any((a.asname or a.name.split(".")[0]) == name for a in node.names):
                return False
        elif _binds(node, name):
            return False
    return found


def _bound_in(text: str, name: str) -> bool:
    """Whether a module's text binds `name` (in doubt: it does)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            if any((a.asname or a.name.split(".")[0]) in (name, "*") for a in node.names):
                return True
        elif _binds(node, name) or (isinstance(node, ast.Constant) and node.value == name):
            return True  # `__getattr__` may give it: a string of it counts
    return False


def _binds(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, Function | ast.ClassDef):
        return node.name == name
    if isinstance(node, ast.arg):
        return node.arg == name
    if isinstance(node, ast.Global | ast.Nonlocal):
        return name in node.names
    if isinstance(node, ast.MatchAs | ast.MatchStar):
        return node.name == name
    if isinstance(node, ast.MatchMapping):
        return node.rest == name
    if isinstance(node, ast.ExceptHandler):
        return node.name == name
    return False


def _package(path: Path, node: ast.ImportFrom, modules: set[Path]) -> Path | None:
    """The folder of the package `node` imports from: relative to `path`, or an absolute
    name under the folder holding the top package of one of `modules` (None: elsewhere)."""
    parts = node.module.split(".") if node.module else []
    if node.level:
        package = path.parent
        for _ in range(node.level - 1):
            package = package.parent
        return package.joinpath(*parts)
    for module in modules:
        top = module.parent
        while (top.parent / "__init__.py").is_file():
            top = top.parent
        if parts and (top / "__init__.py").is_file() and top.name == parts[0]:
            return top.parent.joinpath(*parts)
    return None


def _a_module(package: Path | None, name: str, modules: set[Path]) -> bool:
    """Whether `from <package> import name` takes a module of the package that is none of
    `modules`."""
    if package is None or not package.is_dir():
        return False
    if any(package.with_name(package.name + s).exists() for s in (".py", ".pyi")):
        return False  # a module `pkg/sub.py` beside the folder `pkg/sub/` is what is imported
    for init in (package / "__init__.py", package / "__init__.pyi"):
        try:
            said = init.read_text(encoding="utf-8") if init.is_file() else ""
        except (OSError, UnicodeDecodeError):
            return False
        if _bound_in(said, name):
            return False  # the package (or its stub, which pyright reads) binds the name
    files = [package / f"{name}{suffix}" for suffix in (".py", ".pyi", ".pyx")]
    files += [package / name / "__init__.py", package / name / "__init__.pyi"]
    present = [f for f in files if f.is_file()]
    return bool(present) and not any(f in modules for f in present)


def aliases_of(
    path: Path, aliases: Iterable[tuple[str, str, str, int]], names: set[str], modules: set[Path]
) -> set[str]:
    """The other names `path`'s imports (`aliases`: `python_names.Code.aliases`) give a
    module named one of `names` (`import m as util`, `from pkg import m as other`), but
    those of a module file that is none of `modules` (`from sqlalchemy.cyextension import
    util as mod`)."""
    found = set()
    for last, alias, module, level in aliases:
        if last not in names or (level == 0 and not module):
            found.update([alias] if last in names else [])
            continue
        where = ast.ImportFrom(module=module or None, names=[], level=level)
        if not _a_module(_package(path, where, modules), last, modules):
            found.add(alias)
    return found
