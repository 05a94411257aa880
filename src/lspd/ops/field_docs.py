"""The strings under a result model's fields, their descriptions (what pydantic's
`use_attribute_docstrings` reads), from one parse of each module's source.

pydantic 2 on Python < 3.13 finds each class's source by walking the frames of its creation
and asking `inspect.getmodule` of each: the daemon's first answers imported in 0.53 s of
CPU with it, 0.43 s without (medians, load 7-9), at every start before its first answer.
Here a module is parsed once and each class read from that, as pydantic reads it: a string
statement right after an annotated assignment to a name is that name's description,
cleaned (`inspect.cleandoc`); nested classes and functions are not the class's.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys


def field_docs(cls: type) -> dict[str, str]:
    """The strings under `cls`'s own fields, by field name. A model must be a top-level
    class of its module (a nested one raises: its descriptions would be lost)."""
    classes = _classes(cls.__module__)
    if cls.__qualname__ not in classes:
        raise TypeError(f"{cls.__qualname__}: a result model must be a top-level class")
    return classes[cls.__qualname__]


@functools.cache
def _classes(module: str) -> dict[str, dict[str, str]]:
    """Each top-level class of `module` with its fields' strings."""
    tree = ast.parse(inspect.getsource(sys.modules[module]))
    return {node.name: _strings(node) for node in tree.body if isinstance(node, ast.ClassDef)}


def _strings(node: ast.ClassDef) -> dict[str, str]:
    found: dict[str, str] = {}
    target: str | None = None  # the name annotated by the statement just before
    for statement in node.body:
        if (
            target is not None
            and isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):
            found[target] = inspect.cleandoc(statement.value.value)
        target = None
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            target = statement.target.id
    return found
