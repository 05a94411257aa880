"""A pyproject.toml's lines without some of mypy's options (`mypy_outputs`: what makes
mypy write or install), however TOML writes them: a plain key of `[tool.mypy]` or of a
`[[tool.mypy.overrides]]` table, a dotted key (`mypy.junit_xml` in `[tool]`,
`tool.mypy.junit_xml` at the top), an inline table holding mypy's (`mypy = { ... }` in
`[tool]`, `tool = { mypy = { ... } }`). Every other line stays where it is: an option's
lines are made empty, an inline table is written again on its first line.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from functools import partial
from typing import Any


def toml_without(lines: list[str], names: frozenset[str]) -> list[str]:
    """`lines` of a pyproject.toml: each option of `names` (mypy's, `_`: `junit_xml`) of
    the global mypy table made empty, however its key is written (in `[tool.mypy]`, dotted
    in `[tool]` or at the top: `mypy.junit_xml`, `tool.mypy.junit_xml`), and of a
    `[[tool.mypy.overrides]]` table, a value of several lines with it; an inline table
    holding the global mypy table (`mypy = { ... }` in `[tool]`, `tool = { mypy = { ... }
    }`) written again on its first line without them, its other lines made empty. Each
    value, kept or not, ends at the next line starting a table or a key where its lines
    parse alone, else where they first do: a line of a string or an array reading `[a]...`
    or `k = ...` starts nothing (it made the keys after it a table `a`'s, and the copy was
    refused with a `junit_xml` left in)."""
    left_out = partial(_named, names)
    out: list[str] = []
    table: tuple[str, ...] = ()
    index = 0
    while index < len(lines):
        line = lines[index]
        if (header := _TABLE.match(line)) is not None:
            table = _parts(header.group(1))
            out.append(line)
            index += 1
            continue
        if (key := _TOML_KEY.match(line)) is None:
            out.append(line)
            index += 1
            continue
        named = _parts(key.group(2))
        path, end = table + named, _parsed_end(lines, index)
        if _dropped(table, path, left_out):
            out += [_empty(held) for held in lines[index:end]]
        elif key.group(3).startswith("{") and path == MYPY[: len(path)]:
            out += _inline_without(key, lines[index:end], named, MYPY[len(table) :], left_out)
        else:
            out += lines[index:end]
        index = end
    return out


MYPY = ("tool", "mypy")
_KEY_PART = r"""(?:"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[A-Za-z0-9_-]+)"""
_DOTTED = rf"{_KEY_PART}(?:[ \t]*\.[ \t]*{_KEY_PART})*"
_TOML_KEY = re.compile(rf"^([ \t]*)({_DOTTED})[ \t]*=[ \t]*(.*)", re.S)
_BARE = re.compile(r"^[A-Za-z0-9_-]+(?:[ \t]*\.[ \t]*[A-Za-z0-9_-]+)*$")
_TABLE = re.compile(rf"^[ \t]*\[\[?[ \t]*({_DOTTED})[ \t]*\]")


def _parts(key: str) -> tuple[str, ...]:
    """A TOML key's parts as TOML reads them (`tool."mypy"` is tool, mypy)."""
    if _BARE.match(key):
        return tuple(part.strip() for part in key.split("."))
    try:
        value: object = tomllib.loads(f"{key} = 0")
    except tomllib.TOMLDecodeError:
        return (key,)
    parts: list[str] = []
    while isinstance(value, dict) and len(value) == 1:
        name, value = next(iter(value.items()))
        parts.append(name)
    return tuple(parts)


def _value_end(lines: list[str], index: int) -> int:
    """Past the last line of the key-value pair starting at `lines[index]`: the lines up
    to the next that starts a table or a key, blank and comment lines at their end left
    out (a value of several lines is an array, an inline table or a string)."""
    end = next((at for at in range(index + 1, len(lines)) if _starts(lines[at])), len(lines))
    while end > index + 1 and _BLANK.match(lines[end - 1]):
        end -= 1
    return end


def _parsed_end(lines: list[str], index: int) -> int:
    """`_value_end`, where those lines parse as TOML alone; else the first end at which
    they do (one line where none does)."""
    ends: list[int] = [_value_end(lines, index), *range(index + 1, len(lines) + 1)]
    for end in ends:
        try:
            tomllib.loads("".join(lines[index:end]))
        except tomllib.TOMLDecodeError:
            continue
        return end
    return index + 1


def _starts(line: str) -> bool:
    """Whether `line` starts a table or a key-value pair."""
    return _TABLE.match(line) is not None or _TOML_KEY.match(line) is not None


_BLANK = re.compile(r"^[ \t]*(?:#.*)?$", re.S)


def _named(names: frozenset[str], key: str) -> bool:
    """Whether the option `key` (as TOML reads it: `junit-xml` or `junit_xml`) is of
    `names`."""
    return key.lower().replace("-", "_") in names


def _dropped(
    table: tuple[str, ...], path: tuple[str, ...], left_out: Callable[[str], bool]
) -> bool:
    """Whether the key at `path` (its table `table`) is an option `left_out` takes of the
    global mypy table or of an override's table."""
    if len(path) == 3 and path[:2] == MYPY:
        return left_out(path[2])
    overrides = (*MYPY, "overrides")
    return table == overrides and len(path) == 4 and left_out(path[3])


def _inline_without(
    key: re.Match[str],
    lines: list[str],
    named: tuple[str, ...],
    inside: tuple[str, ...],
    left_out: Callable[[str], bool],
) -> list[str]:
    """The lines of an inline table holding the global mypy table at `inside` (its path
    from the table the key is in), without the options `left_out` takes: as they are
    where it has none; else written again on the first line, the others made empty."""
    value: Any = tomllib.loads("".join(lines))
    for part in named:
        value = value[part]
    mypy = value
    for part in inside[len(named) :]:
        mypy = mypy.get(part) if isinstance(mypy, dict) else None
    if not isinstance(mypy, dict) or not any(left_out(name) for name in mypy):
        return lines
    for name in [name for name in mypy if left_out(name)]:
        del mypy[name]
    ending = lines[-1][len(lines[-1].rstrip("\r\n")) :]
    first = f"{key.group(1)}{key.group(2)} = {_toml(value)}{ending}"
    return [first, *(_empty(line) for line in lines[1:])]


def _toml(value: object) -> str:
    """`value` (as tomllib reads it) written as TOML on one line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, int | float):
        return repr(value)  # inf, nan: TOML's too
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{_toml(str(name))} = {_toml(item)}" for name, item in value.items())
        return "{" + ", ".join(pairs) + "}"
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def _empty(line: str) -> str:
    """The line, empty, its line ending kept."""
    return line[len(line.rstrip("\r\n")) :]
