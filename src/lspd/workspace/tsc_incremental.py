"""A program's `tsc -p CONFIG --noEmit` run with its build state kept between runs, where that
state can be trusted: the next run checks again only what the texts moved since affect, as
`tsc --watch` (`workspace/tsc_copy.py`'s kept copies, `engine/program_runs.py`).

TypeScript 7.0.2's incremental run does not check again the files a global declaration
reaches: a script (a file with no import or export) or a module's `declare global` added,
changed or removed left every other file's errors as they were (a `shout()` a new script
declares still "Cannot find name 'shout'"; a global's parameter made a number, no error
where `tsc -p` says TS2345). TypeScript 5 checks every file again for such an edit. So each
run records the texts of the files that declare globals (by their stamps, each read once
it moved): where one moved since the last run, the build state is dropped before the run
(tsc then checks the program whole, as TypeScript 5 does for such an edit); where the run
read one the last did not (a new script, a module made one), it is run again whole. A file
written while tsc ran that declares globals, or did, may not hold the text tsc read: its
entry is UNSURE, a global moved for the next run (whole), and for this one where it was
incremental (run again whole). The moment the run began is the file system's own clock
(`_clock_moved`), which stamps files coarsely: measured here, a file written before a
marker had its ctime equal to the marker's in 2000 of 2000 writes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import time
from contextlib import suppress
from pathlib import Path

# A file declares globals unless it is a module (an import or export at a line's start:
# `import(` is an expression, which a script may hold) without `declare global`; a
# `/// <reference>` counts too (it brings a file's globals in). Read wide: a module taken
# for a script costs a whole run, never a wrong answer.
_MODULE = re.compile(r"^[ \t]*(?:export\b|import\s*[\w{*\"'])", re.MULTILINE)
_GLOBAL = re.compile(r"\bdeclare\s+global\b|^[ \t]*///[ \t]*<reference\b", re.MULTILINE)
_SOURCES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
# a file's stamp (size, mtime ns, inode, ctime ns) and its text's hash where it declares
# globals ("" where it does not)
Record = dict[str, tuple[list[int], str]]
# the entry of a file that may have moved while tsc read it: a global of unknown text
UNSURE = "?"


def checked_output(tsc: list[str], config: Path, build_info: Path, timeout: float) -> str | None:
    """`tsc -p config` run to check alone (`_checking_only`, its build state in
    `build_info`, kept where it can be trusted: the module's text) from the configuration's
    folder, its output; None where it did not run or was cut short."""
    last = kept = _read(_record_of(build_info)) if build_info.exists() else None
    if kept is None or any(_moved(path, *entry) for path, entry in kept.items() if entry[1]):
        dropped(build_info)  # none, none trusted, or a global's text moved: checked whole
        kept = None
    output, record = _run_recorded(tsc, config, build_info, timeout, kept or {}, last or {})
    if output is None:
        return None
    if kept is not None and _globals(record) != _globals(kept):
        dropped(build_info)  # it read a global the last run did not: again, whole
        sure = {path: entry for path, entry in record.items() if entry[1] != UNSURE}
        output, record = _run_recorded(tsc, config, build_info, timeout, sure, record)
        if output is None:
            return None
    with suppress(OSError):
        _record_of(build_info).write_text(json.dumps(record), encoding="utf-8")
    return output


def dropped(build_info: Path) -> None:
    """The build state at `build_info` removed with its record (and the marker of its last
    run's start): the next run is whole."""
    build_info.unlink(missing_ok=True)
    _record_of(build_info).unlink(missing_ok=True)
    _marker_of(build_info).unlink(missing_ok=True)


def _record_of(build_info: Path) -> Path:
    return build_info.with_suffix(".globals.json")


def _marker_of(build_info: Path) -> Path:
    return build_info.with_suffix(".started")


def _run_recorded(
    tsc: list[str], config: Path, build_info: Path, timeout: float, kept: Record, last: Record
) -> tuple[str | None, Record]:
    """The run's output and the record of what it read (`kept`'s entries where their files
    stayed). A file written since the run began may not hold what tsc read: UNSURE where it
    declares globals or did at the `last` run (a script made a module)."""
    began = _clock_moved(_marker_of(build_info))
    output = _run(tsc, config, build_info, timeout)
    if output is None:
        return None, {}
    record = _recorded(output, kept)
    for path, (stamp, said) in record.items():
        if (began is None or stamp[3] >= began) and (said or last.get(path, ([], ""))[1]):
            record[path] = (stamp, UNSURE)
    return output, record


def _clock_moved(marker: Path) -> int | None:
    """A ctime no file written before this call has and none written after it lacks: the
    marker written until its ctime moves past its first (a file system stamps an unqueried
    file with a coarse clock, one tick for every write in it). None where it did not."""
    first = None
    deadline = time.monotonic() + 0.1
    try:
        while time.monotonic() < deadline:
            marker.write_bytes(b"")
            ctime = os.stat(marker).st_ctime_ns
            if first is not None and ctime > first:
                return ctime
            first = ctime if first is None else first
    except OSError:
        pass
    return None


def _run(tsc: list[str], config: Path, build_info: Path, timeout: float) -> str | None:
    command = [*tsc, "-p", str(config), *_checking_only(build_info)]
    try:
        done = subprocess.run(
            command,
            cwd=config.parent,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout


def _checking_only(build_info: Path) -> list[str]:
    """tsc's flags for a check that writes nothing of the project: `--noEmit` still writes a
    composite or incremental program's `.tsbuildinfo` where its `tsBuildInfoFile` says
    (Vite's `node_modules/.tmp/`, reached from a copy through its linked node_modules) or
    beside its outDir or configuration: in the repository. It goes to `build_info` instead
    (`--incremental`: a program neither composite nor incremental accepts that file only so).
    `emitDeclarationOnly` off: before TypeScript 5.6, a tsconfig setting it beside `--noEmit`
    is TS5053 and nothing checked, where the project's own `tsc` (emitting) or `tsc -b` says
    the program's errors. `--listFiles`: the files read, whose globals are recorded."""
    kept = ["--incremental", "--tsBuildInfoFile", str(build_info)]
    only = ["--emitDeclarationOnly", "false"]
    return ["--noEmit", *only, *kept, "--listFiles", "--pretty", "true"]


def _recorded(output: str, kept: Record) -> Record:
    """The record of the source files tsc listed in `output`: a file whose stamp is the one
    `kept` has keeps its entry, the rest are read."""
    record: Record = {}
    for line in output.split("\n"):
        if line[:1] != "/" or not line.endswith(_SOURCES):
            continue
        path = os.path.normpath(line)
        stamp = _stamp(path)
        if stamp is None:
            continue
        before = kept.get(path)
        record[path] = before if before is not None and before[0] == stamp else _entry(path, stamp)
    return record


def _entry(path: str, stamp: list[int]) -> tuple[list[int], str]:
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        return stamp, ""
    return stamp, _said(data)


def _said(data: bytes) -> str:
    """The hash of a text that declares globals; "" for a module that does not."""
    text = data.decode("utf-8", "replace")
    if _MODULE.search(text) and not _GLOBAL.search(text):
        return ""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _moved(path: str, stamp: list[int], said: str) -> bool:
    """Whether the global file at `path` (its `stamp` and text's hash `said` at the last
    run) is gone or holds another text: read again where its stamp moved (a held text
    written anew may be the same)."""
    now = _stamp(path)
    if now is None or said == UNSURE:
        return True
    if now == stamp:
        return False
    try:
        return _said(Path(path).read_bytes()) != said
    except OSError:
        return True


def _globals(record: Record) -> dict[str, str]:
    return {path: said for path, (_, said) in record.items() if said}


def _stamp(path: str) -> list[int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return [found.st_size, found.st_mtime_ns, found.st_ino, found.st_ctime_ns]


def _read(path: Path) -> Record | None:
    """The record of the last run; None where none is whole (its build state then trusted
    for nothing)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(p): (list(stamp), str(said)) for p, (stamp, said) in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return None
