"""The kept result of a committed state: each gate file's diagnostics at one commit, saved
under the daemon's state directory so that a restart reuses it.

Kept per commit, toolchain (each server and the toolchain it ran, and lspd's own server
table) and configuration (the contents of the configurations the gate's scope read):
diagnostics only, never a program. A file that is unreadable, of another format version,
whose checksum fails or whose key is not the one asked for is never trusted: the caller
checks again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from lspd.engine.results import Diagnosed, FileResult
from lspd.engine.seen import FileSeen, Seen
from lspd.engine.stops import Stop
from lspd.workspace import Workspace
from lspd.workspace.pyright_baseline import BASELINE

PYRIGHT_CONFIGS = ("pyproject.toml", "pyrightconfig.json")  # a baseline beside them
log = logging.getLogger(__name__)

# The saved file's format; another one is recomputed (2: no stops; 3: a mypy stop named its
# targets alone, not the modules it follows, and dmypy's update stopped at one was none; 4:
# dmypy's update blocked past Python's parser, a `break` outside a loop, was none; 5: a JSON
# module a TypeScript program reads was held at the disk's text, not the commit's; 7: the
# errors of a solution-style layout's other program, tsc -p's, had a start and no end; 8: a
# mypy project's files reached through mypy_path or an editable .pth, outside `files`, were
# held at the disk's text, not the commit's, ed27b41; 9: a rename staged in the index (`git
# mv`) left the old path out of HEAD's state, which held the rename's own errors; 10: a
# TypeScript 7 file deleted with its folder since was held where `tsc --lsp` finds no open
# file, a folder not on disk: HEAD's state held its importers' TS2307, the deletion's own;
# 11: a module basedpyright's `exclude` keeps out, written while the daemon ran, was never
# resolved by its server: HEAD's state held its importer's phantom reportMissingImports;
# 12: mypy 1.x's errors of a dmypy update were a column wide, its JSON's none; and a mypy
# project's symlinked package folder was not in its copy: a phantom import-not-found; 13: a
# file flagged assume-unchanged or skip-worktree, edited, was no difference: a clean tree's
# HEAD result held the edit's errors; 14: a file a tsconfig's "files" lists, deleted since,
# was no difference: HEAD's state held the work tree's TS6053 and its stop, 4e2a3c2; 15:
# one made since, missing at HEAD, neither: HEAD's state lacked tsc's TS6053 and its stop;
# 16: a Python module's HEAD text was held only by the server process answering it (or
# mypy's copy), so an importer another process answers read the disk's new text there; 17:
# so did basedpyright's side of a Python part where mypy's configuration was edited too;
# 18: a TypeScript 5 file two gate programs hold, answered anew by its own declaring program
# but not by the other, lost the other's errors in a state of held texts (`overlaid._items`).
FORMAT = 18
KEEP_FILES = 4  # kept results saved per workspace (the newest ones)


@dataclass(frozen=True)
class StateKey:
    """What a kept result is valid for."""

    commit: str  # a commit's hash, or "session"
    toolchain: str  # a hash of the servers and toolchains that answered
    config: str  # a hash of the configurations' contents (at `commit`)
    # The configurations that differ from the disk's (`revisions.configs_then`): not part of
    # what it is valid for (no result can be made for them, `committed.made_state`).
    edited: tuple[Path, ...] = field(default=(), compare=False)

    def name(self) -> str:
        """The saved file's name."""
        whole = f"{self.commit}|{self.toolchain}|{self.config}"
        return f"{hashlib.sha256(whole.encode()).hexdigest()[:24]}.json"


@dataclass(frozen=True)
class KeptState:
    """Each checked file's diagnostics in the committed state (by path as shown)."""

    key: StateKey
    files: dict[str, FileSeen]
    made: float  # when it was made (time.time())
    asked: int  # files checked in that state (not taken from the work tree's check)
    servers: frozenset[tuple[str, str | None]] = frozenset()  # (name, toolchain) that answered
    # The checkers that stopped at syntax errors in that state (`engine/stops.py`): what
    # they did not check there is unknown, so not introduced when said now.
    stopped: tuple[Stop, ...] = ()
    # A part of it not made (a stop's `why`): the stamp of the edited configurations' texts
    # it stands for (`edits_stamp`), "" for a whole result. Never saved: once they change,
    # the part may be made, and the result is made again.
    unmade_under: str = ""

    def stands(self, key: StateKey) -> bool:
        """Whether it answers for `key` now: its key, and a part not made only while the
        configurations stay as they were edited."""
        return self.key == key and (not self.unmade_under or self.unmade_under == edits_stamp(key))

    def holds(self, results: Iterable[FileResult]) -> bool:
        """Whether each file of `results` (a check of the work tree) has the diagnostics
        it keeps, and no other file it keeps has any."""
        said = {r.path: [said_where(d) for d in r.diagnostics] for r in results}
        kept = {p: [said_where(d) for d in f.diagnostics] for p, f in self.files.items()}
        return all(kept.get(p, []) == rows for p, rows in said.items()) and not any(
            rows for p, rows in kept.items() if p not in said
        )


