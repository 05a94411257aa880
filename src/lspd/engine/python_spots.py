"""Where in a Python text stand the names whose types `python_types` asks about: a
function's name and the attributes a method sets on its first parameter, an assignment's
names, a name used as a value. Positions are the AST's (UTF-8 bytes) made code points;
what this cannot place raises `Unplaced` (then every importer is asked).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.declarations import Function
from lspd.lsp.text import split_lines


class Unplaced(Exception):
    """A change this cannot place: every importer is asked."""


@dataclass(frozen=True)
class Spot:
    """A name whose type is asked: in `path`, 0-based line and code-point column."""

    path: Path
    line: int
    column: int
    text: str  # the line (the server counts columns in its encoding)


def value_spots(path: Path, text: str, names: frozenset[str]) -> list[Spot]:
    """Where `text` uses one of `names` as a value (`python_names.Code.values`)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        raise Unplaced from None
    lines = split_lines(text)
    bases = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    spots = []
    for node in ast.walk(tree):
        if id(node) in bases or not isinstance(getattr(node, "ctx", None), ast.Load):
            continue
        if isinstance(node, ast.Name) and node.id in names:
            line = lines[node.lineno - 1]
            spots.append(Spot(path, node.lineno - 1, _column(line, node.col_offset), line))
        elif isinstance(node, ast.Attribute) and node.attr in names:
            spots.append(attribute(path, lines, node))
    if not spots:
        raise Unplaced  # named where this does not look (a type comment, a string)
    return spots


def bound(node: ast.stmt) -> set[str]:
    if isinstance(node, Function):
        return {node.name}
    return {n.id for n in _targets(node)}


def _targets(node: ast.stmt) -> list[ast.Name]:
    """The names an assignment binds, in order; a statement of another kind: `Unplaced`."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        targets = [node.target]
    else:
        raise Unplaced  # a block, a loop, ...: what it binds is not one thing's type
    found: list[ast.Name] = []
    for target in targets:
        for inner in ast.walk(target):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                found.append(inner)
            elif isinstance(inner, ast.Attribute | ast.Subscript):
                raise Unplaced  # `m.x = ...` at module level
    return found


_DEF = re.compile(r"(?:async[ \t]+)?def[ \t]+(\w+)")


def spots_of(path: Path, node: ast.stmt, text: str) -> tuple[Spot, ...]:
    """The names of `node` whose types importers see: a function's name and, in a method,
    the attributes it sets on its first parameter (`self.items = ...`); an assignment's
    names."""
    lines = split_lines(text)
    if isinstance(node, Function):
        line = lines[node.lineno - 1]
        start = _column(line, node.col_offset)
        match = _DEF.match(line, start)
        if match is None or match[1] != node.name:
            raise Unplaced  # `def \\` over lines, or a name Python normalised
        found = [Spot(path, node.lineno - 1, match.start(1), line)]
        first = node.args.posonlyargs + node.args.args
        if first:
            own = first[0].arg
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Attribute)
                    and isinstance(inner.ctx, ast.Store)
                    and isinstance(inner.value, ast.Name)
                    and inner.value.id == own
                    and inner.end_lineno is not None
                    and inner.end_col_offset is not None
                ):
                    found.append(attribute(path, lines, inner))
        return tuple(found)
    spots = []
    for name in _targets(node):
        line = lines[name.lineno - 1]
        spots.append(Spot(path, name.lineno - 1, _column(line, name.col_offset), line))
    return tuple(spots)


def attribute(path: Path, lines: list[str], node: ast.Attribute) -> Spot:
    assert node.end_lineno is not None and node.end_col_offset is not None
    line = lines[node.end_lineno - 1]
    end = _column(line, node.end_col_offset)
    start = end - len(node.attr)
    if line[start:end] != node.attr:
        raise Unplaced  # a name Python normalised (`self.ｘ`)
    return Spot(path, node.end_lineno - 1, start, line)


def _column(line: str, offset: int) -> int:
    """The code-point column of the UTF-8 byte `offset` of `line` (the AST's)."""
    return len(line.encode()[:offset].decode(errors="replace"))
