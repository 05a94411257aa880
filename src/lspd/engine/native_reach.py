"""What a TypeScript 7 edit can reach: the files the whole-workspace check asks again.

TypeScript 7's LSP (`tsc --lsp`, 7.0.2) answers `textDocument/diagnostic` for any file of
its projects, opened or not, and keeps no result across an edit: every file asked after
one is checked again (a 572-file project: as long as the cold check). So, where lspd's
watcher runs (a daemon), the check (`engine/native_check.py`) asks again the edited files and
the files that can see them: those importing them, transitively, found by the names in
their module specifiers (`./util`, `../util.js`, `@app/util` all name `util`: more files
than `tsc --watch` re-checks, never fewer; tsconfig `paths` and package.json `imports`
aliases followed, and a workspace package's name, linked in node_modules or its own in its
files (a self-reference through `exports`), as its entry's: `engine/native_packages.py`);
an edit of `//` comment lines and blank lines only is asked alone.

A change it cannot place asks every file again (`placed`): a file added or removed, a
script, a `.d.ts` or a module's `declare global` (global declarations, before the edit or
after it), a tsconfig, package.json, a configuration a tsconfig extends under any name
(`tsconfig_extends.extended_by`) or anything in node_modules; and so does an edit changing
declarations in a project with an alias whose importers cannot be told by name (a wildcard
whose target's last part is another: `import_aliases` is None). An edit leaving the file's
declarations as they were (`native_declared`) asks it alone, like a comment's.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Collection, Container, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.native_packages import (
    own_packages,
    package_entries,
    strings,
    workspace_packages,
)
from lspd.engine.native_program import configs_of
from lspd.engine.source_shape import module, shape
from lspd.lsp.pragmas import Pragmas, implied
from lspd.lsp.session import Session
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.toolchain import NATIVE
from lspd.workspace.tsconfig_extends import extended_by

# from "x", import "x", import("x"), require("x"), /// <reference path="x": a literal first
# (the word boundary is looked at per match, in `import_names`), which the regex engine finds 9x
# faster than word boundaries before each keyword: effect's 21 MB of sources, 0.24 s of CPU
# instead of 2.1 s, spent before a cold check's first question.
_SPECIFIER = re.compile(
    r"(?:from|import\s*\(?|require\s*\(|/// <reference path=)\s*[\"']([^\"'\n]+)[\"']"
)
# A module's declarations every file of its program sees: `declare global { ... }`, and its
# augmentation of another module (`declare module "x" { ... }`: seen by that one's importers).
_GLOBAL = re.compile(r"^\s*declare\s+(?:global\b|module\s*[\"'])", re.MULTILINE)
_EXTENSIONS = re.compile(r"(?:\.d)?\.(?:[cm]?[jt]sx?|json)$")
# A wildcard's target naming a folder's index (`./src/*/index.ts`): the folder is the name.
_DIRECTORY = re.compile(r"\*/index(?:\.d)?\.[cm]?[jt]sx?$")
_EVERYTHING = ("tsconfig", "jsconfig", "package.json")
_PATHS = re.compile(r'"paths"\s*:\s*\{([^{}]*)\}')  # tsconfig's `paths` (JSON with comments)
_ENTRY = re.compile(r'"([^"]+)"\s*:\s*\[([^\]]*)\]')
_STRING = re.compile(r'"([^"]*)"')
_SOURCES = (".ts", ".tsx", ".mts", ".cts")
_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")


@dataclass
class NativeSeen:
    """The TypeScript 7 files of the last check: the names each one's imports use, the
    hash of its text without its `//` comment lines and blank lines, and its text (an
    edit's text before it: `native_declared`)."""

    changes: int  # the watcher's count of changes then
    names: dict[Path, frozenset[str]] = field(default_factory=dict)
    shapes: dict[Path, int] = field(default_factory=dict)
    texts: dict[Path, str] = field(default_factory=dict)  # TypeScript's sources alone
    wide: set[Path] = field(default_factory=set)  # declaring globals (`everywhere`)
    pragmas: dict[Path, Pragmas] = field(default_factory=dict)  # read since (`native_implied`)


def native(ws: Workspace, path: Path) -> Session | None:
    """The TypeScript 7 session answering `path`, if that is what answers it."""
    handler = ws.handler(path)
    if handler is None:
        return None
    definition, _ = ws.pool.adapted(handler, ws.project_root(path, handler))
    if definition.name != NATIVE or definition.unavailable:
        return None  # one that cannot run says so where it is asked one by one
    return ws.session_for(path)


def native_sessions(ws: Workspace, paths: Collection[Path]) -> dict[Path, Session]:
    """The TypeScript 7 session of each of `paths` that one answers."""
    # The files of a folder with one extension have one session: found once per folder (a
    # project root is looked up by stat-ing each folder above: 13,000 stats for 569 files).
    found: dict[tuple[Path, str], Session | None] = {}
    for path in paths:
        if (path.parent, path.suffix) not in found:
            found[path.parent, path.suffix] = native(ws, path)
    return {p: s for p in paths if (s := found[p.parent, p.suffix]) is not None}


def native_seen(
    ws: Workspace, sessions: dict[Path, Session], changes: int, seen: NativeSeen | None
) -> tuple[NativeSeen, set[Path], set[Path]]:
    """What this check sees of the TypeScript 7 files of `sessions`: what `seen` (the last
    check) saw of them, to complete with `read_imports` of the files unread (the third); the
    files changed since `seen` (the second)."""
    now = NativeSeen(changes)
    if seen is not None:
        now.names = {p: seen.names[p] for p in sessions if p in seen.names}
        now.shapes = {p: seen.shapes[p] for p in sessions if p in seen.shapes}
        now.texts = {p: seen.texts[p] for p in sessions if p in seen.texts}
        now.wide = {p for p in seen.wide if p in sessions}
    changed = {p for p, n in ws.changed_at.items() if seen is not None and n > seen.changes}
    unread = sessions.keys() - now.names.keys() | (changed & sessions.keys())
    return now, changed, unread


def native_edits(
    ws: Workspace,
    sessions: dict[Path, Session],
    changed: set[Path],
    seen: NativeSeen | None,
    now: NativeSeen,
) -> set[Path] | None:
    """The files of `changed` since `seen` (the last check) whose edit touched more than
    comments (`edited`); None where every file of `sessions` is asked again: the first check
    (`seen` None), a change not placed, or one of a configuration read under another name."""
    if seen is None or not placed(changed, sessions, seen) or _configuring(ws, changed, sessions):
        return None
    return edited(changed, seen, now)


def native_asked(
    ws: Workspace,
    sessions: dict[Path, Session],
    changed: set[Path],
    seeing: set[Path] | None,
    now: NativeSeen,
    kept: Container[Path],
) -> list[Path]:
    """The files of `sessions` to ask again: every one where `seeing` is None (`native_edits`),
    else the `changed` ones, those the edits importers can see (`seeing`: not those whose
    declarations are as they were) reach, and those without a `kept` result."""
    if seeing is None:
        return list(sessions)
    # importers are looked for only where declarations changed: a body edit in a project
    # whose aliases cannot be followed by name asks its file alone too
    aliases = import_aliases(ws, set(sessions.values())) if seeing else {}
    if aliases is None:
        return list(sessions)
    reached = changed | reach(seeing, now.names, aliases)
    return [p for p in sessions if p in reached or p not in kept]


def declared_alone(path: Path) -> bool:
    """Whether TypeScript emits `path`'s declarations from its text alone: a TypeScript
    source (not a `.d.ts`: global declarations, asked everywhere; not JavaScript, whose
    JSDoc types the checker reads); such a file's text is kept (`native_declared`)."""
    return path.name.endswith(_SOURCES) and not path.name.endswith(_DECLARATIONS)


def edited(changed: set[Path], seen: NativeSeen, now: NativeSeen) -> set[Path]:
    """The `changed` files whose edit touched more than `//` comments and blank lines."""
    return {p for p in changed if p not in seen.shapes or seen.shapes.get(p) != now.shapes.get(p)}


async def read_imports(paths: Iterable[Path], now: NativeSeen) -> None:
    """The module names each file uses and its shape (`import_names`, `shape`), in slices: the
    event loop goes on sending questions and reading answers in between (effect's 569
    files: ~0.5 s of CPU)."""
    for count, path in enumerate(paths, 1):
        text = _text(path)
        now.names[path], now.shapes[path] = import_names(text), shape(text)
        if declared_alone(path):
            now.texts[path] = text
        now.pragmas[path] = implied(text)
        if everywhere(path, [text]):
            now.wide.add(path)
        else:
            now.wide.discard(path)
        if count % 32 == 0:
            await asyncio.sleep(0)


def placed(changed: set[Path], sessions: dict[Path, Session], seen: NativeSeen) -> bool:
    """Whether every change is an edit of a file the last check had, or of a file whose
    importers can be found by name; False: ask every file again."""
    for path in changed:
        if not path.exists() or (path in sessions and path not in seen.names):
            return False  # removed or added: module resolution may change anywhere
        if path.name.startswith(_EVERYTHING):
            return False
        if path in seen.wide or everywhere(path, [_text(path)] if path in sessions else []):
            return False  # global declarations, then or now: any file may see them
    return True


def _configuring(ws: Workspace, changed: set[Path], sessions: dict[Path, Session]) -> bool:
    """Whether a change is of a configuration a tsconfig of `sessions` extends under another
    name (`extends: "./settings.json"`, a chain of them, a package's): every file asked."""
    others = changed - sessions.keys()
    return bool(others) and not others.isdisjoint(extended_by(configs_of(ws, sessions), read_text))


def import_aliases(ws: Workspace, sessions: Iterable[Session]) -> dict[str, set[str]] | None:
    """The names importers use for files of other names, by the file's name: tsconfig
    `paths` (`"effect": ["./src/index.js"]` -> `index`: {`effect`}) and package.json
    `imports`, in the projects' folders and above them up to the root, and the workspace's
    own packages that node_modules links to, or whose own files import them by name (a
    self-reference), by their package names and subpaths (`native_packages`:
    `"@demo/core"` -> `./dist/index.d.ts` -> `index`: {`core`}, their `imports` too). A
    wildcard keeps the file's name where its target's last part is the alias's (`effect/*`
    -> `./src/*.js`, `./*.js` -> `./src/*.ts`, `./*` -> `./src/*/index.ts`); any other kind
    cannot be followed by name: None, and every file is asked."""
    found: dict[str, set[str]] = {}
    places = _places(ws, sessions)
    packages = workspace_packages(ws.root, places)
    # a package by the name its link gives it, and by its own (a self-reference)
    named = set(packages.items()) | set(own_packages(places | packages.keys()).items())
    for folder, name in sorted(named):
        entries = package_entries(name, folder)
        if entries is None or not _follow(entries, found):
            return None
    for place in places | packages.keys():
        mapped: list[tuple[str, list[str]]] = []
        for config in [*place.glob("tsconfig*.json"), *place.glob("jsconfig*.json")]:
            for block in _PATHS.findall(_text(config)):
                mapped += [(a, _STRING.findall(t)) for a, t in _ENTRY.findall(block)]
        try:
            imports = json.loads(_text(place / "package.json") or "{}").get("imports") or {}
        except (ValueError, AttributeError):
            imports = {}
        mapped += [(alias, list(strings(target))) for alias, target in imports.items()]
        if not _follow(mapped, found):
            return None
    return found


def _places(ws: Workspace, sessions: Iterable[Session]) -> set[Path]:
    """The sessions' folders and those above them up to the root."""
    folders = {folder for session in sessions for folder in session.folders}
    return {d for f in folders for d in (f, *f.parents) if d == ws.root or ws.root in d.parents}


def _follow(mapped: list[tuple[str, list[str]]], found: dict[str, set[str]]) -> bool:
    """Adds to `found` the names `mapped`'s aliases give their targets' files; False where one
    cannot be followed by name (a wildcard whose last part is not its target's)."""
    for alias, targets in mapped:
        named = _last(alias)
        for target in targets:
            last = _last(target)
            if "*" not in last and "*" not in named:
                found.setdefault(last, set()).update(_last_names([alias]))
            elif last != named and not (named == "*" and _DIRECTORY.search(target)):
                return False  # a wildcard's file: a name of its own, not the specifier's
    return True


def _last(specifier: str) -> str:
    """A specifier's or a target's last part, without its extension."""
    return _EXTENSIONS.sub("", specifier.rstrip("/").rsplit("/", 1)[-1])


def _text(path: Path) -> str:
    try:
        return path.read_text("utf-8", errors="replace")
    except OSError:
        return ""


def reach(
    changed: set[Path], names: dict[Path, frozenset[str]], aliases: dict[str, set[str]]
) -> set[Path]:
    """The changed files and every file importing one of them, transitively, by name."""
    reached = set(changed)
    keys = set().union(*(_keys(p, aliases) for p in changed)) if changed else set()
    while True:
        more = {p for p, used in names.items() if p not in reached and used & keys}
        if not more:
            return reached
        reached |= more
        keys |= set().union(*(_keys(p, aliases) for p in more))


def _keys(path: Path, aliases: dict[str, set[str]]) -> set[str]:
    """The names a specifier of `path` ends with: `util` for util.ts, util.d.ts, util.js;
    an index file is imported by its directory's name too; and its aliases' names."""
    stem = _EXTENSIONS.sub("", path.name)
    keys = {stem, path.parent.name} if stem == "index" else {stem}
    return keys | aliases.get(stem, set())


def import_names(text: str) -> frozenset[str]:
    """The last names of the module specifiers `text` uses (`../a/util.js` -> `util`)."""
    found = (m for m in _SPECIFIER.finditer(text) if _starts_word(text, m.start()))
    return frozenset(_last_names(m.group(1) for m in found))


def _starts_word(text: str, at: int) -> bool:
    """Whether a keyword at `at` begins a word (`from`, not `datafrom`)."""
    before = text[at - 1] if at else " "
    return not text[at].isalpha() or not (before.isalnum() or before in "_$")


def _last_names(specifiers: Iterable[str]) -> Iterable[str]:
    for specifier in specifiers:
        parts = [p for p in specifier.split("/") if p not in ("", ".")]
        last = _EXTENSIONS.sub("", parts[-1]) if parts else "index"
        yield "index" if last == ".." else last
        if last in ("index", "..") or specifier.endswith("/"):
            yield from parts[-2:-1]  # a directory, by its name


def everywhere(path: Path, texts: Iterable[str | None]) -> bool:
    """Whether a change of `path` (`texts`: its texts before and after, None: absent) can
    reach any file of its program, not only its importers: a `.d.ts`, a script (global
    declarations), a module declaring some (`declare global`, a module's augmentation: a
    file using a global interface it declares imports nothing of it), anything in
    node_modules."""
    if "node_modules" in path.parts or path.name.endswith(".d.ts"):
        return True
    return any(text is not None and (not module(text) or _GLOBAL.search(text)) for text in texts)
