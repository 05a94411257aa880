"""A function's signature changed so that the calls of it bind as before: what they return
has not changed, so a declaration made of such calls keeps its type.

A module-level function with every parameter and its return annotated, no decorators, no
`*args` or `**kwargs`, bound once in its module, whose parameters keep their annotations
(by name) and its return annotation, may change its parameters' kinds, defaults, names
and number (`to_list(x, default=None)` -> `to_list(x, *, default=None)`). Its type changed:
every file naming it is asked (`python_names`). A declaration made of it (an unannotated
`def f(): return to_list(x)`, `self.items = to_list(x)`, a default `f(y=to_list(1))`) keeps
its type when each use of the name in it is a call that binds the same arguments to the
same parameters in both signatures: the same annotated parameters, the same return
annotation, so the same return type (a TypeVar solved from the same types). Any other use
(the function passed as a value, `partial(to_list, 1)`, `*args` in the call, a string)
counts as changed, and is followed as `python_names` follows names.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from lspd.engine.declarations import Function


@dataclass(frozen=True)
class Params:
    """A signature's parameters, as calls bind them."""

    positional: tuple[str, ...]  # in order: the positional-only, then the others
    only_positional: int  # how many of `positional` are positional-only
    keyword: tuple[str, ...]  # keyword-only
    optional: frozenset[str]  # those with a default


Changed = tuple[Params, Params]  # a function's parameters before and after


def signature_change(was: ast.stmt, now: ast.stmt) -> Changed | None:
    """The parameters of a function changed as the module docstring says, before and after
    (None: another change)."""
    if not isinstance(was, Function) or type(was) is not type(now):
        return None
    assert isinstance(now, Function)
    if was.name != now.name or was.decorator_list or now.decorator_list:
        return None
    if was.type_comment or now.type_comment or was.returns is None or now.returns is None:
        return None
    if ast.dump(was.returns) != ast.dump(now.returns):
        return None
    if not _plain(was.args) or not _plain(now.args):
        return None  # a default that is not a literal, a `__x` positional-only parameter
    if _dumps(getattr(was, "type_params", [])) != _dumps(getattr(now, "type_params", [])):
        return None  # `def f[T: (int, str)]`
    if _dumps(was.body) != _dumps(now.body):
        return None  # what `declared` keeps of it: `global` assignments, a `yield`
    olds, news = _annotations(was.args), _annotations(now.args)
    if olds is None or news is None:
        return None
    kept = olds.keys() & news.keys()
    if any(olds[name] != news[name] for name in kept):
        return None
    if any(_default(was.args, name) != _default(now.args, name) for name in kept):
        return None  # `x: T = 1` made `x: T = "s"`: what `f()` returns
    # A parameter added or removed may take part in solving a TypeVar (`y: T = "s"`): its
    # annotation may name nothing another annotation or the return names.
    for side, own in ((olds, was.args), (news, now.args)):
        for name in side.keys() - kept:
            if not _names(_annotation(own, name)) <= _CONCRETE:
                return None  # `y: U = "s"`, U another name of the return's TypeVar
    return _params(was.args), _params(now.args)


# What an added or removed parameter's annotation may name: no TypeVar under any name.
_CONCRETE = {"int", "str", "float", "bool", "bytes", "complex", "object", "None"}
_CONCRETE |= {"list", "dict", "set", "tuple", "frozenset", "List", "Dict", "Set", "Tuple"}
_CONCRETE |= {"Any", "Optional", "Union", "Sequence", "Mapping", "Iterable", "typing"}


def _plain(args: ast.arguments) -> bool:
    """Whether every default is a literal (`f(x=g(1))` has the type `g` gives) and no
    parameter is positional-only by its name (`__x`: pyright's rule)."""
    for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
        try:
            ast.literal_eval(default)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False
    names = [a.arg for a in _args(args)]
    return not any(n.startswith("__") and not n.endswith("__") for n in names)


