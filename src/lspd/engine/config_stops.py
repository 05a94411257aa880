"""A check that stopped at its configuration: tsc's errors of a program's options, which stop
its semantic check as a syntax error does.

tsc (TypeScript 5's `emitFilesAndReportErrors`, TypeScript 7's `tsc -p` alike) says a
program's configuration-PARSING errors first (TS5023 unknown option, TS6046 wrong value, the
JSON's own syntax), then its files' syntax errors; only when there is none, the program's
OPTIONS and GLOBAL diagnostics (TS5108/TS5102 removed options, TS5110, TS6053 a `files`
entry not found, TS2688 a type library not found, ...); and only when those add nothing, its
SEMANTIC errors. So 7.0.2 with `"moduleResolution": "node10"` and a TS2322 in src/a.ts says
TS5108 alone (exit 1), and one with an unknown option says both TS5023 and the TS2322.
`tsc -p --listFilesOnly` (`engine/native_program.py`, `ops/tsconfig.py`) says the parsing
and the options errors alike, so they are told apart here by their codes: the parsing ones
are those of TypeScript's `commandLineParser` (TypeScript 7's `tsoptions` says the same),
a TS6053 among them only when it points into the configuration (an `extends` not found),
not a `files` entry's (said without a place, "The file is in the program because: ...").

The check's configuration errors are those its configurations' listings said (`noted` by
`ops/tsconfig.py` as it makes their results); `config_stopped` then makes the whole check's
answer tsc's: each program one of whose configuration's options errors stands says none of
its files' errors, and is a `Stop` (`engine/stops.py`: the baseline's errors of its files
were not checked; its `read` empty: no syntax error was read); a program that a syntax error
stopped says no options error (its listing said some before the edit that broke a file).
`tsc --showConfig` says the parsing errors alone on 5.9.3, but nothing on 7.0.2.
"""

from __future__ import annotations

import json
import os
import weakref
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from lspd.engine.builders import tsconfig_of
from lspd.engine.check_files import Answers, Said
from lspd.engine.results import Diagnosed, FileResult
from lspd.engine.stops import TSC, Stop
from lspd.lsp import shapes
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.tsc_copy import TscError
from lspd.workspace.tsc_native import ConfigError
from lspd.workspace.tsconfig_extends import extends_of, plain_json, resolve

R = TypeVar("R", bound=FileResult)
Where = tuple[str, int, int, str]  # an error's file (as shown), line, column and code

# The errors TypeScript's configuration parser says (5.9.3's commandLineParser: errors of
# unknown or ill-typed options, file specifications, reading and `extends`), which stop
# nothing: the program is checked with them.
PARSING = frozenset(
    {
        1136, 1327, 1328, 5010, 5012, 5023, 5024, 5025, 5065, 5072, 5073, 5077, 5078, 5079,
        5080, 5083, 5092, 5093, 5094, 6044, 6045, 6046, 6053, 6064, 6114, 6230, 6258, 6266,
        6369, 6370, 17010, 17018, 18000, 18002, 18003, 18051,
    }
)  # fmt: skip
FILE_NOT_FOUND = "6053"
_SAID = "tsc -p "  # a file's answer in another program of its layout: `program_said`


def parsing(error: ConfigError) -> bool:
    """Whether `error` is one of the configuration's parsing errors (tsc says them whatever
    else it says), not one of its program's options (they stop its semantic check). The
    JSON's syntax (TS1xxx) is the parser's; a TS6053 with its reason ("The file is in the
    program because:") is a `files` entry's, the program's."""
    code = int(error.code) if error.code.isdigit() else 0
    if error.code == FILE_NOT_FOUND:
        return "\n" not in error.message
    return code in PARSING or 1000 <= code < 2000


@dataclass
class _Noted:
    """The errors each configuration's listing said at the workspace's last check: those of
    `ops/tsconfig.py` (the servers' folders' and TypeScript 5's tsconfigs) and those of a
    solution's referenced programs (`engine/solution_check.py`)."""

    checked: dict[Path, tuple[ConfigError, ...]] = field(default_factory=dict)
    solution: dict[Path, tuple[ConfigError, ...]] = field(default_factory=dict)


_noted: weakref.WeakKeyDictionary[Workspace, _Noted] = weakref.WeakKeyDictionary()


