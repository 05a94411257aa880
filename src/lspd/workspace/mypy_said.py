"""Which lines of mypy's printed output are its answer: a JSON line per error with `-O json`,
and the blocking errors mypy prints as text even then (mypy 1.x: a syntax error; 1.13: a
file shadowing a library module, on a line of its own starting `mypy: `); the answer kept
(`MypyOutput`), or why there is none (`MypyFailed`: a crash, bad flags)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import ServerError

log = logging.getLogger(__name__)

# mypy's `-O json` (1.11 and later); older ones print text with these flags.
TEXT_FLAGS = (
    "--show-column-numbers",
    "--show-error-end",
    "--show-error-codes",
    "--no-error-summary",
    "--no-pretty",
    "--no-color-output",
)

# mypy's error ends, which its text says from 0.981 on: an older one refuses the flag.
_ENDS_SINCE = (0, 981)


def text_flags(version: tuple[int, ...]) -> tuple[str, ...]:
    """`TEXT_FLAGS` that mypy `version` takes: sniffio's CI pins 0.782, which stops at
    `--show-error-end` (its errors are then read with no end, as `-O json`'s blocking)."""
    if version >= _ENDS_SINCE:
        return TEXT_FLAGS
    return tuple(flag for flag in TEXT_FLAGS if flag != "--show-error-end")


# mypy's `-O json` (1.11 and later) with the columns of its text: mypy 1.x's dmypy prints
# an update's errors as text (`Errors.new_messages` takes no formatter), with columns only
# where asked; its JSON says the same with or without the flag (1.13.0, 1.19.1, 2.4.1).
JSON_FLAGS = ("-O", "json", "--show-column-numbers")

# mypy's text error line, columns or not: what a blocking error is printed as.
BLOCKING = re.compile(r"^[^{\s][^:]*:\d+(?::\d+)*: error: ")
# ... and a note's (an error's, after it), which dmypy 1.x's update prints as text too.
_NOTED = re.compile(r"^[^{\s][^:]*:\d+(?::\d+)*: note: ")
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


class MypyFailed(ServerError):
    """mypy stopped without an answer (a plugin crashed, bad flags): its last line."""

    def __init__(self, project: Path, why: str) -> None:
        super().__init__("mypy", f"mypy failed in {project}: {why} (the log has the rest)")
        self.why = why  # mypy's own line: its first error, else its last


@dataclass(frozen=True)
class MypyOutput:
    """What one mypy run printed: its diagnostics' lines, and how they are written."""

    lines: tuple[str, ...]
    json: bool  # `-O json` lines, else mypy's text format with `TEXT_FLAGS`
    status: int
    once: bool = False  # mypy's own run (`mypy_once`), not dmypy's: the answer's `checker`


def output_of(
    project: Path, status: int, out: str, err: str, json_out: bool, once: bool = False
) -> MypyOutput:
    """What mypy printed, or why it failed."""
    kept = [line for line in out.splitlines() if line.startswith("{") or not json_out]
    # Status 2 with errors is mypy's answer, "errors prevented further checking" (a syntax
    # error; mypy 1.x prints it as text even with `-O json`), not a crash or a usage error,
    # whose output names no file's line (`mypy: can't read file`, a traceback).
    # dmypy 1.x's update prints text (`JSON_FLAGS`): its errors and their notes kept.
    texts = [line for line in out.splitlines() if BLOCKING.match(line) or _NOTED.match(line)]
    kept += [line for line in texts if line not in kept]
    shadows = shadowing(out, err)  # mypy 1.13's stop at a file shadowing a library module
    kept += shadows
    answered = status == 2 and (said(out) or bool(shadows))
    # Status 1 with nothing found and a word on stderr: dmypy refused (a configuration
    # its server cannot run: `follow_imports = silent`), not a clean project.
    if (status not in (0, 1) and not answered) or (status == 1 and not kept and err.strip()):
        log.error("mypy in %s failed (status %d):\n%s%s", project, status, out, err)
        last = (err.strip() or out.strip() or f"exit status {status}").splitlines()[-1]
        # its first error says why (fastapi's `mypy .`: 'Duplicate module named', where
        # the last line said only "Found 1 error in 1 file (errors prevented further checking)")
        errors = (line for line in [*out.splitlines(), *err.splitlines()] if ": error: " in line)
        why = next(errors, last)
        raise MypyFailed(project, why)
    return MypyOutput(tuple(kept), json_out, status, once)
