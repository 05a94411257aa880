"""Which files a change renamed: a file gone and a file new of the same kind, their texts at
least half alike (as `git diff -M` pairs them), so that a comparison knows the new file's
diagnostics for the old one's (`engine/comparison.difference`'s `renamed`).

git's own rename detection cannot say it: a plain `mv` leaves the new file untracked, and
its index is never written (no `git add`). So the pairs are found here, among the deleted
and the added files of the two states (a baseline's `Delta`, a preview's texts): a file's
best match first, each file in one pair at most. Before, a moved file's unchanged errors
were introduced under its new path and fixed under its old one (trio's `_unix_pipes.py`
moved with its importers updated: "introduced 2, fixed 2", the stop gate held).
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

SIMILAR = 0.5  # git's -M default: 50% of the larger file kept
MAX_PAIRS = 2_500  # deleted x added compared by text; beyond, one text or one name only


def renames(
    before: Mapping[Path, str | None], after: Mapping[Path, str | None]
) -> dict[Path, Path]:
    """Old path -> new path of each file renamed between the states `before` and `after`
    (path -> text, None: absent; a path missing from one of them is taken as absent there
    when the other has it): one deleted, one added, the same suffix, their texts at least
    `SIMILAR` alike; the most alike pairs first. Of many deleted and added files (a folder
    moved), only those of one text or one name are compared."""
    gone = {p: t for p, t in before.items() if t is not None and after.get(p) is None}
    new = {p: t for p, t in after.items() if t is not None and before.get(p) is None}
    if not gone or not new:
        return {}
    exact_only = len(gone) * len(new) > MAX_PAIRS
    lines = {p: _Lines(t) for p, t in (*gone.items(), *new.items())}  # once a file, not a pair
    shared = _shared(gone, new, lines)
    scored: list[tuple[float, str, str, Path, Path]] = []
    for old, old_text in gone.items():
        for added, new_text in new.items():
            if old.suffix != added.suffix:
                continue
            if old_text == new_text:
                score = 1.0
            elif exact_only and old.name != added.name:  # many files: a moved folder's
                continue
            else:
                score = lines[old].alike(lines[added], shared.get((old, added), 0))
            if score >= SIMILAR:
                scored.append((-score, str(old), str(added), old, added))
    pairs: dict[Path, Path] = {}
    taken: set[Path] = set()
    for _, _, _, old, added in sorted(scored):
        if old not in pairs and added not in taken:
            pairs[old] = added
            taken.add(added)
    return pairs


def alike(old: str, new: str) -> float:
    """How much of the larger text the other keeps, in characters of whole lines (git's
    similarity: what is copied over the larger size); 1.0 for two empty texts."""
    a, b = _Lines(old), _Lines(new)
    return a.alike(b, sum(len(line) * n for line, n in (a.counts & b.counts).items()))


def _shared(
    gone: Mapping[Path, str], new: Mapping[Path, str], lines: Mapping[Path, _Lines]
) -> dict[tuple[Path, Path], int]:
    """Of each deleted and added file sharing lines, the characters of the lines they share
    (as multisets): what the matcher can find at most. Found through the lines, not the
    pairs: unlike files share few (45 x 55 files of 1,000 lines took 1.4 s a gate question
    when every pair split, counted and crossed both texts again; 0.1 s so)."""
    index: dict[str, list[tuple[Path, int]]] = {}
    for old in gone:
        for line, n in lines[old].counts.items():
            index.setdefault(line, []).append((old, n))
    shared: dict[tuple[Path, Path], int] = {}
    for added in new:
        for line, n in lines[added].counts.items():
            for old, m in index.get(line, ()):
                shared[old, added] = shared.get((old, added), 0) + len(line) * min(n, m)
    return shared


class _Lines:
    """A text's lines and their counts, made once per file."""

    def __init__(self, text: str) -> None:
        self.size = len(text)
        self.lines = text.splitlines(keepends=True)
        self.counts = Counter(self.lines)

    def alike(self, other: _Lines, shared: int) -> float:
        """`alike` of the two texts, `shared` the characters of the lines both hold (an
        upper bound of what the matcher finds: below half the larger, not asked)."""
        largest = max(self.size, other.size)
        if largest == 0:
            return 1.0
        if shared < SIMILAR * largest:
            return 0.0
        a, b = self.lines, other.lines
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        kept = sum(len(line) for i, _, n in matcher.get_matching_blocks() for line in a[i : i + n])
        return kept / largest
