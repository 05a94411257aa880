"""Which imports of a parsed file mypy reads as reachable (its `reachability.py`): an `if`
whose condition it decides skips the branch it finds unreachable, and the imports there
(`if sys.platform == "win32":` on Linux, `if sys.version_info < (3, 8):`, a name of
`always_false`, the `else:` of `if TYPE_CHECKING:`). What it decides: `TYPE_CHECKING`
and `MYPY` (true), the configuration's `always_true` and `always_false` names, the
comparisons of `sys.platform` (`==`, `!=`, `.startswith(...)`) and of `sys.version_info`
(with a tuple, or its first two fields with a number), and `not` of these. The version and
platform: the configuration's `python_version` and `platform`, else lspd's interpreter's
(mypy's default is its own interpreter's: the same where both run one Python)."""

from __future__ import annotations

import ast
import contextlib
import operator
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from lspd.workspace.mypy_config import MypyConfig

_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


@dataclass(frozen=True)
class Facts:
    """What mypy's reachability reads of the configuration."""

    version: tuple[int, ...]
    platform: str
    true: frozenset[str]
    false: frozenset[str]


def facts_of(config: MypyConfig) -> Facts:
    version = tuple(sys.version_info[:2])
    if config.python_version:
        with contextlib.suppress(ValueError):
            version = tuple(int(part) for part in config.python_version.split("."))
    true, false = config.always
    return Facts(version, config.platform or sys.platform, frozenset(true), frozenset(false))


def reachable(tree: ast.AST, facts: Facts) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of `tree` outside the branches mypy finds unreachable. An
    import is a statement, and no expression holds one (a lambda's body is an expression):
    only the statement lists are walked (every node: 3-10x the time, aiohttp's 157 files
    1.7 s)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            value = _value(node.test, facts)
            stack += node.body if value is not False else []  # True: the body alone
            stack += node.orelse if value is not True else []  # False: the else alone
        else:
            for field in _BODIES:
                stack += getattr(node, field, ())


# the fields of a node holding statements (or the handlers and cases that hold them)
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _value(test: ast.expr, facts: Facts) -> bool | None:
    """The condition's value as mypy infers it (None: it does not)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _value(test.operand, facts)
        return None if inner is None else not inner
    name = test.id if isinstance(test, ast.Name) else None
    if isinstance(test, ast.Attribute):
        name = test.attr
    if name in ("TYPE_CHECKING", "MYPY") or name in facts.true:
        return True
    if name in facts.false:
        return False
    if isinstance(test, ast.Call) and _is(test.func, "platform", "startswith") and test.args:
        prefix = test.args[0]
        if isinstance(prefix, ast.Constant) and isinstance(prefix.value, str):
            return facts.platform.startswith(prefix.value)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _COMPARE:
        compare = _COMPARE[type(test.ops[0])]
        left, right = test.left, test.comparators[0]
        named = right.value if isinstance(right, ast.Constant) else None
        if _is(left, "platform") and isinstance(named, str):
            return (
                compare(facts.platform, named) if type(test.ops[0]) in (ast.Eq, ast.NotEq) else None
            )
        if _is(left, "version_info") and isinstance(right, ast.Tuple):
            wanted = [e.value for e in right.elts if isinstance(e, ast.Constant)]
            if len(wanted) == len(right.elts) and all(isinstance(v, int) for v in wanted):
                return compare(facts.version[: len(wanted)], tuple(wanted))
        if isinstance(left, ast.Subscript) and _is(left.value, "version_info"):
            index = left.slice.value if isinstance(left.slice, ast.Constant) else None
            number = right.value if isinstance(right, ast.Constant) else None
            if index in (0, 1) and isinstance(index, int) and isinstance(number, int):
                return compare(facts.version[index], number)
    return None


def _is(node: ast.expr, *attributes: str) -> bool:
    """Whether `node` is `sys.<attributes...>`."""
    for attribute in reversed(attributes):
        if not isinstance(node, ast.Attribute) or node.attr != attribute:
            return False
        node = node.value
    return isinstance(node, ast.Name) and node.id == "sys"
