"""What a Python edit can affect: the whole-workspace check asks again only about that.

basedpyright marks the files importing a changed module, transitively, to be checked
again, and answers "unchanged" for the others; asking every file still costs a request
each (SQLAlchemy's 255: about a second). So the check asks the changed files, and the
files importing a changed module, transitively (`python_imports.importers`), only when its
declarations changed (`engine/declarations.py`: a body-only edit asks the file alone) or
it is in an import cycle (`_cycle_importers`: whatever its edit), and of those only the
files naming what it added when all it did was add module names
(`engine/python_names.py`: a name added that no file uses asks the file alone; every
importer when a file naming it and one not naming it reach one import cycle,
`engine/python_cycles.py`). An edit of comments and blank lines alone asks nothing, its
file in a cycle or not: its file's last result, moved with its lines (`python_trivia`), is
its answer. The other files' results are last time's, reused as they are
(by `engine/whole_check.py`: it says which files to ask, `python_asked`). A change it
cannot place asks every file as before: a file added, removed or unreadable, a changed
file the check does not ask about (a configuration, a Python file outside the gate, a file
of another language answered one by one), or the first check. A file of mypy's project
reaches basedpyright's files importing it as any (before, none was asked again: a script's
error against api/'s old text stood after the edit).

What the last check saw of each Python file is kept compressed (its declarations are
compared with the new text's) with the names its imports touch (`PythonSeen`): made in a
thread while the first check runs (the server checks on a core of its own), so the first
declaration change does not read every file before its first question (SQLAlchemy's 686
files: 1-2.4 s), and again for a file once it changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.declarations import signature
from lspd.engine.python_cycles import cycles_reached
from lspd.engine.python_imports import importers, touched
from lspd.engine.python_names import Read, reached
from lspd.engine.python_trivia import Moves, moves
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.pyright_baseline import BASELINE

PYTHON = (".py", ".pyi")
BUILTINS = "__builtins__.pyi"  # what every file sees unimported


@dataclass
class PythonSeen:
    """The Python files of the last check, as the server was asked about them."""

    changes: int  # the watcher's count of changes then
    texts: dict[Path, bytes] = field(default_factory=dict)  # each text, zlib-compressed
    # What each Python file's imports touch (`python_imports.touched`; None: unreadable),
    # made when a declaration first changed, again for a file once it changed.
    names: dict[Path, frozenset[tuple[str, ...]] | None] = field(default_factory=dict)
    read: Read = field(default_factory=Read)  # what `python_names` read of them
    # Per file, the hash of the text its last result was made of, where the check knows it
    # (the text its server held once the check ended): only such a result may be moved.
    answered: dict[Path, int] = field(default_factory=dict)


# The caller's: `path`'s last result moved as `Moves` says, kept as its answer; False when
# it cannot be (no last result, a diagnostic off the moved tokens).
Move = Callable[[Path, Moves], bool]


def python_asked(
    ws: Workspace,
    matched: list[Path],
    rest: list[Path],
    changes: int | None,
    seen: PythonSeen | None,
    move: Move,
) -> tuple[PythonSeen | None, set[Path] | None]:
    """What the check sees of the Python files of `rest` (the files answered one by one)
    now, to keep for the next check (None without a watcher: nothing says what changed),
    and the files of `rest` an edit since `seen` can affect: to ask (None: every file).
    A file edited in comments and blank lines alone is `move`d, not asked."""
    if changes is None:
        return None, None
    changed = {p for p, n in ws.changed_at.items() if seen is not None and n > seen.changes}
    last = {} if seen is None else seen.texts
    texts: dict[Path, bytes] = {}
    for path in _kept(matched, rest):
        if path.suffix in PYTHON:
            packed = last.get(path) if path not in changed else None
            if packed is None and (text := read_text(path)) is not None:
                packed = zlib.compress(text.encode(), 1)
            if packed is not None:
                texts[path] = packed
    names = {} if seen is None else {p: n for p, n in seen.names.items() if p not in changed}
    now = PythonSeen(changes, texts, names, Read() if seen is None else seen.read.without(changed))
    if seen is None:
        _name_ahead(ws, now)
        return now, None
    now.answered = {p: h for p, h in seen.answered.items() if p not in changed}
    moved = _moved(ws.root, changed & set(rest), last, seen.answered, now, move)
    if moved and moved == changed:
        return now, set()  # only lines moved: nothing to ask
    return now, _affected(ws, set(matched), rest, changed - moved, last, now)


def answered(ws: Workspace, seen: PythonSeen | None, asked: list[Path]) -> None:
    """Keep in `seen` the hash of the text each Python file of `asked` was answered for: the
    text its server holds once the check has its answer (the disk's, for a file a second
    server answered or no longer open). A file edited while the check ran has another text
    than `seen`'s then: its result is never moved."""
    if seen is None:
        return
    for path in (p for p in asked if p.suffix in PYTHON):
        document = ws.document(path)
        text = document.text if document is not None else read_text(path)
        if text is not None:
            seen.answered[path] = hash(text)
        else:
            seen.answered.pop(path, None)