def noted(
    ws: Workspace, errors: Mapping[Path, Sequence[ConfigError]], solution: bool = False
) -> None:
    """The check's configurations (tsconfig -> what its listing said of configuration
    files), as `ops/tsconfig.py` made their results (a solution's referenced programs':
    `solution`)."""
    said = {config: tuple(found) for config, found in errors.items()}
    if solution:
        _noted.setdefault(ws, _Noted()).solution = said
    else:
        _noted.setdefault(ws, _Noted()).checked = said


def options_errors(ws: Workspace) -> dict[Path, tuple[ConfigError, ...]]:
    """Each configuration of the last check with its options errors (those that stop its
    program's semantic check), the configurations without any left out."""
    noted = _noted.get(ws, _Noted())
    found = {**noted.solution, **noted.checked}
    said = {c: tuple(e for e in errors if not parsing(e)) for c, errors in found.items()}
    return {config: errors for config, errors in said.items() if errors}


def files_gone(ws: Workspace, results: Iterable[FileResult], gone: Iterable[Path]) -> list[Path]:
    """The configurations of `results` (the work tree's check) whose TS6053 names a file of
    `gone` (deleted since a commit, a `files` entry): the disk's listing said it, so their
    programs at the commit are not the work tree's (tsc -p on a copy says them then). A
    source file's TS6053 (a `/// <reference path>` to a gone file) is no configuration's."""
    said = {f"File '{path}' not found." for path in gone}
    if not said:  # nothing gone: no diagnostic to look at (~350,000 on SQLAlchemy)
        return []
    return [
        ws.resolve(r.path)
        for r in results
        if r.path.endswith(".json")
        and any(
            d.code == FILE_NOT_FOUND and d.message.split("\n")[0] in said for d in r.diagnostics
        )
    ]


def files_named(configs: Iterable[Path], made: Collection[Path]) -> list[Path]:
    """`files_gone`'s reverse: the tsconfigs of `configs` whose `files` name a file of
    `made` (absent at a commit, made since). tsc -p said TS6053 of it at the commit and
    nothing else of the program, where the work tree's program holds the file: their
    programs at the commit are not the work tree's with the file held absent."""
    return [c for c in configs if not (_files_of(c) or set()).isdisjoint(made)] if made else []


def _files_of(config: Path, within: frozenset[Path] = frozenset()) -> set[Path] | None:
    """The files `config`'s `files` names (None: it has none): its own, else those of the
    configurations it extends, the last of an `extends` list first (tsc: a later one
    overrides an earlier; a chain's nearest wins), relative to the one naming them."""
    text = read_text(config) or ""
    try:
        body = json.loads(plain_json(text))
    except ValueError:
        return None  # tsc says that one's error; it names no file here
    named = body.get("files") if isinstance(body, dict) else None
    if isinstance(named, list):
        return {Path(os.path.normpath(config.parent / n)) for n in named if isinstance(n, str)}
    seen = within | {config}
    for name in reversed(extends_of(text)):
        target = resolve(name, config.parent, read_text)
        found = None if target is None or target in seen else _files_of(target, seen)
        if found is not None:  # `"files": []` too: it overrides an earlier one's
            return found
    return None


def copy_stop(ws: Workspace, files: Iterable[Path], said: Sequence[TscError]) -> Stop | None:
    """tsc's stop at its program's options errors among the configuration errors `said` of
    its run on a copy (`workspace/tsc_copy.Checked.configs`) whose program is `files`: none
    of its files' semantic errors said, none read (None: only parsing errors, or none)."""
    stopping = [
        e for e in said if not parsing(ConfigError(e.file, e.line, e.column, e.code, e.message))
    ]
    if not stopping:
        return None
    at = sorted({(ws.display(e.file), e.line) for e in stopping})
    return Stop(TSC, tuple(at), frozenset(map(ws.display, files)), frozenset())


def global_stop(ws: Workspace, config: Path, listing: Sequence[ConfigError]) -> bool:
    """Whether TypeScript 5's builder's last check stopped `config`'s program at its options
    or global diagnostics (`tsbuilder_check.cjs` `configured`) where its listing (`listing`:
    the builder's, `builders.listed`, or `tsc -p --listFilesOnly`'s) holds no options
    error: its global ones (TS2318 "Cannot find global type 'Array'." of `"lib": []` or
    `"noLib": true`), which the listing stops before. tsc says them (without a place) and
    nothing else of the program."""
    if any(not parsing(e) for e in listing):
        return False
    projects = (b.projects.get(config) for b in ws.builders.values())
    return any(p is not None and p.configured for p in projects)


