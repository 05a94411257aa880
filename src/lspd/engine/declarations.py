"""What of a Python module the files importing it can see: its declarations.

An edit that leaves them as they were cannot change another file's diagnostics, so the
whole-workspace check asks the server about the edited file alone (`engine/python_affected.py`).
Kept: every statement outside function bodies (classes, imports, assignments, `__all__`,
decorators, signatures with their defaults; of a module-level `x: int = ...` its type,
unless the value makes it: `Final`, `TypeAlias`, `ClassVar` however written, a dunder such
as an annotated `__all__`, a value binding a name with `:=`), and the whole body of a
function without a return annotation (pyright infers its return type from it), one declaring
globals, or one setting an attribute (`value = 'one'; self.x = value`: the attribute's type
is made of the body's names). Of another annotated function's body only its imports are
kept (one may close an import cycle). Comments, docstrings and positions are not part of it.
"""

from __future__ import annotations

import ast

Function = ast.FunctionDef | ast.AsyncFunctionDef


def signature(text: str) -> str | None:
    """The module's declarations as text (None when it does not parse: then anything goes)."""
    tree = declared(text)
    return None if tree is None else ast.dump(tree)


def declared(text: str) -> ast.Module | None:
    """The module's declarations as a tree: `signature`'s, before it is made text."""
    try:
        tree = ast.parse(text, type_comments=True)
    except (SyntaxError, ValueError):
        return None
    tree.type_ignores = []
    whole = _WHOLE | {  # `from typing import Final as Const`
        a.asname for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
        if a.name in _WHOLE and a.asname
    }  # fmt: skip
    for node in tree.body:  # `x: int = 3`: importers see `int` (not with Final, TypeAlias)
        if isinstance(node, ast.AnnAssign) and node.value is not None and _typed(node, whole):
            node.value = ast.Constant(...)
    result = _Declarations().visit(tree)
    assert isinstance(result, ast.Module)
    return result


_WHOLE = {"Final", "TypeAlias", "ClassVar"}  # the value makes the type


def _typed(node: ast.AnnAssign, whole: set[str]) -> bool:
    """Whether an annotated assignment's type is its annotation alone, its value unseen."""
    if isinstance(node.target, ast.Name) and node.target.id[:2] == node.target.id[-2:] == "__":
        return False  # `__all__: list[str] = [...]`: what `import *` takes
    if any(
        isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(node.annotation)
    ):
        return False  # `"Final"`
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
        return False  # `x: object = (y := 1)` binds `y`
    return not whole.intersection(_names(node.annotation))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


class _Declarations(ast.NodeTransformer):
    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return self._function(node)

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None  # a docstring
        return self.generic_visit(node)

    def _function(self, node: Function) -> ast.AST:
        if node.returns is None and node.type_comment is None:
            return self.generic_visit(node)  # its return type comes from its body
        inside = list(ast.walk(ast.Module(body=node.body, type_ignores=[])))
        if any(isinstance(n, ast.Global | ast.Nonlocal) or _sets_attribute(n) for n in inside):
            return self.generic_visit(node)
        kept: list[ast.stmt] = [n for n in inside if isinstance(n, ast.Import | ast.ImportFrom)]
        if _unimplemented(node.body):  # `...`: a protocol's or an abstract method's stub
            kept.append(ast.Expr(ast.Constant(...)))
        if any(isinstance(n, ast.Yield | ast.YieldFrom) for n in _own_scope(node)):
            kept.append(ast.Expr(ast.Yield()))  # a generator: `async def` with it iterates
        node.body = kept or [ast.Pass()]
        return node


def _unimplemented(body: list[ast.stmt]) -> bool:
    """Whether pyright takes a body for a stub (a protocol class or an abstract method's is
    then not implemented): `...`, a docstring alone, or `raise NotImplementedError`."""
    rest = body[1:] if body and _docstring(body[0]) else body
    if not rest:
        return True
    if len(rest) != 1:
        return False
    only = rest[0]
    if isinstance(only, ast.Expr) and isinstance(only.value, ast.Constant):
        return only.value.value is ...
    if isinstance(only, ast.Raise) and only.exc is not None:
        raised = only.exc.func if isinstance(only.exc, ast.Call) else only.exc
        return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"
    return False


def _docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _own_scope(node: Function) -> list[ast.AST]:
    """The nodes of a function's body outside the functions, lambdas and classes in it."""
    found: list[ast.AST] = []
    todo: list[ast.AST] = list(node.body)
    while todo:
        inner = todo.pop()
        found.append(inner)
        if not isinstance(inner, Function | ast.Lambda | ast.ClassDef):
            todo.extend(ast.iter_child_nodes(inner))
    return found


def _sets_attribute(node: ast.AST) -> bool:
    """Whether `node` sets an attribute (`self.x = ...`, `for self.i in ...`, `with ... as
    self.f`)."""
    return isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
