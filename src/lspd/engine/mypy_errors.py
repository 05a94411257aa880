"""mypy's errors read from what it printed (`MypyOutput`), to the error: path, line,
column, code, message, each error's notes attached to it, at the project's paths (mypy
ran in lspd's copy of it: `mypy_copy`)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lspd.workspace.mypy_said import MypyOutput


@dataclass(frozen=True)
class MypyError:
    """One mypy error: 1-based lines and columns, the end exclusive; its notes."""

    path: Path
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str  # `error` (a note of its own is never one)
    code: str | None
    message: str
    notes: tuple[str, ...] = ()


# mypy's text with --show-column-numbers --show-error-end: `path:line:col:eline:ecol: kind: msg`
_TEXT = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+):(?P<end_line>\d+):(?P<end_column>\d+): "
    r"(?P<severity>error|note|warning): (?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


# What mypy 1.x prints as text with `-O json` (its columns where `JSON_FLAGS` ask for them,
# no ends): a syntax error, and dmypy's update's errors and notes: `path:line:col: ...`
_BARE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<column>\d+))?: (?P<rest>(?:error|note): .*)$"
)
# ... and an error of a whole file (no line: a duplicate module, mypy 1.13), with its notes.
_WHOLE = re.compile(r"^(?P<path>.+?\.pyi?): (?P<rest>(?:error|note): .*)$")


def parse(
    output: MypyOutput, project: Path, copy: Path | None = None, base: Path | None = None
) -> list[MypyError]:
    """mypy's errors, exact, at the project's paths (mypy ran in its place in `copy`, if
    given, a copy of `base`: the project unless said); a note is attached to the error
    before it (the JSON format carries them in `hint`), and a note with no error of its
    own line is left out."""
    errors: list[MypyError] = []
    for line in output.lines:
        as_json = output.json and line.startswith("{")  # else a blocking error's text
        item = _json_item(line, project) if as_json else _text_item(line, project)
        if item is not None and copy is not None and item[0].path.is_relative_to(copy):
            moved = (base or project) / item[0].path.relative_to(copy)
            # a folder the copy holds where the project has a link (`mypy_check._links`)
            moved = Path(os.path.realpath(moved.parent)) / moved.name
            item = (dataclasses.replace(item[0], path=moved), item[1])
        if item is None:
            continue
        error, notes = item
        if error.severity == "note":
            last = errors[-1] if errors else None
            if last is not None and (last.path, last.line) == (error.path, error.line):
                errors[-1] = _noted(last, (error.message,))
            continue
        errors.append(_noted(error, notes))
    return errors


def _noted(error: MypyError, notes: tuple[str, ...]) -> MypyError:
    if not notes:
        return error
    return MypyError(
        error.path,
        error.line,
        error.column,
        error.end_line,
        error.end_column,
        error.severity,
        error.code,
        error.message,
        (*error.notes, *notes),
    )


def _json_item(line: str, project: Path) -> tuple[MypyError, tuple[str, ...]] | None:
    try:
        data: Any = json.loads(line)
        path = (project / data["file"]).resolve()
        # JSON: 0-based columns, the end exclusive; lspd's are 1-based.
        column = max(int(data["column"]) + 1, 1)  # -1: no column (an unused ignore), lspd's 1
        start = max(int(data["line"]), 1)  # -1: the whole file's (a blocker), lspd's line 1
        end_line = max(int(data.get("end_line") or data["line"]), start)
        end_column = int(data.get("end_column") or data["column"]) + 1
        error = MypyError(
            path,
            start,
            column,
            end_line,
            max(end_column, column),
            str(data["severity"]),
            data.get("code"),
            str(data["message"]),
        )
    except (ValueError, KeyError, TypeError):
        return None
    hint = data.get("hint")
    return error, tuple(hint.splitlines()) if isinstance(hint, str) and hint else ()


def _text_item(line: str, project: Path) -> tuple[MypyError, tuple[str, ...]] | None:
    found = _TEXT.match(line)
    if found is None and (bare := _BARE.match(line)) is not None:  # `-O json`'s blocking
        column = int(bare["column"] or "1")  # no end, as 1.x's JSON has none: `column` again
        line = f"{bare['path']}:{bare['line']}:{column}:{bare['line']}:{column - 1}: {bare['rest']}"
        found = _TEXT.match(line)
    elif found is None and (whole := _WHOLE.match(line)) is not None:  # at its start, empty
        found = _TEXT.match(f"{whole['path']}:1:1:1:0: {whole['rest']}")
    if found is None:
        return None
    # Text: 1-based columns, the end inclusive.
    column, end_column = int(found["column"]), int(found["end_column"]) + 1
    severity = "note" if found["severity"] == "note" else "error"
    error = MypyError(
        (project / found["path"]).resolve(),
        int(found["line"]),
        column,
        int(found["end_line"]),
        max(end_column, column),
        severity,
        found["code"],
        found["message"],
    )
    return error, ()