def program_said(ws: Workspace, config: Path) -> Said:
    """Who says a file's errors in another program of its solution-style layout than its own
    (`engine/solution_check.py`): `tsc -p CONFIG`, that program (`_program` reads it back)."""
    return Said(f"{_SAID}{ws.display(config)}", None, "utf-16")


def config_stopped(
    ws: Workspace, results: list[R], stops: list[Stop], answers: Answers[R]
) -> list[R]:
    """`results` (the files' and the configuration files', a file of two programs one
    result each, not yet merged) as tsc says them: a program stopped at a syntax error (a
    stop of `stops` holding its files) says none of its configuration's options errors; one
    stopped at them says no error of its files (a file's result in another program, that
    program's part, stays), and its stop is added to `stops` (unless TypeScript 5's
    builder said it)."""
    stopping = options_errors(ws)
    if not stopping:  # most checks: no file's program looked up (SQLAlchemy's 255: 50-165 ms)
        return list(results)
    places = {ws.display(e.file) for errors in stopping.values() for e in errors}
    of = {id(r): _program(ws, r) for r in results if r.path not in places}
    dropped: set[Where] = set()
    kept: set[Where] = set()
    emptied: set[Path] = set()
    for config, errors in stopping.items():
        program = {r.path for r in results if id(r) in of and of[id(r)] == config}
        where = {(ws.display(e.file), e.line, e.column, e.code) for e in errors}
        if any(s.checker == TSC and s.read and not s.files.isdisjoint(program) for s in stops):
            dropped |= where  # tsc stopped at the syntax errors before the options
            continue
        kept |= where
        emptied.add(config)
        if any(not s.read and s.files.issuperset(program) for s in stops if s.checker == TSC):
            continue  # TypeScript 5's builder said it (`builders.options_stop`)
        at = sorted({(ws.display(e.file), e.line) for e in errors})
        stops.append(Stop(TSC, tuple(at), frozenset(program), frozenset()))
    dropped -= kept  # an extended configuration's error that another program says
    answered = []
    for result in results:
        if id(result) in of and of[id(result)] in emptied:
            answered.append(_empty(ws, result, answers))
        elif id(result) in of:
            answered.append(result)
        elif (left := _without(ws, result, dropped, answers)) is not None:
            answered.append(left)
    return answered


def _program(ws: Workspace, result: FileResult) -> Path | None:
    """The configuration of the program `result` is its file's answer in: another program's
    of its layout (`program_said`), else its own (`builders.tsconfig_of`: a nearer folder's
    jsconfig.json too: jotai's website/*.js were taken for the root tsconfig's program, so
    its TS5102 stopped none of them)."""
    if result.server.startswith(_SAID):
        return ws.resolve(result.server.removeprefix(_SAID))
    return tsconfig_of(ws, ws.root / result.path)


def _empty(ws: Workspace, result: R, answers: Answers[R]) -> R:
    """`result`'s file said no error (its server and toolchain named still)."""
    if not result.diagnostics:
        return result
    said = Said(result.server, result.toolchain, "utf-32")
    return answers.of_items(said, ws.root / result.path, [])


def _without(ws: Workspace, result: R, dropped: set[Where], answers: Answers[R]) -> R | None:
    """A configuration file's `result` without the `dropped` errors (None: none left)."""
    left = [
        d
        for d in result.diagnostics
        if (result.path, d.line, d.column, d.code or "") not in dropped
    ]
    if len(left) == len(result.diagnostics):
        return result
    if not left:
        return None
    said = Said(result.server, result.toolchain, "utf-32")  # columns in code points
    return answers.of_items(said, ws.root / result.path, [_item(d) for d in left])


def _item(diagnostic: Diagnosed) -> shapes.Diagnostic:
    """A configuration's error as tsc's LSP item (columns in code points)."""
    start: shapes.Position = {"line": diagnostic.line - 1, "character": diagnostic.column - 1}
    end: shapes.Position = {
        "line": diagnostic.end_line - 1,
        "character": diagnostic.end_column - 1,
    }
    item: shapes.Diagnostic = {
        "range": {"start": start, "end": end},
        "severity": 1 if diagnostic.severity == "error" else 2,
        "source": diagnostic.source or "ts",
        "message": diagnostic.message,
    }
    if diagnostic.code is not None:
        item["code"] = int(diagnostic.code) if diagnostic.code.isdigit() else diagnostic.code
    return item
