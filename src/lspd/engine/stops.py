"""A check that stopped at syntax errors: what its checker did not check.

tsc (TypeScript 5's `tsc -p` and `tsc --watch`, TypeScript 7's `tsc -p`) reports a
program's semantic diagnostics only when none of its files has a syntactic one: with a
syntax error anywhere, its whole answer is the syntax errors of every file (the builder's
`syntaxErrors`, `engine/native_check.py`). mypy stops at a blocking error (a syntax error:
exit 2, "errors prevented further checking") and says that file's errors alone; the other
files are not even parsed (mypy 2.4.1: two files with syntax errors, one said). So in the
state such a check answers, the baseline's other errors are absent because they were not
checked, not because they are fixed: a comparison must not say them fixed (`Stop.hides`,
`engine/comparison.difference`). basedpyright checks every file whatever their syntax.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TSC = "tsc"
MYPY = "mypy"
# A part of a two-checker gate whose state at the commit was not made (`Stop.why`): its
# files' checkers, named as the answers name the part (`engine/configured_parts.py`).
PYTHON_PART, TYPESCRIPT_PART = "the Python files", "the TypeScript files"
# How such a part is said (`ops/progressive_kept.stop_said`; the hook reads it: `cli/hook._rest`).
NOT_COMPARED = "were not compared"
# How a stop at a tsconfig's options is said (`ops/progressive_kept.stop_said`; the hook's
# advice reads it: `cli/hook._fix`: no syntax error to fix there).
AT_CONFIGURATION = "stopped at the configuration error at"
# How a stop past the parser is said, mypy's words after it (`ops/progressive_kept.stop_said`;
# the hook's advice reads it: `cli/hook._fix`).
BLOCKING = "its blocking error"
# TypeScript's parser's codes (TS1xxx; a JavaScript file's TS8xxx; JSX's TS17xxx). The
# checker's grammar errors are among them too: never said apart by the code alone.
PARSER_CODES = (range(1000, 2000), range(8000, 9000), range(17000, 18000))


@dataclass(frozen=True)
class Stop:
    """A checker that stopped at syntax errors: of `files` (paths as answers show them) it
    said those errors alone and checked nothing else; in `read`, every syntax error it found
    was said (tsc parses every file of the program; mypy, the files it said errors of)."""

    checker: str  # TSC or MYPY; a part's name where `why` says it was not made
    at: tuple[tuple[str, int], ...]  # the errors it stopped at: file, 1-based line
    files: frozenset[str]
    read: frozenset[str]
    # Why no checker ran on `files` in that state at all ("" for a checker's stop): a part
    # of a two-checker gate whose commit state cannot be made soundly here.
    why: str = ""

    def hides(
        self,
        path: str | None,
        code: str | None,
        source: str | None,
        changed: bool = True,
        parsed: bool = True,
    ) -> bool:
        """Whether a baseline diagnostic (of `path`, its `code`, the checker its `source`
        names) absent from this state's answer may still be there: its file was not checked
        by this checker (mypy's stop hides no basedpyright diagnostic of a project both
        judge), and it is no syntax error of a file read whose text `changed`. One of a
        file read unchanged was no syntax error (the parser would say it again): a
        checker's grammar error of the parser's codes (TS1102), not checked either. So is
        one of a changed file tsc's other state did not stop reading (`parsed` false: that
        state's answer held its checker's errors, the parser's codes among them). A part
        not made (`why`) hides every diagnostic of its files: none was checked there."""
        if self.why:
            return path in self.files
        if path not in self.files or (self.checker == MYPY and source != MYPY):
            return False
        if self.checker == TSC and not parsed:
            return True
        return not (changed and path in self.read and syntax_code(self.checker, code))


def at_configuration(checker: str, at: Iterable[str]) -> bool:
    """Whether a stop is tsc's at its configuration's errors (a tsconfig's options or files:
    `engine/config_stops.py`), not at a file's syntax: every place `at` (`path:line` or a
    path) is a tsconfig's or a jsconfig's."""
    names = [place.rpartition("/")[2].partition(":")[0] for place in at]
    return checker == TSC and bool(names) and all(_CONFIG_NAME.match(n) for n in names)


_CONFIG_NAME = re.compile(r"[jt]sconfig(?:\.[^/]*)?\.json$")


def syntax_code(checker: str, code: str | None) -> bool:
    """Whether `code` is one of `checker`'s syntax errors."""
    if checker == MYPY:
        return code == "syntax"
    number = int(code) if code is not None and code.isdigit() else 0
    return any(number in codes for codes in PARSER_CODES)


# A baseline diagnostic's path, code and source -> the stop that hides it (None: checked).
Hiding = Callable[[str | None, str | None, str | None], Stop | None]


def hiding(
    stops: Sequence[Stop],
    changed: Container[str | None] | None = None,
    other: Sequence[Stop] | None = None,
) -> Hiding:
    """The stop of `stops` that hides a baseline diagnostic (its path, code, source: see
    `Stop.hides`, `changed` the files whose text differs between the two states, None:
    any may); None: it was checked. `other`: the stops of the diagnostic's own state (None:
    not known): an error of the parser's codes there is the parser's only in a file tsc
    read while it stopped; elsewhere its checker's grammar error (TS1102), said because
    tsc did not stop, not because the text parses otherwise."""

    def hidden(path: str | None, code: str | None, source: str | None) -> Stop | None:
        edited = changed is None or path in changed
        parsed = other is None or any(s.checker == TSC and path in s.read for s in other)
        return next(
            (stop for stop in stops if stop.hides(path, code, source, edited, parsed)), None
        )

    return hidden


def stop_of(checker: str, at: Iterable[tuple[str, int]], files: Iterable[str]) -> Stop:
    """A stop at the errors `at` (file, line) of a program or project of `files`: tsc read
    every file, mypy those it said errors of."""
    where = tuple(sorted(set(at)))
    every = frozenset(files) | {path for path, _ in where}
    read = every if checker == TSC else frozenset(path for path, _ in where)
    return Stop(checker, where, every, read)


def lsp_lines(items: Sequence[Mapping[str, Any]]) -> list[int]:
    """The 1-based start lines of LSP diagnostics."""
    return [int(item["range"]["start"]["line"]) + 1 for item in items]
