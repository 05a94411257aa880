"""The workspace's symbol index: which files may declare a name, and each file's symbols.

Name-addressed questions (`definition` of `Context.invoke`) used to search the servers
(`workspace/symbol`) and open every file found, on every call. The index answers them from
memory instead, in layers kept per file and keyed by the file's content:

- words: every identifier of the file's text, read by lspd itself (no server), into a
  small inverted index (`workspace/symbols/words.py`). A file can declare `invoke` only if `invoke`
  is one of its words, so the files a name path may mean are those holding each segment
  as a word or as a part of their module path. All source files are read once (in a
  thread: when the watcher starts, or at the first question); after that only the files
  the watcher reports, or that fail their stat check, are read.
- declarations: for a name path of two segments or more (`Context.invoke`), a file holding
  the words can match only if the path starts with the end of its module path
  (`utils.echo` in utils.py) or with the name of a symbol with members (after that end, if
  any), which its server's `container_pattern` (servers.toml) finds in the file's text:
  `class Context` or `def Context` for basedpyright. Other files are not asked (click:
  `Context.invoke` asks core.py, not the 8 files more that only use `Context` and
  `invoke`). Checked on the text read at the question with the words, a verdict against a
  file remembered until it changes; files whose tree is kept are matched in it (no
  server asked), and one segment (any symbol: parameters, locals) or a server without the
  pattern is not filtered.
- trees: the server's own document symbols of a file, asked the first time a name needs
  them (the file is opened, asked and closed again unless it was open: the server frees
  it) and kept until the file changes; the least recently used go beyond `MAX_NODES`.

Never stale: before its words or tree are used, a file's (mtime, size) is compared with the
one its text was read at, and its text is read again (and hashed) when they differ or the
mtime is too recent to prove anything. Without a running watcher every question rescans
the tree; with one, a name found nowhere waits for the watcher to catch up and looks again,
so a name written a moment ago is found.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from pathlib import Path
from typing import Any, Protocol

from lspd.errors import InvalidInput, LspdError
from lspd.workspace import files
from lspd.workspace.pool import SessionPool
from lspd.workspace.symbols import entries
from lspd.workspace.symbols.tree import (
    Node,
    flatten,
    matches_name,
    may_hold,
    read_tree,
    short_name,
)
from lspd.workspace.symbols.words import Words, name_words
from lspd.workspace.sync import DocumentSync
from lspd.workspace.watcher import Change, FileEvent, Watcher

log = logging.getLogger(__name__)

MAX_NODES = 300_000  # symbols kept in trees (~100 MB at most); evicted ones are asked again


class Watching(Protocol):
    """Whether a watcher reports the files' changes, and it (`Workspace`; a protocol, so
    that this module need not import the workspace)."""

    @property
    def changes_seen(self) -> int | None: ...
    @property
    def watcher(self) -> Watcher | None: ...


class SymbolIndex:
    """Symbols by name for one workspace; see the module's docstring."""

    def __init__(self, pool: SessionPool, sync: DocumentSync, watching: Watching) -> None:
        self._pool, self._sync, self._watching = pool, sync, watching
        self._files: dict[Path, entries.Entry] = {}
        self._words = Words()
        self._scan: asyncio.Task[tuple[dict[Path, entries.Entry], Words]] | None = None
        self._scanned = False
        self._dirty: set[Path] = set()  # reported by the watcher, not read since
        self._trees: OrderedDict[Path, None] = OrderedDict()  # files holding a tree, LRU first
        self._nodes = 0
        self._locks: dict[Path, asyncio.Lock] = {}

    # -- keeping it fresh ----------------------------------------------------------------------

    def start(self) -> None:
        """Read every source file's words in the background (before the first question)."""
        if self._scan is None:
            self._scan = asyncio.create_task(
                asyncio.to_thread(
                    entries.read_all,
                    self._pool.projects.source_files(),
                    self._pool.display,
                    self._pool.left_out.limits,
                )
            )

    def changed(self, events: list[FileEvent]) -> None:
        """The watcher's report: these files are read again before their next use."""
        for event in events:
            if event.change is Change.created and event.path.is_dir():
                continue  # its files are reported too
            self._dirty.add(event.path)
            if event.change is Change.deleted:  # a directory: every file under it
                self._dirty.update(p for p in self._files if p.is_relative_to(event.path))

    async def _refresh(self) -> None:
        """Words of every source file, current: at first the scan, then what changed (all
        of it stat-checked when no watcher says what changed)."""
        if not self._scanned:
            self.start()
            assert self._scan is not None
            scanned, index = await asyncio.shield(self._scan)
            if not self._scanned:
                self._scanned = True
                for path in list(self._files):  # read meanwhile, maybe before the scan did
                    self._forget(path)
                self._files, self._words = scanned, index
                if self._watching.changes_seen is None:
                    return  # just read
        if self._watching.changes_seen is None:
            present = await asyncio.to_thread(lambda: set(self._pool.projects.source_files()))
            for path in set(self._files) - present:
                self._forget(path)
            for path in present:
                self._fresh(path)
            self._dirty.clear()
            return
        dirty, self._dirty = self._dirty, set()
        for path in dirty:
            if path in self._files or self._pool.handler(path) is not None:
                self._fresh(path)

    def _fresh(self, path: Path) -> entries.Entry | None:
        """The file's entry as the file is now (read again when its stamp says it may have
        changed); None when it is gone."""
        entry = self._files.get(path)
        stamp = files.stamp(path)
        if stamp is None:
            self._forget(path)
            return None
        if entry is not None and stamp == entry.stamp and files.settled(stamp):
            return entry
        new, words = entries.read(path, self._pool.display(path), self._pool.left_out.limits)
        if entry is not None and new.digest == entry.digest:
            entry.stamp = new.stamp  # touched, not changed: the tree still holds
            return entry
        self._forget(path)
        self._files[path] = new
        if new.digest is not None and self._pool.handler(path) is not None:
            self._words.put(path, words)  # a server declares nothing in other files
        return new

    def _forget(self, path: Path) -> None:
        self._words.drop(path)
        entry = self._files.pop(path, None)
        if entry is not None and entry.tree is not None:
            self._drop_tree(path, entry)

    def _drop_tree(self, path: Path, entry: entries.Entry) -> None:
        self._trees.pop(path, None)
        self._nodes -= entry.nodes
        entry.tree, entry.by_name, entry.nodes = None, {}, 0

    # -- trees ---------------------------------------------------------------------------------

    async def tree(self, path: Path) -> list[Node]:
        """The symbols of `path` (absolute, under the root) as its server lists them for
        the file as it is now; errors as `Workspace.open` gives them."""
        entry = self._fresh(path)
        if entry is None or entry.digest is None:  # gone or unreadable: say why
            await self._sync.open(self._pool.display(path))
            entry = self._fresh(path)
            assert entry is not None
        return await self._tree(path, entry)

    async def _tree(self, path: Path, entry: entries.Entry) -> list[Node]:
        if entry.tree is not None:
            self._trees.move_to_end(path)
            return entry.tree
        async with self._locks.setdefault(path, asyncio.Lock()):
            current = self._files.get(path)
            if current is not None and current.tree is not None:
                return current.tree
            stamp = files.stamp(path)
            tree, text = await self._ask(path, self._pool.display(path))
        self._keep(path, stamp, text, tree)
        return tree

    async def _ask(self, path: Path, shown: str) -> tuple[list[Node], str]:
        """The server's symbols of `path`, and the text it was sent: asked without waiting
        for the project to load (symbols are syntax; see `DocumentSync.visiting`)."""
        async with self._sync.visiting(path) as (session, document):
            return await read_tree(session, path, shown, document.lines), document.text

    def _keep(self, path: Path, stamp: tuple[int, int] | None, text: str, tree: list[Node]) -> None:
        """Remember `tree` as the symbols of `text` (what the server was sent, which may be
        newer than the words read before: then they are read from it again)."""
        entry = self._files.get(path)
        digest = entries.digest(text)
        if entry is None or entry.digest != digest:
            self._forget(path)
            entry = self._files[path] = entries.Entry(stamp, digest)
            self._words.put(path, entries.words_in(text, self._pool.display(path)))
        elif entry.tree is not None:
            self._drop_tree(path, entry)
        entry.tree = tree
        for node in flatten(tree):
            entry.by_name.setdefault(short_name(node), []).append(node)
            entry.nodes += 1
        self._trees[path] = None
        self._nodes += entry.nodes
        while self._nodes > MAX_NODES and len(self._trees) > 1:
            oldest = next(iter(self._trees))
            self._drop_tree(oldest, self._files[oldest])

    # -- names ---------------------------------------------------------------------------------

    async def find(self, parts: list[str]) -> list[Node]:
        """Every symbol of the workspace's source files whose qualified name ends with the
        name path `parts`, in file order; servers that fail are logged and passed over
        (their error is raised when nothing else was found)."""
        await self._refresh()
        found, errors = await self._find(parts)
        watcher = self._watching.watcher
        if not found and self._watching.changes_seen is not None and watcher is not None:
            # Written a moment ago, not reported yet? Wait for the watcher, then look again.
            await watcher.catch_up()
            await self._refresh()
            found, errors = await self._find(parts)
        if not found and errors:
            raise LspdError("; ".join(errors))
        return found

    async def _find(self, parts: list[str]) -> tuple[list[Node], list[str]]:
        words = [w for p in parts for w in name_words(p)]
        candidates = []
        for path in sorted(self._words.holding(words), key=_parts):  # (Path's order, in C)
            entry = self._fresh(path)
            if entry is None or entry.digest is None:
                continue
            # Without its symbols yet: make sure it holds the words (two words can share
            # a bucket of the index) and may declare the path before a server is asked.
            if entry.tree is None and not self._may_hold(path, entry, words, parts):
                continue
            candidates.append((path, entry))
        trees: list[Any] = [e.tree for _, e in candidates if e.tree is not None]
        if len(trees) == len(candidates):  # all kept: no task, no wait
            for path, _ in candidates:
                self._trees.move_to_end(path)  # used, as `_tree` says
        else:  # at once, a server answers them in one go (no round trip between two files)
            trees = await asyncio.gather(
                *(self._tree(path, entry) for path, entry in candidates), return_exceptions=True
            )
        found: list[Node] = []
        errors: list[str] = []
        for (path, _), tree in zip(candidates, trees, strict=True):
            if isinstance(tree, LspdError):
                log.warning("no symbols for %s: %s", self._pool.display(path), tree)
                errors.append(str(tree))
                continue
            if isinstance(tree, BaseException):
                raise tree
            current = self._files.get(path)
            # By name when the tree is kept (the entry is new if the file changed meanwhile).
            named = current.by_name.get(parts[-1], []) if current and current.tree is tree else None
            nodes = flatten(tree) if named is None else named
            found += [n for n in nodes if matches_name(n, parts)]
        return found, errors

    def _may_hold(
        self, path: Path, entry: entries.Entry, words: list[str], parts: list[str]
    ) -> bool:
        """Whether the file as it is now holds every one of `words` and may hold a symbol
        matching `parts` (`may_hold`, its server's pattern): its text read once."""
        name_path = ".".join(parts)
        if name_path in entry.cannot_hold:
            return False
        shown = self._pool.display(path)
        try:
            text = files.read_source(path, shown)
        except InvalidInput:
            return False
        held = entries.words_in(text, shown)
        if not all(word in held for word in words):
            return False
        server = self._pool.handler(path)
        if may_hold(parts, shown, text, server.container_pattern if server else None):
            return True
        if entries.digest(text) == entry.digest:  # the content the entry stands for
            entry.cannot(name_path)
        return False

    async def holding(self, word: str) -> list[Path]:
        """The source files that may hold `word`, in path order (a bucket shared with
        another word may add a file without it: read the text to be sure)."""
        await self._refresh()
        return sorted(self._words.holding([word]))

    def known(self, path: Path) -> bool:
        """Whether `path` is a source file the index has read (whose changes are watched)."""
        return path in self._files

    def kept(self) -> list[Path]:
        """The files whose symbols are kept (each was asked of its server), least recently
        used first."""
        return list(self._trees)

    async def refresh(self) -> int:
        """Bring the words up to date (the first scan included); how many files they cover."""
        await self._refresh()
        return len(self._files)

    async def close(self) -> None:
        """Cancel the first scan if it still runs."""
        if self._scan is not None:
            self._scan.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._scan


def _parts(path: Path) -> tuple[str, ...]:
    """What `Path`'s `<` compares on POSIX, as a tuple compared in C."""
    return path.parts
