"""The modules a Python file makes mypy look for: its imports, as mypy's `build.py` reads them.

A file's import lines as they read where they account for every line naming `import`, else
and wherever one would add a module its parse (`ast`, which costs 20 times more): every
`import` and `from ... import` statement anywhere (`if TYPE_CHECKING:`, a function's body,
a `try:`), relative ones from the importer's package, a module's enclosing packages (their
`__init__.py`), `from pkg import mod`'s submodule. An import in a branch mypy finds
unreachable (`if sys.version_info < (3, 8):`, `always_false`) is none (`mypy_reachable`);
one after an `assert` or a `return` mypy reads as ending the reachable code is followed
still. Where mypy finds those modules, and which it follows into: `mypy_follow`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path

from lspd.workspace.files import stamp
from lspd.workspace.mypy_reachable import Facts, reachable

Statements = tuple[tuple[int, str, tuple[str, ...]], ...]  # (level, module, names taken)
# Per path: its text, its import lines as they read (None: some line naming `import` is
# none of them), its parse's imports (None: not parsed yet), kept while its text is the same.
_IMPORTS: dict[Path, tuple[str, Statements | None, tuple[Facts, Statements] | None]] = {}
KEPT_IMPORTS = 20_000  # files whose imports are kept (and `mypy_follow`'s mentions)
# What a walk read of a file's imports: its import lines, its parse's where it was parsed.
ImportsRead = tuple[Statements | None, tuple[Facts, Statements] | None]
Stamped = tuple[tuple[Path, tuple[int, int] | None], ...]  # files and their `files.stamp`


def imports_of(
    path: Path, module: str, texts: Mapping[Path, str | None], exact: bool, facts: Facts
) -> tuple[list[str], bool, ImportsRead]:
    """The modules the file `path` (module `module`) makes mypy look for: each import's
    module and its enclosing packages, a `from` import's module and each name of it as a
    submodule (those that are no module are not found); and whether they are its parse's.
    Without `exact` its import lines as they read where they account for every line naming
    `import` (a parse costs ~20 us a line: 2.4 s of mypy's own 115,000 lines): a line
    in a string, or in a branch mypy finds unreachable, reads as an import there, so the
    caller asks `exact` where one would add a module. And what was read of them: the
    text's import lines and its parse's imports where it was parsed (`unmoved`)."""
    if path in texts:
        text = texts[path]
    else:
        try:
            text = path.read_text("utf-8", "replace")
        except OSError:
            text = None
    if text is None:
        return [], True, (None, None)
    kept = _IMPORTS.get(path)
    if kept is None or kept[0] != text:
        if len(_IMPORTS) > KEPT_IMPORTS:
            _IMPORTS.clear()
        kept = _IMPORTS[path] = (text, _scanned(text), None)
    statements, parsed = kept[1], kept[2]
    # The lines read hold every import, an unreachable branch's too (`if sys.version_info`):
    # more modules, never fewer, so the caller parses only where one of them is new to it.
    if exact or statements is None:
        if parsed is None or parsed[0] != facts:
            parsed = (facts, _statements(text, facts))
            _IMPORTS[path] = (text, kept[1], parsed)
        statements, exact = parsed[1], True
    package = module if path.stem == "__init__" else module.rpartition(".")[0]
    found: list[str] = []
    for level, name, names in statements:
        if level:
            parts = package.split(".") if package else []
            if level - 1 > len(parts):
                continue
            base = ".".join(parts[: len(parts) - (level - 1)])
            name = f"{base}.{name}" if base and name else base or name
        if not name:
            continue
        found += _enclosing(name)
        found += [f"{name}.{n}" for n in names if n != "*"]
    ancestors = _enclosing(module)[:-1]  # a module's packages are loaded with it
    return list(dict.fromkeys([*ancestors, *found])), exact, (kept[1], parsed)


def _enclosing(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _statements(text: str, facts: Facts) -> Statements:
    """Each import of `text` mypy finds reachable (`mypy_reachable`): (its level, its
    module, the names a `from` import takes)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):  # mypy stops at it: what it would follow is unknown,
        return _scanned(text, True) or ()  # so its import lines (not checked, never fixed)
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for node in reachable(tree, facts):
        if isinstance(node, ast.Import):
            found += [(0, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = tuple(alias.name for alias in node.names)
            found.append((node.level, node.module or "", names))
    return tuple(found)


_IMPORT = re.compile(
    r"^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*(#.*)?$"
)
_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\s+(\(?)([\w\s,]*)(\)?)\s*(#.*)?$")
_NAMES = re.compile(r"^[\w\s,]*(\)?)\s*(#.*)?$")  # a line of a parenthesized `from` import
_WORD = re.compile(r"\bimport\b")


def _scanned(text: str, anyway: bool = False) -> Statements | None:
    """The imports of `text` read line by line; None where a line naming `import` is no
    import line as read here (a string's, a `;`, a continued line): then only a parse
    says (`anyway`: what the lines say all the same, of a text that does not parse)."""
    found: list[tuple[int, str, tuple[str, ...]]] = []
    lines = iter(text.splitlines())
    for line in lines:
        if imported := _IMPORT.match(line):
            modules = [n.split()[0] for n in imported.group(1).split(",") if n.strip()]
            found += [(0, name, ()) for name in modules]
        elif taken := _FROM.match(line):
            said = taken.group(4)
            if taken.group(3) and not taken.group(5):  # `(` on, to its `)`
                for more in lines:
                    if (names_line := _NAMES.match(more)) is None:
                        if not anyway:
                            return None
                        break
                    said += "," + more.split("#")[0].replace(")", "")
                    if names_line.group(1):
                        break
            names = tuple(n.split()[0] for n in said.split(",") if n.strip())
            found.append((len(taken.group(1)), taken.group(2), names))
        elif _WORD.search(line) and not anyway:
            return None
    return tuple(found)


def unmoved(read: Stamped, was: Mapping[Path, ImportsRead]) -> Stamped | None:
    """`read` (the files a walk read the imports of, stamped then) stamped now, where each
    edited since makes mypy look for what it did (`was`: what the walk read, by path): a
    body's or a comment's edit walks the same (poetry's leaf edit made its 374 files'
    reach again, 0.24 s of a 1.7 s check). None where one's imports may differ, or one
    without `was` changed (a configuration's)."""
    now = []
    for path, then in read:
        current = stamp(path)  # before its text is read: an edit after is seen next time
        if current != then and ((seen := was.get(path)) is None or not _same(path, seen)):
            return None
        now.append((path, current))
    return tuple(now)


def held_unmoved(
    held: Mapping[Path, str | None], read: Stamped, was: Mapping[Path, ImportsRead]
) -> bool:
    """Whether the texts `held` (a preview's, standing in for the disk's) make mypy look for
    what a walk of the disk read (`read`, `was`): each one a file the walk did not read,
    or read with imports the same; none gone (a module no longer found)."""
    walked = {path for path, _ in read}
    for path, text in held.items():
        if text is None:
            return False
        if path in walked and ((seen := was.get(path)) is None or not _same_text(text, seen)):
            return False
    return True


def _same(path: Path, was: ImportsRead) -> bool:
    """Whether the text of `path` on disk imports as `was` says (`_same_text`)."""
    try:
        return _same_text(path.read_text("utf-8", "replace"), was)
    except OSError:
        return False


def _same_text(text: str, was: ImportsRead) -> bool:
    """Whether `text` has the import lines of `was`, and its parse's imports where it was
    parsed (the walk may have taken them: a condition's edit can make an import
    unreachable)."""
    lines, parsed = was
    if _scanned(text) != lines:
        return False
    if parsed is not None:
        return _statements(text, parsed[0]) == parsed[1]
    return lines is not None  # never parsed where its lines alone were read
