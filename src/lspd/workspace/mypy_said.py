"""Which lines of mypy's printed output are its answer: a JSON line per error with `-O json`,
and the blocking errors mypy prints as text even then (mypy 1.x: a syntax error; 1.13: a
file shadowing a library module, on a line of its own starting `mypy: `)."""

from __future__ import annotations

import re

# mypy's text error line, columns or not: what a blocking error is printed as.
BLOCKING = re.compile(r"^[^{\s][^:]*:\d+(?::\d+)*: error: ")
# mypy 1.13's CompileError for a file shadowing a library module, and the note after it
# (mypy 2.x says it as an error of that file: `This file shadows library module "types"`).
_SHADOWS = re.compile(r'^mypy: (?P<message>"(?P<path>[^"]+)" shadows library module "[^"]+")$')
_NOTE = re.compile(r"^note: (?P<note>A user-defined top-level module .*)$")


def said(out: str) -> bool:
    """Whether mypy's output names an error of some file's line (JSON, or a blocking error's
    text), none of them its own crash's."""
    lines = out.splitlines()
    named = any(line.startswith("{") or BLOCKING.match(line) for line in lines)
    return named and not any("INTERNAL ERROR" in line for line in lines)


def shadowing(*outputs: str) -> list[str]:
    """mypy 1.13's shadowing stop (`mypy: "scripts/types.py" shadows library module
    "types"`, on stdout through dmypy, stderr run alone) as the text lines of that file's
    whole-file error and its note, at 1:1 as mypy 2.x's: mypy's words kept."""
    lines: list[str] = []
    for output in outputs:
        path = None
        for line in output.splitlines():
            if (found := _SHADOWS.match(line)) is not None:
                path = found["path"]
                lines.append(f"{path}:1:1:1:0: error: {found['message']}")
            elif path is not None and (note := _NOTE.match(line)) is not None:
                lines.append(f"{path}:1:1:1:0: note: {note['note']}")
                path = None
    return lines
