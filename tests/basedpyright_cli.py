"""basedpyright's CLI (lspd's own, installed beside the interpreter running the tests) run
on a project as the project runs it: in its root, no paths (its configuration's files),
`--outputjson`. The report as basedpyright writes it; each test keeps its own projection of
its diagnostics (`start` and `relative` for the usual parts)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BASEDPYRIGHT = str(Path(sys.executable).parent / "basedpyright")
TIMEOUT_S = 300

Diagnostic = dict[str, Any]  # one of the report's `generalDiagnostics`, as basedpyright says it


def report(root: Path, *args: str) -> dict[str, Any]:
    """basedpyright's JSON report of the project at `root` (`args` added to its command)."""
    done = subprocess.run(
        [BASEDPYRIGHT, "--outputjson", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    try:
        found: dict[str, Any] = json.loads(done.stdout)
    except ValueError as error:
        raise AssertionError(f"basedpyright said no report: {done.stderr}") from error
    return found


def diagnostics(root: Path) -> list[Diagnostic]:
    """Every diagnostic of the report (`generalDiagnostics`)."""
    found: list[Diagnostic] = report(root)["generalDiagnostics"]
    return found


def start(d: Diagnostic) -> tuple[int, int]:
    """Where `d` starts: 1-based line and column, as lspd says them (1, 1: no range)."""
    if "range" not in d:
        return 1, 1
    at = d["range"]["start"]
    return at["line"] + 1, at["character"] + 1


def relative(d: Diagnostic, root: Path) -> str:
    """The file of `d`, relative to `root` (as lspd shows a path)."""
    return Path(d["file"]).relative_to(root).as_posix()


def message(d: Diagnostic) -> str:
    """The message of `d` as lspd says it: the CLI indents its lines with no-break spaces."""
    return str(d["message"]).replace("\xa0", " ")
