"""What the own files of a TypeScript 7 program say of their syntax, kept per file and renewed
for the files changed since: where tsc stops.

tsc (TypeScript 7's `tsc -p`) reports a program's syntax errors alone while any of its files
has one, so one file's answer depends on every other file's syntax, and TypeScript 7's LSP
(`tsc --lsp`) says nothing of that. The program's files and their syntax errors come first
from `tsc -p --listFilesOnly` (it parses every file and stops: 3.3-3.5 s for effect 4.1's 572
files at load 3-4, ~2 CPU s; the daemon's whole check starts it beside its own: `prime`).
Afterwards only the files changed since are looked at again: those the watcher saw change
(after its catch-up), or without one every file's (mtime, size); a changed text (its digest)
is parsed alone by tsc's parser (`tsc_native.parsed_errors`: ~10 ms of tsc for one file).
The list is made again when a tsconfig, jsconfig or package.json changed (or a configuration
the tsconfig extends, whatever its name), or a script it does not list came
(`Workspace.changed_at`), and without a watcher at every question. The own files are the
program's under the root outside node_modules (a library's syntax error stops no check:
lspd's tsserver plugin's `own`), and its JSON modules wherever they are: `tsc -p` with
one unclosed says its TS1005 alone (7.0.2, exit 1), a stop as a source's (`engine/stops.py`);
a JSON file that is no file of the program (its tsconfig, one it extends) is the
configuration's (`configuration`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import weakref
from collections.abc import Awaitable, Collection, Container, Coroutine, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from lspd.engine.builders import library_file, tsconfig_of
from lspd.engine.config_stops import parsing
from lspd.lsp.session import Session
from lspd.workspace import Workspace, question
from lspd.workspace.files import read_text, stamp
from lspd.workspace.scope import files_found, solution_of
from lspd.workspace.toolchain import NATIVE
from lspd.workspace.tsc_native import ConfigError, listed, parsed_errors
from lspd.workspace.tsconfig_extends import Stamps, configured_stamps, extended_by

Stamp = tuple[int, int] | None
T = TypeVar("T")
Programmed = tuple[list[str], list[Path]]  # a tsconfig's compiler and files (`configs_of`)
_running: set[asyncio.Task[Any]] = set()  # `background` work not yet done
log = logging.getLogger(__name__)
Errors = tuple[ConfigError, ...]
KEPT = 256  # texts whose parse is kept (all forgotten past that)
_parsed: dict[tuple[Path, str], Errors] = {}  # (file, its text's digest) -> its syntax errors
# A file whose mtime is this close to the start of tsc's run (or later) may have been read in
# either state: parsed again (the kernel's file clock is coarser than `time.time_ns`).
SLACK_NS = 1_000_000_000
_EVERYTHING = ("tsconfig", "jsconfig", "package.json")  # a change of the program's files
NO_INPUTS = "18003"  # tsc's "No inputs were found in config file"
DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")  # a library's checked files (not its scripts)
SCRIPTS = {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}


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
    mark: int | None  # the watcher's count of changes then (None: no watcher)
    found: tuple[int, int]  # `scope.files_found` then (files came or went since: not a sed -i)
    started: float  # when its listing started (`time.monotonic`)
    renewed: int | None = None  # the watcher's count up to which every file's entry is right
    ran: bool = True  # tsc ran (it listed a file, a library's too, or said a coded error)
    config: Stamps | None = None  # the tsconfig's and those it extends when its listing started
    said: Errors = ()  # what that listing said of configuration files (`configuration`)
    data: frozenset[Path] = frozenset()  # the JSON modules it reads under the root (`read_data`)
    extends: frozenset[Path] = frozenset()  # the configurations its tsconfig extends then
    libraries: tuple[Path, ...] = ()  # a package's .d.ts, TypeScript's: `native_libraries`


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
    # its configuration's options errors when no file has a syntax error (`config_stops`):
    # they stop its semantic check (tsc says them and nothing of its files)
    configured: Errors = ()


async def program_state(
    ws: Workspace,
    tsc: list[str],
    config: Path,
    texts: Mapping[Path, str | None] | None = None,
    since: float | None = None,
    clean: Collection[Path] = (),
) -> State:
    """`config`'s program as tsc reads it with `texts` held (file -> its text, None: gone;
    the disk's for the rest): a held file under `config` not on its list counts as one of
    its files (a new file it includes), and is parsed by its held text (`parsed`) unless it
    is `clean` (its server said no item of the parser's codes of it: no syntax error).
    `since`: a listing started then or later stands without a watcher (`program_of`)."""
    program = await program_of(ws, tsc, config, since)
    texts = texts or {}
    listed = set(program.files)

    def ours(path: Path) -> bool:  # a JSON not listed: no module the program imports
        if path in listed:
            return True
        return path.suffix != ".json" and _own(ws, path) and tsconfig_of(ws, path) == config

    held = {path: text for path, text in texts.items() if text is not None and ours(path)}
    errors = await parsed(tsc, {p: text for p, text in held.items() if p not in clean})
    return _state(program, held, texts, errors)


def _state(
    program: Program, held: Iterable[Path], texts: Container[Path], errors: Mapping[Path, Errors]
) -> State:
    """`program` with the `held` files (new ones last), each file of `texts` said its
    `errors` (none when not there) instead of the disk's."""
    files = (*program.files, *(p for p in held if p not in program.files))
    broken: dict[Path, Errors] = {}
    for path in files:
        known = program.known.get(path)
        found = errors.get(path, ()) if path in texts else known.errors if known else ()
        if found:
            broken[path] = found
    options = () if broken else tuple(e for e in program.said if not parsing(e))
    return State(files, broken, options)


def settled(ws: Workspace, config: Path, since: float) -> State | None:
    """`config`'s program on disk as read by a reading that started at `since` or later,
    once it is done; None before (nothing is waited for or read here)."""
    programs = _programs.get(ws)
    if programs is None or (program := programs.kept.get(config)) is None:
        return None
    lock = programs.locks.get(config)
    if program.started < since or (lock is not None and lock.locked()):
        return None
    return _state(program, (), (), {})


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


async def program_of(
    ws: Workspace, tsc: list[str], config: Path, since: float | None = None
) -> Program:
    """`config`'s program as it is on disk now (`tsc`: the compiler's argv before its
    arguments): what was kept, its files changed since parsed again; listed anew by `tsc -p`
    when it cannot be reused (without a watcher, unless it started at `since` or later: a
    one-shot check's, `prime`d as it began; or since the question began: `workspace.
    question`). One question at a time per program: the next reuses it."""
    programs = _programs.setdefault(ws, _Programs())
    if since is None and ws.changes_seen is None:
        since = question.began()
    async with programs.locks.setdefault(config, asyncio.Lock()):
        program = programs.kept.get(config)
        listed = program is not None and since is not None and program.started >= since
        if program is None or not (listed or _reusable(ws, program)):
            program = await _listed(ws, tsc, config)
            if program.ran:  # tsc did not run (a timeout under load): listed again next time
                programs.kept[config] = program
        await _renewed(ws, tsc, program)
        return program


def _reusable(ws: Workspace, program: Program) -> bool:
    """Whether `program`'s files are still the program's: a watcher says no configuration
    changed since it was listed, and no script it does not list came (files came or went,
    and such a script changed)."""
    if ws.changes_seen is None or (mark := program.mark) is None:
        return False
    listed, came = set(program.files), program.found != files_found(ws)

    def moves(path: Path) -> bool:
        if any(name in path.name for name in _EVERYTHING) or path in program.extends:
            return True
        return came and path.suffix in SCRIPTS and path not in listed and _own(ws, path)

    return not any(count > mark and moves(path) for path, count in ws.changed_at.items())


def _standing(ws: Workspace, program: Program) -> bool:
    """Whether `program`'s listing stands: a watcher says its files are still the program's
    (`_reusable`), or without one it was made within the running question."""
    if _reusable(ws, program):
        return True
    asked = question.began() if ws.changes_seen is None else None
    return asked is not None and program.started >= asked


async def _listed(ws: Workspace, tsc: list[str], config: Path) -> Program:
    """The program `tsc -p config --listFilesOnly` reads, with every file's syntax errors."""
    mark, found = ws.changes_seen, files_found(ws)
    configured = configured_stamps(config)
    began, started = time.monotonic(), time.time_ns()
    files, errors = await asyncio.to_thread(listed, tsc, config)
    own = tuple(p for p in files if _own(ws, p))
    libs = tuple(p for p in files if library_file(ws, p) and p.name.endswith(DECLARATIONS))
    ws.follow((p for p in files if "node_modules" not in p.parts), read=True)  # a linked build
    by_file: dict[Path, list[ConfigError]] = {}
    for error in errors:
        if error.code and error.file in own:
            by_file.setdefault(error.file, []).append(error)
    known = {}
    for path in own:
        now = stamp(path)
        if now is not None and now[0] < started - SLACK_NS:  # as tsc read it
            known[path] = _Known(now, None, tuple(by_file.get(path, ())))
    ran = bool(files) or any(error.code for error in errors)
    said = tuple(e for e in errors if e.file.suffix == ".json" and e.file not in own)
    data = frozenset(p for p in files if p.suffix == ".json" and p.is_relative_to(ws.root))
    extends = frozenset(extended_by([config], read_text))  # settings.json: its `include` too
    return Program(own, known, mark, found, began, mark, ran, configured, said, data, extends, libs)


def read_data(ws: Workspace, config: Path) -> frozenset[Path] | None:
    """The JSON files under the root that `config`'s program reads (`resolveJsonModule`),
    from its listing where it is kept and stands (`_standing`: one made within the running
    question without a watcher); None when none is at hand (no run made for it)."""
    kept = _programs.get(ws, _Programs()).kept.get(config)
    return kept.data if kept is not None and _standing(ws, kept) else None


async def configuration(ws: Workspace, tsc: list[str], config: Path) -> Errors:
    """What `tsc -p config` says of the configuration files (`config`, one it extends: options
    TypeScript 7 removed, no inputs, ...), from its program's listing made while `config`
    and the configurations it extends were as they are now (`prime`'s, waited for while it
    runs), else from a listing made now and kept as the program's: the check's
    configuration errors (`ops/tsconfig.py`) and its syntax come of one `tsc -p
    --listFilesOnly` (~2 CPU s on effect 4.1's 572 files)."""
    programs = _programs.setdefault(ws, _Programs())
    now = configured_stamps(config)
    async with programs.locks.setdefault(config, asyncio.Lock()):
        program = programs.kept.get(config)
        stale = program is None or not _said_stands(ws, program)
        if stale or now is None or program is None or program.config != now:
            program = await _listed(ws, tsc, config)
            if program.ran:
                programs.kept[config] = program
        return program.said


def _said_stands(ws: Workspace, program: Program) -> bool:
    """Whether what `program`'s listing said of its configuration stands. tsc's errors of a
    configuration depend on which files exist too (a `files` entry gone: TS6053; an
    `include` matching none: TS18003; an input over an output: TS5055), so without a watcher
    it is listed again once files came or went; with one, only when a configuration changed
    or a script it does not list came (`_reusable`), one it lists is gone, or it said no
    input was found: a file written anew (git apply: every patch) listed every file again."""
    if program.found == files_found(ws):
        return True
    if not _reusable(ws, program) or any(e.code == NO_INPUTS for e in program.said):
        return False
    listed, mark = set(program.files), program.mark or 0
    return all(p.exists() for p, count in ws.changed_at.items() if count > mark and p in listed)


async def _renewed(ws: Workspace, tsc: list[str], program: Program) -> None:
    """The files of `program` changed since they were last read, read and parsed again: with
    a watcher, those it saw change since (after its catch-up, every change made before the
    question: 572 stats cost 4-16 ms at load 8), else every file's stamp is looked at."""
    mark, since = ws.changes_seen, program.renewed
    paths: Iterable[Path] = program.files
    if mark is not None and since is not None:
        listed = set(program.files)
        changed = {p for p, count in ws.changed_at.items() if count > since and p in listed}
        paths = [p for p in program.files if p in changed or p not in program.known]
    program.renewed = mark
    texts: dict[Path, tuple[Stamp, str, str]] = {}
    for path in paths:
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


def prime(ws: Workspace, tsc: list[str], config: Path) -> None:
    """`config`'s program read in the background unless it is kept and still its files, or
    being read (the daemon's whole check: one file's question then finds it read)."""
    programs = _programs.setdefault(ws, _Programs())
    kept, lock = programs.kept.get(config), programs.locks.get(config)
    if (kept is not None and _standing(ws, kept)) or (lock is not None and lock.locked()):
        return
    background(quietly(program_of(ws, tsc, config), config))


async def quietly(reading: Awaitable[T], config: Path) -> T | None:
    """What `reading` reads of `config`'s program; None, logged, when it failed (nothing is
    known then)."""
    try:
        return await reading
    except Exception:
        log.warning("could not read the syntax of %s's program", config, exc_info=True)
        return None


def background(work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """`work` started as a task that is held until it is done (a task nobody holds may be
    collected before it ends)."""
    task = asyncio.create_task(work)
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


def configs_of(ws: Workspace, sessions: Mapping[Path, Session]) -> dict[Path, Programmed]:
    """The tsconfigs of the files of `sessions` that TypeScript 7 answers: each one's
    compiler (`compiler`) and files (`builders.tsconfig_of`, looked up once per folder and
    solution layout's program: Vite's root folder holds app.ts of tsconfig.app.json and
    vite.config.ts of tsconfig.node.json; looked up by the folder's first file alone, the
    latter was taken for the app's program, and its syntax error stopped nothing)."""
    found: dict[Path, Programmed] = {}
    configs: dict[tuple[Path, Path | None, Path | None], Path | None] = {}
    nearest: dict[Path, Path | None] = {}  # each folder's nearest configuration
    compilers = {s: compiler(s) for s in set(sessions.values())}  # each a PATH lookup
    solution = solution_of(ws)
    for path, session in sessions.items():
        key = path.parent, solution.owners.get(path), solution.held.get(path)
        if key not in configs:
            configs[key] = tsconfig_of(ws, path, nearest)
        if (config := configs[key]) is not None and (tsc := compilers[session]):
            found.setdefault(config, (tsc, []))[1].append(path)
    return found


def compiler(session: Session) -> list[str] | None:
    """The argv of the TypeScript 7 compiler `session` runs (before its arguments); None:
    it runs no TypeScript 7 (asked first by name: a PATH lookup costs every TypeScript 5
    question otherwise)."""
    if session.definition.name != NATIVE:
        return None
    command = session.definition.resolved_command()
    return command[: command.index("--lsp")] if "--lsp" in command else None


def _own(ws: Workspace, path: Path) -> bool:
    """Whether a file of a program is its own: under the root, outside node_modules; a JSON
    module wherever it is (above the root, in a package: its syntax error stops tsc -p as a
    source's, `defaults.json(2,1): error TS1005` alone)."""
    if path.suffix == ".json":
        return True
    if not path.is_relative_to(ws.root):
        return False
    return "node_modules" not in path.relative_to(ws.root).parts
