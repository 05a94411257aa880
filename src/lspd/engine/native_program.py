"""What the own files of a TypeScript 7 program say of their syntax, kept per file and renewed
for the files changed since: where tsc stops.

tsc (TypeScript 7's `tsc -p`) reports a program's syntax errors alone while any of its files
has one, so one file's answer depends on every other file's syntax, and TypeScript 7's LSP
(`tsc --lsp`) says nothing of that. The program's files and their syntax errors come first
from `tsc -p --listFilesOnly` (it parses every file and stops: 3.3-3.5 s for effect 4.1's 572
files at load 3-4); afterwards each file's (mtime, size) is compared with what was kept, and
only the files changed since are parsed again, alone, by tsc's parser
(`tsc_native.parsed_errors`: ~10 ms of tsc for one file), when their text's digest changed.
The list of files is made again when files came or went, a tsconfig, jsconfig or package.json
changed (`Workspace.changed_at`), or without a watcher at every question. The own files are
the program's outside node_modules (libraries' and the default library's syntax errors stop
no check: lspd's tsserver plugin's `own`); a JSON file's are not source errors.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.builders import tsconfig_of
from lspd.lsp.session import Session
from lspd.workspace import Workspace
from lspd.workspace.files import read_text, stamp
from lspd.workspace.tsc_native import ConfigError, listed, parsed_errors

Stamp = tuple[int, int] | None
Errors = tuple[ConfigError, ...]
KEPT = 256  # texts whose parse is kept (all forgotten past that)
_parsed: dict[tuple[Path, str], Errors] = {}  # (file, its text's digest) -> its syntax errors
# A file whose mtime is this close to the start of tsc's run (or later) may have been read in
# either state: parsed again (the kernel's file clock is coarser than `time.time_ns`).
SLACK_NS = 1_000_000_000
_EVERYTHING = ("tsconfig", "jsconfig", "package.json")  # a change of the program's files


@dataclass
class _Known:
    """A file's syntax errors as its text was when its stamp was taken (`digest`: of that
    text, None when tsc read it and lspd did not)."""

    stamp: Stamp
    digest: str | None
    errors: Errors


@dataclass
class Program:
    """A tsconfig's program: its own files in tsc's order, and what is known of their syntax."""

    files: tuple[Path, ...]
    known: dict[Path, _Known]
    generation: int  # the workspace's `projects.generation` when it was listed
    mark: int | None  # the watcher's count of changes then (None: no watcher)


@dataclass
class _Programs:
    kept: dict[Path, Program] = field(default_factory=dict)
    locks: dict[Path, asyncio.Lock] = field(default_factory=dict)


_programs: weakref.WeakKeyDictionary[Workspace, _Programs] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class State:
    """A program in one state (the disk's, or with some texts held): its own files in tsc's
    order (held new files last), and those with syntax errors, in that order."""

    files: tuple[Path, ...]
    broken: dict[Path, Errors]


async def program_state(
    ws: Workspace, tsc: list[str], config: Path, texts: Mapping[Path, str | None] | None = None
) -> State:
    """`config`'s program as tsc reads it with `texts` held (file -> its text, None: gone;
    the disk's for the rest): a held file under `config` not on its list counts as one of
    its files (a new file it includes), and is parsed by its held text (`parsed`)."""
    program = await program_of(ws, tsc, config)
    texts = texts or {}
    listed = set(program.files)

    def ours(path: Path) -> bool:
        return path in listed or (_own(ws, path) and tsconfig_of(ws, path) == config)

    held = {path: text for path, text in texts.items() if text is not None and ours(path)}
    errors = await parsed(tsc, held)
    files = (*program.files, *(p for p in held if p not in program.files))
    broken: dict[Path, Errors] = {}
    for path in files:
        known = program.known.get(path)
        found = errors.get(path, ()) if path in texts else known.errors if known else ()
        if found:
            broken[path] = found
    return State(files, broken)


async def parsed(tsc: list[str], texts: Mapping[Path, str]) -> dict[Path, Errors]:
    """Each text's syntax errors by tsc's parser, the file alone (`tsc_native.parsed_errors`:
    a checker's grammar error of the parser's codes is none), kept per text."""
    keys = {path: (path, digest(text)) for path, text in texts.items()}
    found = {path: _parsed[key] for path, key in keys.items() if key in _parsed}
    missing = {path: texts[path] for path in keys if path not in found}
    if missing:
        errors = await asyncio.to_thread(parsed_errors, tsc, missing)
        for path in missing:
            found[path] = tuple(e for e in errors if e.file == path)
        if len(_parsed) + len(missing) > KEPT:
            _parsed.clear()
        _parsed.update((keys[path], found[path]) for path in missing)
    return found


def digest(text: str) -> str:
    """A text's digest, as the kept parses name it."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


async def program_of(ws: Workspace, tsc: list[str], config: Path) -> Program:
    """`config`'s program as it is on disk now (`tsc`: the compiler's argv before its
    arguments): what was kept, its files changed since parsed again; listed anew by `tsc -p`
    when it cannot be reused. One question at a time per program: the next reuses it."""
    programs = _programs.setdefault(ws, _Programs())
    async with programs.locks.setdefault(config, asyncio.Lock()):
        program = programs.kept.get(config)
        if program is None or not _reusable(ws, program):
            program = await _listed(ws, tsc, config)
            programs.kept[config] = program
        await _renewed(tsc, program)
        return program


def _reusable(ws: Workspace, program: Program) -> bool:
    """Whether `program`'s files are still the program's: a watcher says no file came or went
    and no configuration changed since it was listed."""
    mark = ws.changes_seen
    if mark is None or program.mark is None or program.generation != ws.projects.generation:
        return False
    return not any(
        count > program.mark and any(name in path.name for name in _EVERYTHING)
        for path, count in ws.changed_at.items()
    )


async def _listed(ws: Workspace, tsc: list[str], config: Path) -> Program:
    """The program `tsc -p config --listFilesOnly` reads, with every file's syntax errors."""
    generation, mark = ws.projects.generation, ws.changes_seen
    started = time.time_ns()
    files, errors = await asyncio.to_thread(listed, tsc, config)
    own = tuple(p for p in files if _own(ws, p))
    by_file: dict[Path, list[ConfigError]] = {}
    for error in errors:
        if error.code and error.file in own:
            by_file.setdefault(error.file, []).append(error)
    known = {}
    for path in own:
        now = stamp(path)
        if now is not None and now[0] < started - SLACK_NS:  # as tsc read it
            known[path] = _Known(now, None, tuple(by_file.get(path, ())))
    return Program(own, known, generation, mark)


async def _renewed(tsc: list[str], program: Program) -> None:
    """The files of `program` changed since they were last read, read and parsed again."""
    texts: dict[Path, tuple[Stamp, str, str]] = {}
    for path in program.files:
        now = stamp(path)
        kept = program.known.get(path)
        if kept is not None and kept.stamp == now:
            continue
        text = read_text(path) if now is not None else None
        if text is None:  # gone or unreadable: tsc will say so, not as a syntax error
            program.known[path] = _Known(now, None, ())
            continue
        named = digest(text)
        if kept is not None and kept.digest == named:
            kept.stamp = now
        else:
            texts[path] = now, named, text
    if texts:
        errors = await parsed(tsc, {path: text for path, (_, _, text) in texts.items()})
        for path, (now, named, _) in texts.items():
            program.known[path] = _Known(now, named, errors[path])


def compiler(session: Session) -> list[str] | None:
    """The argv of the TypeScript 7 compiler `session` runs (before its arguments); None:
    it runs no TypeScript 7."""
    command = session.definition.resolved_command()
    return command[: command.index("--lsp")] if "--lsp" in command else None


def _own(ws: Workspace, path: Path) -> bool:
    """Whether a file of a program is its own: under the root, outside node_modules, no JSON."""
    if path.suffix == ".json" or not path.is_relative_to(ws.root):
        return False
    return "node_modules" not in path.relative_to(ws.root).parts
