"""Where a script file's commands run together. A tox.ini section (`[testenv:typing]`) and a
Makefile target (`lint:`) each begin a block of their own, which CI may run or never; a
shell script, a workflow's steps and pre-commit's hooks run together. The gate's other runs
of mypy with other options (`mypy_runs`) are read from the block of its first run alone: a
Makefile's `mypy-strict: mypy --strict` beside `lint: mypy`, or a tox environment outside
the envlist, is run by no CI that runs `make lint`, and its errors are no gate's."""

from __future__ import annotations

import re

_SECTION = re.compile(r"\[[^\]]*\]")  # tox.ini's `[testenv:typing]`
_TARGET = re.compile(r"[^\s:=$]+::?")  # a Makefile's `lint:`, `check::`


class Blocks:
    """The block of each command of a script file, counted as its commands are read."""

    def __init__(self) -> None:
        self.at = 0

    def of(self, words: list[str]) -> int:
        """The block a command (its `words`) is in: a new one where it begins one."""
        if words and (_SECTION.fullmatch(words[0]) or _TARGET.fullmatch(words[0])):
            self.at += 1
        return self.at
