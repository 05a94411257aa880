"""Which Python files can see a module: those whose import statements name it.

The whole-workspace check asks a module's importers again only when its declarations
changed, or asks the module alone when no other file names it (`engine/python_affected.py`). "Names
it" was a word search: a module `json.py` looked imported by every file holding the word
json. Here it is what the import statements say, read with a pattern (no parse of every
file): `import a.b.c`, `from a.b import c, d`, relative `from ..b import c` (resolved from the
importing file's folder), and `importlib.import_module("a.b")` / `__import__("a.b")` with a
literal name.

An import touches every module it names and every package above it (`import a.b.c` runs
`a` and `a.b`; `from a.b import c` may take the submodule `a.b.c`; `*` anything in `a.b`).
A name touches a module when it is the end of the module's path from the root and at least
as long as the module's name from its top package (the folders with an `__init__.py`
above it): `import json` is not `sqlalchemy.dialects.sqlite.json`; in a folder without
`__init__.py` (a namespace package, scripts side by side) the shorter name is enough, so
in doubt a file counts as an importer: never fewer files than can see the module.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from lspd.workspace.python_links import aliases, linked

Name = tuple[str, ...]  # a dotted name's parts

# A statement starts a line, or follows `;` or a one-line block's `:` (`if X: import m`).
# `from.m import f`, `from .import m`; a comment inside the parentheses may hold a `)`.
_FROM = re.compile(
    r"(?:^|[;:])[ \t]*from(?:[ \t]+|(?=\.))(\.*)[ \t]*([\w.]*?)[ \t]*(?<=[.\s])import[ \t]*"
    r"(\((?:[^)#]|#[^\n]*)*\)|(?:[^\n\\;]|\\\n)*)",
    re.MULTILINE,
)
_IMPORT = re.compile(r"(?:^|[;:])[ \t]*import[ \t]+((?:[^\n\\;]|\\\n)*)", re.MULTILINE)
_DYNAMIC = re.compile(r"\b(?:import_module|__import__)\(\s*[rbu]?[\"']([\w.]+)[\"']")
_COMMENT = re.compile(r"#[^\n]*")


def module_parts(root: Path, path: Path) -> tuple[Name, int]:
    """The module's path from the root as a name (`lib/a/b.py` -> lib.a.b; a package is its
    folder), and the length of its name from its top package (`a.b` in `lib`: 2)."""
    relative = path.relative_to(root).with_suffix("")
    package = relative.name == "__init__"
    parts = relative.parts[:-1] if package else relative.parts
    length, folder = (0 if package else 1), path.parent
    while (folder / "__init__.py").is_file() and (folder == root or root in folder.parents):
        length += 1
        folder = folder.parent
    return parts, max(1, min(length, len(parts)))


def touched(root: Path, path: Path, text: str) -> set[Name]:
    """Every name the imports of `path` (text `text`) touch: relative ones resolved to their
    path from the root, absolute ones as written (see the module's docstring)."""
    names: set[Name] = set()
    for match in _FROM.finditer(text):
        dots, base, listed = match[1], match[2], _COMMENT.sub("", match[3])
        listed = listed.replace("\\\n", " ").strip().strip("()")
        imported = [item.split()[0] for item in listed.split(",") if item.split()]
        head: Name = tuple(p for p in base.split(".") if p)
        if dots:
            folder = path.parent
            for _ in range(len(dots) - 1):
                folder = folder.parent
            if folder != root and root not in folder.parents:
                continue
            head = folder.relative_to(root).parts + head
        names |= _prefixes(head)
        names |= {(*head, n) for n in imported if n and n != "*"}
        if "*" in imported:
            names.add((*head, "*"))
    for match in _IMPORT.finditer(text):
        for item in _COMMENT.sub("", match[1]).replace("\\\n", " ").split(","):
            if item.split():
                names |= _prefixes(tuple(item.split()[0].split(".")))
    if "import_module" in text or "__import__" in text:  # the pattern alone took seconds
        for match in _DYNAMIC.finditer(text):
            names |= _prefixes(tuple(match[1].split(".")))
    return names


def _prefixes(name: Name) -> set[Name]:
    return {name[:i] for i in range(1, len(name) + 1)}


def imports(names: Iterable[Name], module: Name, shortest: int) -> bool:
    """Whether one of `names` (an importer's `touched`) is `module` (see `module_parts`)."""
    for name in names:
        if name[-1:] == ("*",):  # `from a.b import *`: a submodule of a.b, maybe
            if len(name) >= shortest and _ends(module[:-1], name[:-1]):
                return True
        elif len(name) >= shortest and _ends(module, name):
            return True
    return False


def _ends(parts: Name, name: Name) -> bool:
    return len(name) <= len(parts) and parts[len(parts) - len(name) :] == name


def importers(
    root: Path, changed: Iterable[Path], names: Mapping[Path, Iterable[Name]]
) -> set[Path]:
    """The files of `names` (each file's `touched`) importing one of `changed`, and,
    transitively, the files importing those: what a file declares may be made of what it
    imports (an inferred type, a re-export, a star import), so whatever sees the importer
    may see the change. As pyright marks a changed file's importers, transitively. A file
    under a folder a symlink inside `root` leads to is imported by its names through the
    link too (`python_links`: `lib -> real`, `import lib.helper` imports real/helper.py)."""
    by_end: dict[str, list[tuple[Path, Name]]] = {}  # by the part a module must end with
    for path, touched_names in names.items():
        for name in touched_names:
            by_end.setdefault(
                name[-2] if name[-1] == "*" and len(name) > 1 else name[-1], []
            ).append((path, name))
    found: set[Path] = set()
    links = linked(root)  # a file under a folder a symlink leads to: its names there too
    todo = list(changed)
    while todo:
        at = todo.pop()
        for module, shortest in [module_parts(root, p) for p in [at, *aliases(root, at, links)]]:
            if not module:  # the root's own __init__.py: no name to tell its importers by
                return set(names)
            for end in set(module[-2:]):
                for path, name in by_end.get(end, ()):
                    if path not in found and imports([name], module, shortest):
                        found.add(path)
                        todo.append(path)
    return found
