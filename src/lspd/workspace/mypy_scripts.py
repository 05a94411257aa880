"""The paths a project's own lint script runs mypy on, where its mypy configuration names no
`files` and no pre-commit hook chooses (`mypy_precommit`): many projects gate on a script
(`scripts/lint.sh`: fastapi's `mypy fastapi`, typer's `mypy typer`; starlette's
`scripts/check`: `${PREFIX}mypy $SOURCE_FILES` with `SOURCE_FILES="starlette tests"`), a
Makefile recipe or a tox command. `mypy .` there checks the docs' examples too (fastapi's
`docs_src/`, where it stops at "Duplicate module named"). Read: `scripts/*` (no suffix or
`.sh`), `Makefile` and `tox.ini`, each line a command; a variable set by a plain assignment
in the same file is replaced by its value; the arguments after `mypy` up to the command's
end that name a file or folder of the project are its targets (options and their values
aside). The first file naming any is taken; where two commands name different targets,
the first.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

SCRIPTS = ("scripts", "script", "tools")  # folders of a project's own scripts
FILES = ("Makefile", "tox.ini")
MOST_BYTES = 64_000  # a script this large is no lint script
_ASSIGNED = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_END = {";", "&&", "||", "|", "&", ">", "2>", ">>"}
# the words a command running mypy may have before it: a command's start, a runner's
_BEFORE = {*_END, "-m", "run", "exec", "=", "then", "do", "time", "--", "env"}
# mypy's options that take a value as the next argument (their value is no target)
_VALUED = {"--config-file", "--cache-dir", "--python-version", "--platform", "--exclude"}
_VALUED |= {"-m", "--module", "-p", "--package", "--junit-xml", "--html-report", "-c"}


def script_targets(directory: Path) -> tuple[str, tuple[str, ...]] | None:
    """The file (relative to `directory`) whose command runs mypy on paths of the project,
    and those paths (relative to it); None where none does."""
    for path in _candidates(directory):
        try:
            if path.stat().st_size > MOST_BYTES:
                continue
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if targets := _targets(directory, text):
            return path.relative_to(directory).as_posix(), targets
    return None


def _candidates(directory: Path) -> list[Path]:
    found = [directory / name for name in FILES if (directory / name).is_file()]
    for folder in SCRIPTS:
        if (directory / folder).is_dir():
            found += sorted(
                p
                for p in (directory / folder).iterdir()
                if p.is_file() and p.suffix in ("", ".sh") and not p.name.startswith(".")
            )
    return found


def _targets(directory: Path, text: str) -> tuple[str, ...]:
    """The project's paths the first command of `text` running mypy on any names."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        if (assigned := _ASSIGNED.match(line)) is not None:
            values[assigned[1]] = _words(assigned[2], values)[0] if assigned[2].strip() else ""
            continue
        words = _words(line, values)
        for index, word in enumerate(words):
            run = index == 0 or words[index - 1] in _BEFORE  # a command, not `echo ... mypy`
            mypy = run and word.rsplit("/", 1)[-1] == "mypy"
            if mypy and (found := named_paths(directory, words[index + 1 :])):
                return found
    return ()


def _words(line: str, values: dict[str, str]) -> list[str]:
    """`line`'s words, its known variables replaced (a `#` comment dropped)."""
    line = _VARIABLE.sub(lambda m: values.get(m[1] or m[2], ""), line)
    try:
        return shlex.split(line, comments=True)
    except ValueError:  # an unclosed quote: a line of no command lspd reads
        return []


def named_paths(directory: Path, words: list[str]) -> tuple[str, ...]:
    """The arguments of a mypy command (`words`, after `mypy`) naming the project's files."""
    found: list[str] = []
    skip = False
    for word in words:
        if word in _END or word.startswith((">", "2>")):
            break
        if skip:
            skip = False
            continue
        if word.startswith("-"):
            skip = word in _VALUED
            continue
        for part in word.split():  # a variable's value of several paths
            relative = os.path.normpath(part)  # ./lib/sqlalchemy, app/
            inside = not relative.startswith(("/", ".."))
            if inside and (directory / relative).exists():
                found.append(relative)
    return tuple(dict.fromkeys(found))