def standing(state: KeptState | None, clean: Iterable[FileResult] | None) -> KeptState | None:
    """`state`, unless the work tree is the commit's and its check (`clean`; None where a
    file or configuration differs) says other than the state does: that check is the
    commit's result now. A build git ignores that the gate reads, rebuilt since (swr's
    dist/, its tests importing the package by its name): HEAD's result made on an edited
    tree with the edit's build said the edit's new error of HEAD too, and once the tree was
    clean again and rebuilt, its kept result said that error fixed."""
    return None if state is None or (clean is not None and not state.holds(clean)) else state


def said_where(d: Diagnosed) -> tuple[object, ...]:
    """What one diagnostic says, where: what must agree for a file's result to be a kept
    one (its text unchanged)."""
    return (d.severity, d.code, d.message, d.line, d.column, d.end_line, d.end_column)


def stands_for(key: StateKey, stops: Iterable[Stop]) -> str:
    """What a result of these `stops` stands for (`KeptState.unmade_under`): "" (whole) unless
    one says a part was not made."""
    return edits_stamp(key) if any(stop.why for stop in stops) else ""


def edits_stamp(key: StateKey) -> str:
    """A stamp of the disk's texts of the configurations edited since `key`'s commit."""
    digest = hashlib.sha256()
    for path in key.edited:
        digest.update(f"\0{path}\0".encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"\0gone")
    return digest.hexdigest()[:24]


def toolchain_key(
    servers: Iterable[tuple[str, str | None]], environments: Iterable[str] = ()
) -> str:
    """The servers that answered (name, toolchain label with its version), lspd's own
    server table (each server's pinned version) and the Python environments' stamps
    (`tool_stamps.environments`: their packages and `.pth` files, which no label holds)."""
    table = resources.files("lspd.servers").joinpath("servers.toml").read_bytes()
    digest = hashlib.sha256(table)
    for name, toolchain in sorted(set(servers), key=str):
        digest.update(f"\0{name}\0{toolchain}".encode())
    for environment in environments:
        digest.update(f"\0environment\0{environment}".encode())
    return digest.hexdigest()[:24]


def environments_of(ws: Workspace) -> tuple[str, ...]:
    """The stamps of the Python environments `ws` runs (its projects' toolchains, mypy's
    interpreters: `tool_stamps.environments`) and of the files outside the root it follows
    (`Followed.stamp`: a linked package's build there), for `toolchain_key`. A build in the
    root is one of the work tree's sources, no change of the commit's toolchain: changesets'
    packages import each other's dist/, and rebuilt after a signature change, HEAD's result
    was made again with the edit's build and said the edit's 16 errors unchanged (rebuilt
    with no file changed, the check is HEAD's result: `standing`)."""
    interpreters = [daemon.interpreter for daemon in ws.pool.mypy.values()]
    found = ws.toolchains.stamps.environments(ws.toolchains.in_use(), interpreters)
    followed = ws.following.stamp(lambda path: ws.root not in path.parents)
    return (*found, f"followed {followed}") if followed else found


