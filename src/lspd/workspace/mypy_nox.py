"""The commands a project's `noxfile.py` runs, as a lint script's lines (`mypy_scripts`):
nox sessions run mypy as `session.run("mypy", "src", "tests")` (urllib3's lint session),
often with the paths in a module-level list (`session.run("mypy", *SOURCES)`). Read, never
run: the file's syntax tree, each `<x>.run(...)` call's words where every argument is a
string, a name bound to one (at the top, or before it in its function), or a starred name
bound to a list or tuple of them (`args = session.posargs or LOCATIONS`: LOCATIONS;
`*session.posargs` alone: none, as nox runs it without arguments). A path
built from the noxfile's own (`ROOT = Path(__file__).parent`, `PACKAGE = ROOT / "jsonschema"`:
jsonschema's typing session) is that path from the noxfile's folder, where nox runs; before,
its runs were not read at all, and mypy was said to check every file.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Iterator

NOXFILE = "noxfile.py"
_SAME = {"resolve", "absolute", "expanduser"}  # a path's methods that keep where it leads


def nox_commands(text: str) -> list[list[str]]:
    """The words of each `.run(...)` call of a noxfile's `text` whose arguments lspd can read
    (in the order they stand); none where it is not Python."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    top = _bound(tree.body, {})
    functions = [
        n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    commands = []
    for scope in [tree, *functions]:
        bound = top if scope is tree else _bound(scope.body, top)
        for node in _own_calls(scope):
            run = isinstance(node.func, ast.Attribute) and node.func.attr == "run"
            if run and (words := _words(node.args, bound)):
                commands.append((node.lineno, node.col_offset, words))
    return [words for *_, words in sorted(commands)]


def _own_calls(scope: ast.AST) -> Iterator[ast.Call]:
    """The calls in `scope`'s body, not those of the functions it defines (their own)."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _bound(statements: list[ast.stmt], outer: dict[str, list[str]]) -> dict[str, list[str]]:
    """`outer`'s names, and those `statements` bind to a string or a list or tuple of them
    (`args = session.posargs or LOCATIONS`: the default, nox's run without arguments)."""
    bound = dict(outer)
    for statement in statements:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        if isinstance(target, ast.Name) and (strings := _strings(value, bound)) is not None:
            bound[target.id] = strings
    return bound


def _strings(value: ast.expr, bound: dict[str, list[str]]) -> list[str] | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, ast.Name) and value.id != "__file__":
        return bound.get(value.id)
    if isinstance(value, ast.Attribute) and value.attr == "posargs":
        return []  # `*session.posargs`: nox's run without arguments (referencing's pyright)
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
        return _strings(value.values[-1], bound)
    if isinstance(value, (ast.List, ast.Tuple)):
        items = [_strings(item, bound) for item in value.elts]
        if all(item is not None and len(item) == 1 for item in items):
            return [item[0] for item in items if item is not None]
    path = _path(value, bound)
    return None if path is None else [path]


def _path(value: ast.expr, bound: dict[str, list[str]]) -> str | None:
    """The path `value` builds, from the noxfile's folder: `__file__`, `Path(...)`, its
    `.parent`, `/`, `str(...)`, `.resolve()`; None where it is another expression."""
    if isinstance(value, ast.Name) and value.id == "__file__":
        return NOXFILE
    if isinstance(value, ast.Attribute) and value.attr == "parent":
        inner = _one(value.value, bound)
        return None if inner is None else posixpath.normpath(posixpath.join(inner, ".."))
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div):
        left, right = _one(value.left, bound), _one(value.right, bound)
        if left is None or right is None:
            return None
        return posixpath.normpath(posixpath.join(left, right))
    if isinstance(value, ast.Call) and not value.keywords:
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in ("Path", "PurePath", "str", "fspath") and len(value.args) == 1:
            return _one(value.args[0], bound)
        if name in _SAME and isinstance(func, ast.Attribute) and not value.args:
            return _one(func.value, bound)
    return None


def _one(value: ast.expr, bound: dict[str, list[str]]) -> str | None:
    found = _strings(value, bound)
    return found[0] if found is not None and len(found) == 1 else None


def _words(args: list[ast.expr], bound: dict[str, list[str]]) -> list[str] | None:
    words: list[str] = []
    for arg in args:
        if isinstance(arg, ast.Starred):
            found = _strings(arg.value, bound)
        else:
            found = None if (one := _one(arg, bound)) is None else [one]
        if found is None:
            return None
        words += found
    return words
