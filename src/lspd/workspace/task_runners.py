"""The commands a project's task runners run, as a lint script's lines (`mypy_scripts`): many
projects gate through one, not a Makefile. hatch's `[tool.hatch.envs.types.scripts]`
(`check = "mypy --install-types --non-interactive {args:src tests}"`, also in hatch.toml),
poe's `[tool.poe.tasks]`, pdm's `[tool.pdm.scripts]`, tox's `[tool.tox]` environments'
`commands` (also tox.toml's; a `legacy_tox_ini` is tox.ini's text), and a justfile's recipes.

Read, never run. A task naming other tasks (poe's sequence, pdm's composite, a hatch
script naming another) is read as a command of their names: each of them is read as well.
A placeholder is its default (`{args:src}`: `src`), the project (`{root}`: `.`) or nothing;
tox's `{replace = "posargs", default = ["src"]}` is its default's words.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from collections.abc import Iterator
from typing import Any, NamedTuple

PYPROJECT = "pyproject.toml"
HATCH = "hatch.toml"
TOX_TOML = "tox.toml"  # tox 4's: `[tool.tox]`'s table at its top (pipx's)
JUSTFILES = ("justfile", "Justfile", ".justfile")
# hatch's and pdm's placeholders: `{args}`, `{args:DEFAULT}`, `{root}`, `{env:NAME:DEFAULT}`
_PLACEHOLDER = re.compile(r"\{(args|root|env:[A-Za-z_]\w*|pdm|home)(?::([^{}]*))?\}")
_PLACES = {"root": ".", "pdm": "pdm"}
# a justfile's variable, set (`src := "src tests"`) and used (`{{ src }}`)
_JUST_ASSIGNED = re.compile(r"""^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(['"])(.*)\2\s*$""")
_JUST_VARIABLE = re.compile(r"\{\{\s*([A-Za-z_][\w-]*)\s*\}\}")
# a recipe's first line (`@types target="src" *args:`, its dependencies after the colon)
_JUST_DEFAULT = r"""=(?:('[^']*'|"[^"]*")|([^\s'":]+))"""  # quoted, or a variable's name
_JUST_PARAMETER = re.compile(rf"[+*$]?([A-Za-z_][\w-]*)(?:{_JUST_DEFAULT})?")
_JUST_RECIPE = re.compile(rf"^@?[A-Za-z_][\w-]*((?:\s+{_JUST_PARAMETER.pattern})*)\s*:(?!=)")


class Commands(NamedTuple):
    """The commands of a TOML file's task runners, as text of a script."""

    shell: list[str]  # each a shell script's text (of one line or more)
    tox: list[str]  # each tox.ini's text: its factor conditions and substitutions to read


def toml_commands(text: str, name: str) -> Commands:
    """The commands of the task runners of a pyproject.toml's, or (`name`) a hatch.toml's or
    tox.toml's, `text`; none where it is no TOML."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return Commands([], [])
    if name == HATCH:
        return Commands(list(_hatch(document.get("envs"))), [])
    if name == TOX_TOML:
        return Commands([], list(_tox(document)))
    tool = _table(document.get("tool"))
    tox = _table(tool.get("tox"))
    legacy = tox.get("legacy_tox_ini")
    shell = [
        *_hatch(_table(tool.get("hatch")).get("envs")),
        *_poe(_table(tool.get("poe")).get("tasks")),
    ]
    shell += _pdm(tool.get("pdm"))
    return Commands(shell, [*([legacy] if isinstance(legacy, str) else []), *_tox(tox)])


def just_text(text: str) -> str:
    """A justfile's `text` as a shell script: its variables and each recipe's parameters
    replaced by their quoted values (a parameter's default: `types target="src":`), a
    recipe line's `@` (quiet) and `-` (errors ignored) dropped."""
    values: dict[str, str] = {}
    recipe: dict[str, str] = {}  # the parameters of the recipe whose lines these are
    lines = []
    for line in text.splitlines():
        if line[:1].strip():  # a line at the top: a recipe's first, or none's
            recipe = _just_parameters(line, values)
        line = _just_replaced(line, {**values, **recipe})
        if (assigned := _JUST_ASSIGNED.match(line)) is not None:
            values[assigned[1]] = assigned[3]
            continue
        lines.append(re.sub(r"^(\s+)[@-]+", r"\1", line))
    return "\n".join(lines)


def _just_replaced(line: str, known: dict[str, str]) -> str:
    """A justfile's `line`, each `{{ name }}` its `known` value (none where it knows none)."""
    return _JUST_VARIABLE.sub(lambda m: known.get(m[1], ""), line)


def _just_parameters(line: str, values: dict[str, str]) -> dict[str, str]:
    """The parameters of the recipe a justfile's `line` begins, each its default's value (a
    quoted text, or a variable's); none where it begins none."""
    header = _JUST_RECIPE.match(line)
    if header is None:
        return {}
    found = {}
    for name, quoted, bare in _JUST_PARAMETER.findall(header[1]):
        found[name] = quoted[1:-1] if quoted else values.get(bare, "")
    return found


def _table(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _tox(table: Any) -> Iterator[str]:
    """The commands of `[tool.tox]`'s environments, wherever they stand in it."""
    for key, value in _table(table).items():
        if key in ("commands", "commands_pre", "commands_post") and isinstance(value, list):
            yield from (shlex.join(_tox_words(c)) for c in value if isinstance(c, list))
        elif isinstance(value, dict):
            yield from _tox(value)


def _tox_words(command: list[Any]) -> list[str]:
    """A tox command's words, a `{replace = "posargs", default = [...]}` its default's."""
    words: list[str] = []
    for word in command:
        if isinstance(word, dict):
            default = word.get("default", [])
            words += [str(w) for w in default] if isinstance(default, list) else [str(default)]
        else:
            words.append(str(word))
    return words


def _hatch(envs: Any) -> Iterator[str]:
    """The scripts of each hatch environment (a command or a list of them)."""
    for env in _table(envs).values():
        for script in _table(_table(env).get("scripts")).values():
            for command in script if isinstance(script, list) else [script]:
                if isinstance(command, str):
                    yield _placed(command)


def _poe(tasks: Any) -> Iterator[str]:
    """Each poe task's command: a string, a table's `cmd` or `shell`, a sequence's items."""
    for task in _table(tasks).values():
        yield from _poe_task(task)


def _poe_task(task: Any) -> Iterator[str]:
    if isinstance(task, str):
        yield task
    elif isinstance(task, list):  # a sequence written as its array
        for item in task:
            yield from _poe_task(item)
    elif isinstance(task, dict):
        for key in ("cmd", "shell", "ref"):
            if isinstance(task.get(key), str):
                yield task[key]
        for key in ("sequence", "parallel"):
            if isinstance(task.get(key), list):
                yield from _poe_task(task[key])


def _pdm(pdm: Any) -> Iterator[str]:
    """Each pdm script's command: a string, a table's `cmd` (a string or its words), its
    `shell`, or a composite's items."""
    for script in _table(_table(pdm).get("scripts")).values():
        table = script if isinstance(script, dict) else {"cmd": script}
        command = table.get("cmd")
        if isinstance(command, list):
            command = shlex.join(str(w) for w in command)
        composite = table.get("composite")
        items = [command, table.get("shell"), *(composite if isinstance(composite, list) else [])]
        yield from (_placed(i) for i in items if isinstance(i, str))


def _placed(command: str) -> str:
    """`command` with hatch's and pdm's placeholders replaced (`_PLACEHOLDER`)."""
    return _PLACEHOLDER.sub(lambda m: _PLACES.get(m[1], m[2] or ""), command)