def config_key(configs: Iterable[Path], then: Mapping[Path, str | None] | None = None) -> str:
    """The contents of the configurations read (a missing one counts as missing); with
    `then`, those it holds at their text there (a baseline's: `revisions.configs_then`).
    Beside a pyright configuration, basedpyright's baseline file (`pyright_baseline`),
    read there whether or not it is edited: HEAD's result kept while it was as committed is
    the one compared with after its edit (else made again, its every file on a copy)."""
    digest = hashlib.sha256()
    then = then or {}
    read = set(configs)
    # (not beside one absent there: a configuration written since where there was none
    # keeps the commit's key, as its clean tree made it)
    read |= {
        p.parent.joinpath(*BASELINE)
        for p in configs
        if p.name in PYRIGHT_CONFIGS and not (p in then and then[p] is None)
    }
    # A file absent (then, or here and then) adds nothing: a clean tree's missing baseline
    # is one absent at the commit, and a pyrightconfig.json written where there was none
    # stamps the Makefile and hooks its pyright may be run by: the key stays the clean tree's.
    for path in sorted({*read, *then}):
        if path in then and then[path] is None:
            continue  # not there then: not read
        if path not in read and path.name == "package.json":
            continue  # held at the commit's text: the commit's key names it (clean tree's)
        if (text := then.get(path)) is not None:
            digest.update(f"\0{path}\0".encode() + text.encode())
            continue
        try:
            digest.update(f"\0{path}\0".encode() + path.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()[:24]


def save(folder: Path, state: KeptState) -> Path:
    """Write `state` into `folder` (atomically: a rename), keeping the newest few."""
    body = {
        "key": {k: getattr(state.key, k) for k in ("commit", "toolchain", "config")},
        "made": state.made,
        "asked": state.asked,
        "servers": sorted(state.servers, key=str),
        "files": [[f.path, [_row(d) for d in f.diagnostics]] for f in state.files.values()],
        "stopped": [
            [s.checker, [list(a) for a in s.at], sorted(s.files), sorted(s.read)]
            for s in state.stopped
        ],
    }
    text = json.dumps(body, separators=(",", ":"))
    whole = {"format": FORMAT, "checksum": _sum(text), "body": text}
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / state.key.name()
    partial = target.with_suffix(f".{os.getpid()}.part")
    try:
        partial.write_text(json.dumps(whole), "utf-8")
        partial.replace(target)
    finally:  # a full disk or an interrupted write leaves no part behind
        partial.unlink(missing_ok=True)
    saved = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in saved[KEEP_FILES:]:
        old.unlink(missing_ok=True)
    return target


def load(folder: Path, key: StateKey) -> KeptState | None:
    """The saved result for `key`, or None: absent, corrupt, of another format or key."""
    state = _read(folder / key.name())
    if state is not None and state.key != key:
        log.warning("kept result %s not trusted (another key): checked again", key.name())
        return None
    return state


def made_before(folder: Path, key: StateKey) -> KeptState | None:
    """The newest saved result of `key`'s commit and configuration that another toolchain
    made (mypy or basedpyright upgraded in the project's .venv, another
    node_modules/typescript), for the note to name the change after a restart as the live
    daemon names it (`committed_notes.retooled`); None when there is none. Read only when a
    result is made anyway (a whole check's time): a few saved files at most (`KEEP_FILES`)."""
    found = []
    for path in folder.glob("*.json"):
        if path.name == key.name() or (state := _read(path)) is None:
            continue
        if (state.key.commit, state.key.config) == (key.commit, key.config):
            found.append(state)
    return max(found, key=lambda state: state.made, default=None)


def _seen_reader() -> Callable[[list[Any]], Seen]:
    """A saved row as a `Seen`, its texts one object per distinct text: JSON makes each
    row's strings anew, and SQLAlchemy's 352,004 rows hold 2 severities, 73 codes, 33,039
    messages and 49,858 snippets (the result held 176 MB read, 63 MB shared)."""
    texts: dict[Any, Any] = {}
    share = texts.setdefault

    def seen(row: list[Any]) -> Seen:
        severity, code, message, line, column, end_line, end_column, source, snippet = row
        return Seen(
            share(severity, severity),
            share(code, code),
            share(message, message),
            line,
            column,
            end_line,
            end_column,
            share(source, source),
            share(snippet, snippet),
        )

    return seen


def _read(path: Path) -> KeptState | None:
    """The result saved in `path`, or None: absent, corrupt, of another format."""
    try:
        whole = json.loads(path.read_text("utf-8"))
        if whole.get("format") != FORMAT or whole.get("checksum") != _sum(whole["body"]):
            raise ValueError("format or checksum")
        body = json.loads(whole["body"])
        key = StateKey(**body["key"])
        seen = _seen_reader()
        files = {path: FileSeen(path, tuple(map(seen, rows))) for path, rows in body["files"]}
        servers = frozenset((str(name), toolchain) for name, toolchain in body["servers"])
        stopped = tuple(
            Stop(str(c), tuple((str(f), int(n)) for f, n in at), frozenset(fs), frozenset(rd))
            for c, at, fs, rd in body["stopped"]
        )
        return KeptState(key, files, float(body["made"]), int(body["asked"]), servers, stopped)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as error:
        log.warning("kept result %s not trusted (%s): checked again", path, error)
        return None


def _row(seen: Seen) -> list[object]:
    return list(asdict(seen).values())


def _sum(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
