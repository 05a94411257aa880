"""What of a Python module the files importing it can see: its declarations.

An edit that leaves them as they were cannot change another file's diagnostics, so the
whole-workspace check asks the server about the edited file alone (`engine/python_affected.py`).
Kept: every statement outside function bodies (classes, imports, assignments, `__all__`,
decorators, signatures with their defaults; of a module-level `x: int = ...` its type),
and the whole body of a function without a return annotation (pyright infers its return
type from it) or one declaring globals. Of an annotated function's body only what
declares attributes (`self.x = ...`) is kept.
Comments, docstrings and positions are not part of it.
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
    for node in tree.body:  # `x: int = 3`: importers see `int` (not with Final, TypeAlias)
        if not isinstance(node, ast.AnnAssign) or node.value is None:
            continue
        if not _WHOLE.intersection(_names(node.annotation)):
            node.value = ast.Constant(...)
    result = _Declarations().visit(tree)
    assert isinstance(result, ast.Module)
    return result


_WHOLE = {"Final", "TypeAlias", "ClassVar"}  # the value makes the type


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
        if any(isinstance(n, ast.Global | ast.Nonlocal) for n in inside):
            return self.generic_visit(node)
        node.body = [
            n
            for n in inside
            if isinstance(n, ast.Assign | ast.AnnAssign | ast.AugAssign) and _declares(n)
        ] or [ast.Pass()]
        return node


def _declares(node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> bool:
    """Whether the assignment may declare an attribute (`self.x = ...`, `cls.y: int = ...`)."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return any(isinstance(n, ast.Attribute) for target in targets for n in ast.walk(target))