def _moved(
    root: Path,
    changed: set[Path],
    last: dict[Path, bytes],
    answered: dict[Path, int],
    now: PythonSeen,
    move: Move,
) -> set[Path]:
    """The files of `changed` whose edit only moved lines (comments, blank lines), their
    last result made of their last text, and `move`d: their answer."""
    moved = set()
    for path in changed:
        before, after = last.get(path), now.texts.get(path)
        if before is None or after is None or before == after:
            continue
        old, new = _text(before), _text(after)
        if (found := movable(root, path, old, new, answered)) is None:
            continue
        if move(path, found):
            moved.add(path)
            now.answered[path] = hash(new)
    return moved


def movable(root: Path, path: Path, old: str, new: str, answered: dict[Path, int]) -> Moves | None:
    """How `new` moved `old`'s lines (`python_trivia.moves`) when `path`'s last result is
    known to be of `old` (`answered`) and no basedpyright baseline may hold it; else None."""
    if path.suffix not in PYTHON or answered.get(path) != hash(old):
        return None
    found = moves(old, new)
    return None if found is None or baselined(root, path) else found


def baselined(root: Path, path: Path) -> bool:
    """Whether basedpyright's baseline may hold `path`'s diagnostics: a baseline file beside
    a directory from its own up to `root` naming it, or a configuration naming a baseline
    file of its own. A baselined diagnostic over several lines is matched by its line count,
    so a comment inside it makes basedpyright report it again: such a file is asked, never
    moved (`python_trivia`)."""
    for directory in [path.parent, *path.parent.parents]:
        baseline = directory.joinpath(*BASELINE)
        text = read_text(baseline) if baseline.is_file() else None
        if text is not None and path.relative_to(directory).as_posix() in text:
            return True
        for config in ("pyrightconfig.json", "pyproject.toml"):
            named = directory / config
            if named.is_file() and "baselineFile" in (read_text(named) or ""):
                return True
        if directory == root:
            return False
    return False


def _affected(
    ws: Workspace,
    matched: set[Path],
    rest: list[Path],
    changed: set[Path],
    last: dict[Path, bytes],
    now: PythonSeen,
) -> set[Path] | None:
    """The files of `rest` the changes can affect; None when a change cannot be placed."""
    if not changed:
        return None
    asked = set(rest)
    ask: set[Path] = set()
    declared: list[Path] = []
    edited: list[Path] = []
    for path in changed:
        beside = path in matched and path not in asked  # a builder's file, or mypy's
        if beside and path.suffix not in PYTHON:
            continue  # a builder's file (`typescript_checked`)
        if not (path in asked or beside) or path.suffix not in PYTHON:
            return None
        before, after = last.get(path), now.texts.get(path)
        if before is None or after is None or path.name == BUILTINS:
            return None  # added, removed or unreadable: imports may resolve otherwise
        if not beside:  # mypy's file: its importers basedpyright judges, not itself
            ask.add(path)
        if before != after:
            edited.append(path)
        if before != after and not _same_declarations(before, after):
            declared.append(path)
    if declared:
        imported = names(ws, now)
        reach = importers(ws.root, declared, imported)
        texts = {p: (_text(last[p]), _text(now.texts[p])) for p in declared}
        named = reached(
            texts,
            reach,
            lambda p: _seen_text(now, p),
            now.read,
            lambda: cycles_reached(ws.root, imported),
        )
        ask |= reach if named is None else named
    for path in edited:
        ask |= _cycle_importers(ws, now, path)
    return ask & asked