def _dumps(nodes: list[ast.AST] | list[ast.stmt]) -> list[str]:
    return [ast.dump(node) for node in nodes]


def _args(args: ast.arguments) -> list[ast.arg]:
    return [*args.posonlyargs, *args.args, *args.kwonlyargs]


def _annotation(args: ast.arguments, name: str) -> ast.expr | None:
    return next(a.annotation for a in _args(args) if a.arg == name)


def _names(node: ast.AST | None) -> set[str]:
    """The names and attributes an annotation is made of (strings' words too)."""
    if node is None:
        return set()
    found: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            found.add(inner.id)
        elif isinstance(inner, ast.Attribute):
            found.add(inner.attr)
        elif isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            found.update(inner.value.replace(".", " ").replace("[", " ").split())
    return found


def _default(args: ast.arguments, name: str) -> str | None:
    """A parameter's default, as text (None: it has none)."""
    positional = [*args.posonlyargs, *args.args]
    offset = len(positional) - len(args.defaults)
    for index, arg in enumerate(positional):
        if arg.arg == name:
            return ast.dump(args.defaults[index - offset]) if index >= offset else None
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if arg.arg == name:
            return None if default is None else ast.dump(default)
    return None


def _annotations(args: ast.arguments) -> dict[str, str] | None:
    """Each parameter's annotation (None: one missing, or `*args`, `**kwargs`)."""
    if args.vararg is not None or args.kwarg is not None:
        return None
    found = {}
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        if arg.annotation is None or arg.type_comment:
            return None
        found[arg.arg] = ast.dump(arg.annotation)
    return found


def _params(args: ast.arguments) -> Params:
    positional = [a.arg for a in [*args.posonlyargs, *args.args]]
    optional = set(positional[len(positional) - len(args.defaults) :]) if args.defaults else set()
    optional |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d}
    keyword = tuple(a.arg for a in args.kwonlyargs)
    return Params(tuple(positional), len(args.posonlyargs), keyword, frozenset(optional))


def calls_alike(node: ast.AST, changed: Mapping[str, Changed]) -> bool:
    """Whether every use in `node` of a name of `changed` is a call binding its arguments
    alike before and after (`binds_alike`); not in a string or a type comment."""
    calls = {id(n.func): n for n in ast.walk(node) if isinstance(n, ast.Call)}
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name | ast.Attribute):
            name = inner.id if isinstance(inner, ast.Name) else inner.attr
            if name not in changed:
                continue
            call = calls.get(id(inner))
            if call is None or not binds_alike(call, *changed[name]):
                return False
        elif isinstance(inner, ast.alias) and inner.name.split(".")[-1] in changed:
            return False  # imported again: another name for it
        elif isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            if any(name in inner.value for name in changed):
                return False  # a forward reference, `getattr(m, "name")`
        elif any(name in (getattr(inner, "type_comment", None) or "") for name in changed):
            return False
    return True


def binds_alike(call: ast.Call, old: Params, new: Params) -> bool:
    """Whether `call`'s arguments bind to the same parameters under both, without error."""
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    if any(k.arg is None for k in call.keywords):
        return False  # `**kwargs`
    keywords = [k.arg for k in call.keywords if k.arg is not None]
    before, after = _bound(len(call.args), keywords, old), _bound(len(call.args), keywords, new)
    return before is not None and before == after


def _bound(count: int, keywords: list[str], params: Params) -> list[str] | None:
    """The parameter each argument binds to, in order (None: the call fails to bind)."""
    if count > len(params.positional):
        return None
    bound = list(params.positional[:count])
    for keyword in keywords:
        named = params.positional[params.only_positional :] + params.keyword
        if keyword not in named or keyword in bound:
            return None
        bound.append(keyword)
    required = [p for p in (*params.positional, *params.keyword) if p not in params.optional]
    if any(p not in bound for p in required):
        return None
    return bound
