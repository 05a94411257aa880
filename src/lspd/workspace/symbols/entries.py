"""One source file as the symbol index last read it: its stamp, content hash and words,
and (once asked of its server) its symbols; read here, without any server."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace import files
from lspd.workspace.symbols.tree import Node, module_parts
from lspd.workspace.symbols.words import Words, words_of

MAX_VERDICTS = 256  # name paths remembered per file as not declared there; then forgotten


@dataclass(slots=True)
class Entry:
    """One source file as last read: its stamp, content hash and (once asked) symbols."""

    stamp: tuple[int, int] | None
    digest: bytes | None  # None: not readable as source text (declares nothing)
    tree: list[Node] | None = None
    by_name: dict[str, list[Node]] = field(default_factory=dict)
    nodes: int = 0
    # Name paths this content cannot hold (`may_hold`): not read again for them.
    cannot_hold: set[str] = field(default_factory=set)

    def cannot(self, name_path: str) -> None:
        """Remember that this content cannot hold `name_path` (all forgotten past
        `MAX_VERDICTS`: a long-lived daemon asks many names)."""
        if len(self.cannot_hold) >= MAX_VERDICTS:
            self.cannot_hold.clear()
        self.cannot_hold.add(name_path)


def digest(text: str) -> bytes:
    """What a file's content is known by: a tree is kept for one content only."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def words_in(text: str, shown: str) -> set[str]:
    """What a name path's segments are matched against: the identifiers of the file's text,
    and the parts of its module path (`pkg.module.func`)."""
    return words_of(text) | set(module_parts(shown))


def read(path: Path, shown: str, limits: files.Limits) -> tuple[Entry, set[str]]:
    """The file as it is now, and its words (stat taken before the read: a write in between
    shows at the next check); none for a file over the size limits (`max_file_bytes`)."""
    stamp = files.stamp(path)
    try:
        text = files.read_source(path, shown)
    except InvalidInput:
        return Entry(stamp, None), set()
    if limits.exceeded_by(text):
        return Entry(stamp, None), set()
    return Entry(stamp, digest(text)), words_in(text, shown)


def read_all(
    paths: Iterable[Path], display: Callable[[Path], str], limits: files.Limits
) -> tuple[dict[Path, Entry], Words]:
    """Every file of `paths` read, and the words of those readable (the index's first scan)."""
    entries: dict[Path, Entry] = {}
    index = Words()
    for path in paths:
        entries[path], words = read(path, display(path), limits)
        if entries[path].digest is not None:
            index.put(path, words)
    return entries, index
