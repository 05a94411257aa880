"""A command's option taking a value, read as argparse reads it: `--name X` or `--name=X`,
each time it is given. One reader for mypy's `--exclude` (each adds a pattern) and its
`--config-file` (the last given wins), wherever a script or a hook writes them, an
abbreviation argparse takes spelled out (`spelled`)."""

from __future__ import annotations

from collections.abc import Sequence

_LONGER = {"--config": "--config-file"}  # mypy's option abbreviated as scripts write it


def option_values(words: Sequence[str], name: str) -> tuple[list[str], list[str]]:
    """The values `words` give the option `name`, in order, and the other words. A `name`
    with no value after it is dropped (argparse refuses it; the command does not run)."""
    values: list[str] = []
    rest: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word == name:
            values += words[at + 1 : at + 2]
            at += 2
            continue
        if word.startswith(f"{name}="):
            values.append(word[len(name) + 1 :])
        else:
            rest.append(word)
        at += 1
    return values, rest


def spelled(words: list[str]) -> list[str]:
    """A mypy command's arguments with an option it takes abbreviated spelled out: mypy's
    parser takes a prefix of one option as it (jsonschema's `mypy --config pyproject.toml`
    had its configuration read as a path)."""
    return [_LONGER.get(w, w) if "=" not in w else _longer_valued(w) for w in words]


def _longer_valued(word: str) -> str:
    option, value = word.split("=", 1)
    return f"{_LONGER.get(option, option)}={value}"
