"""The commands a project's `noxfile.py` runs, as a lint script's lines (`mypy_scripts`):
nox sessions run mypy as `session.run("mypy", "src", "tests")` (urllib3's lint session),
often with the paths in a module-level list (`session.run("mypy", *SOURCES)`). Read, never
run: the file's syntax tree, each `<x>.run(...)` call's words where every argument is a
string, a name bound at the top to one, or a starred name bound to a list or tuple of them.
"""

from __future__ import annotations

import ast

NOXFILE = "noxfile.py"


def nox_commands(text: str) -> list[list[str]]:
    """The words of each `.run(...)` call of a noxfile's `text` whose arguments lspd can read
    (in the order they stand); none where it is not Python."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    bound = _bound(tree)
    commands = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "run" or not node.args:
            continue
        words = _words(node.args, bound)
        if words is not None:
            commands.append((node.lineno, node.col_offset, words))
    return [words for *_, words in sorted(commands)]


def _bound(tree: ast.Module) -> dict[str, list[str]]:
    """The module's top-level names bound to a string or a list or tuple of strings."""
    bound: dict[str, list[str]] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        if isinstance(target, ast.Name) and (strings := _strings(value)) is not None:
            bound[target.id] = strings
    return bound


def _strings(value: ast.expr) -> list[str] | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, (ast.List, ast.Tuple)):
        items = [_strings(item) for item in value.elts]
        if all(item is not None and len(item) == 1 for item in items):
            return [item[0] for item in items if item is not None]
    return None


def _words(args: list[ast.expr], bound: dict[str, list[str]]) -> list[str] | None:
    words: list[str] = []
    for arg in args:
        if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name):
            found = bound.get(arg.value.id)
        elif isinstance(arg, ast.Name):
            found = bound.get(arg.id)
            found = found if found is not None and len(found) == 1 else None
        else:
            found = _strings(arg) if isinstance(arg, ast.Constant) else None
        if found is None:
            return None
        words += found
    return words