def _kept(matched: list[Path], rest: list[Path]) -> list[Path]:
    """The files whose texts the check keeps: `rest`'s (asked one by one), and, where a
    Python file is among them, the gate's other Python files (mypy's: a module of its
    project the script basedpyright judges imports, its declarations compared as any)."""
    if not any(path.suffix in PYTHON for path in rest):
        return rest
    asked = set(rest)
    return [*rest, *(p for p in matched if p.suffix in PYTHON and p not in asked)]


def _cycle_importers(ws: Workspace, now: PythonSeen, path: Path) -> set[Path]:
    """The importers of `path`, transitively, when it is one of them (in an import cycle),
    whatever its edit (a comment too); else none. basedpyright evaluates a cycle's types
    from the file it checks first, and drops them at any edit: a file of a cycle asked
    alone may answer otherwise than its CLI, which checked the files before it first (a
    comment in SQLAlchemy's `Session.get` lost orm/session.py:3694, a reportArgumentType
    the CLI keeps). Every file reaching the cycle imports `path`: all asked, in order,
    meet the cycle as the CLI does."""
    around = importers(ws.root, [path], names(ws, now))
    return around if path in around else set()


def _text(packed: bytes) -> str:
    return zlib.decompress(packed).decode()


def _seen_text(now: PythonSeen, path: Path) -> str | None:
    """The text of `path` the check sees: kept, else (a file outside the gate) the disk's."""
    packed = now.texts.get(path)
    return _text(packed) if packed is not None else read_text(path)


def _same_declarations(before: bytes, after: bytes) -> bool:
    old = signature(_text(before))
    return old is not None and old == signature(_text(after))


def names(ws: Workspace, now: PythonSeen) -> dict[Path, frozenset[tuple[str, ...]]]:
    """What the imports of every Python file under the root touch: the checked files and
    the others (a file outside the gate importing a changed module may be imported by a
    checked one). Made once, then again only for files changed since."""
    for path in [*now.texts, *_others(ws)]:
        if path not in now.names:
            now.names[path] = _named(ws.root, path, now.texts.get(path))
    return {p: n for p, n in now.names.items() if n is not None}


NAMING = "lspd-python-names"  # the thread's name


def _name_ahead(ws: Workspace, now: PythonSeen) -> None:
    """Make `names` in a thread; what it made is added to `now` on the event loop (a name
    made meanwhile stays: the same text gives the same names). A check that needs them
    first makes them itself; a later check has a `PythonSeen` of its own, so what the
    thread finishes after that goes with the old one."""
    loop = asyncio.get_running_loop()
    root, texts, others = ws.root, dict(now.texts), _others(ws)

    def keep(found: dict[Path, frozenset[tuple[str, ...]] | None]) -> None:
        for path, names in found.items():
            now.names.setdefault(path, names)

    def make() -> None:
        found = {path: _named(root, path, texts.get(path)) for path in [*texts, *others]}
        with contextlib.suppress(RuntimeError):  # the loop closed: the daemon stopped
            loop.call_soon_threadsafe(keep, found)

    threading.Thread(target=make, name=NAMING, daemon=True).start()


def _others(ws: Workspace) -> list[Path]:
    return [p for p in ws.projects.source_files(limit=1_000_000) if p.suffix in PYTHON]


def _named(root: Path, path: Path, packed: bytes | None) -> frozenset[tuple[str, ...]] | None:
    """What `path`'s imports touch, of its kept text (else the disk's); None: unreadable."""
    text = _text(packed) if packed is not None else read_text(path)
    return frozenset(touched(root, path, text)) if text is not None else None
