"""Which diagnostics a change introduced and which it fixed: two states' diagnostics
matched by what identifies one across them, not by its line.

A diagnostic is the same one in both states when its file, severity, code, message and the
source text it points at (its snippet) agree (`Key`, as `engine/seen.py` keeps the
committed state's), so lines shifted by an edit above it do not make it new. The
diagnostics are the caller's own (`D`: the answer models of `ops`, which turns the
difference into an answer, `ops/changes.compare`); the engine sees only their keys.
A diagnostic of the baseline that the changed state's checker did not check (it stopped at
a syntax error: `engine/stops.py`) is neither fixed nor unchanged: it is `unchecked`. A
renamed file's diagnostics are compared under its new path (`renamed`, found by
`engine/renames.py`): a moved file's errors are neither new nor fixed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from lspd.engine.seen import Key

D = TypeVar("D")


@dataclass(frozen=True, slots=True)  # one per diagnostic of each state: 350,000 on SQLAlchemy
class Found(Generic[D]):
    """One diagnostic and what identifies it across the two states (its file: `key[0]`)."""

    diagnostic: D
    key: Key


@dataclass(frozen=True)
class Again(Generic[D]):
    """One state's diagnostics from a second check: of the `before` or the `after` text."""

    side: str
    found: list[Found[D]]


@dataclass(frozen=True)
class Difference(Generic[D]):
    """What the change introduced and fixed (in the order found), how many of the changed
    state's diagnostics were there before, and the baseline's diagnostics the changed
    state's checker did not check (`unchecked`: neither fixed nor unchanged). Each as found,
    under its own state's path (a renamed file's fixed ones: its old path), so that the
    caller makes answers of these few alone, not of every diagnostic compared."""

    introduced: list[Found[D]]
    fixed: list[Found[D]]
    unchanged: int
    unchecked: list[Found[D]] = field(default_factory=list)
    unseen: list[Found[D]] = field(default_factory=list)  # new; the baseline's checker stopped


def difference(
    before: list[Found[D]],
    after: list[Found[D]],
    again: Again[D] | None = None,
    hidden: Callable[[Found[D]], object] | None = None,
    renamed: Mapping[str, str] | None = None,
    unseen: Callable[[Found[D]], object] | None = None,
    place: Callable[[Found[D]], object] | None = None,
) -> Difference[D]:
    """Introduced (in `after` only), fixed (in `before` only) and unchanged, as multisets.

    With `again` (one state checked a second time, see `engine/second_sample.disk_again`), a
    diagnostic is introduced only when every check of the changed text has it and no check
    of the unchanged text does, and fixed the other way round: a checker that reports an
    error in some runs and not in others (basedpyright, on some cycles) never makes it new.
    With `hidden` (the caller's `engine/stops.hiding`), a diagnostic gone that it says the
    changed state's checker did not check is `unchecked`, not fixed. With `renamed` (old
    path -> new path, as the keys hold them), a baseline diagnostic of a renamed file is
    keyed by its new path: the same one when the moved file still has it. With `unseen`
    (`hiding` of the baseline's stops), a diagnostic new that the baseline's checker did not
    check is `unseen`, not introduced (the baseline stopped, the change fixes it). With
    `place` (where one is: its line and column), of several alike the ones at a place the
    other state has one too are matched first: the new or gone one is the one that moved
    (cattrs' two alike errors at lines 94 and 95 of a file the change left: 95 went, and 94
    was said fixed)."""
    compared = before
    if renamed:
        compared = moved(before, renamed)
        if again is not None and again.side == "before":
            again = Again(again.side, moved(again.found, renamed))
    olds = [compared] + ([again.found] if again is not None and again.side == "before" else [])
    news = [after] + ([again.found] if again is not None and again.side == "after" else [])
    old_most, old_least = _counts(olds)
    new_most, new_least = _counts(news)
    matched = Counter(old_most)  # `after`'s first ones of a key match the unchanged text's
    new_left = Counter({k: n - old_most[k] for k, n in new_least.items() if n > old_most[k]})
    introduced: list[Found[D]] = []
    hid: list[Found[D]] = []
    for found in _placed(after, compared, place):
        if matched[found.key] > 0:
            matched[found.key] -= 1
        elif new_left[found.key] > 0:
            new_left[found.key] -= 1
            (introduced if unseen is None or not unseen(found) else hid).append(found)
    old_left = Counter({k: n - new_most[k] for k, n in old_least.items() if n > new_most[k]})
    fixed: list[Found[D]] = []
    unchecked: list[Found[D]] = []
    pairs = dict(zip(map(id, compared), before, strict=True))
    for found in _placed(compared, after, place, last=True):
        original = pairs[id(found)]
        if old_left[found.key] > 0:
            old_left[found.key] -= 1
            gone = unchecked if hidden is not None and hidden(found) else fixed
            gone.append(original)
    unchanged = len(after) - len(introduced) - len(hid)
    return Difference(introduced, fixed, unchanged, unchecked, hid)


def _placed(
    found: list[Found[D]],
    other: list[Found[D]],
    place: Callable[[Found[D]], object] | None,
    last: bool = False,
) -> list[Found[D]]:
    """`found`, those at a place where `other` has one alike first (`last`: after the rest),
    each in its order; as it is without `place`."""
    if place is None:
        return found
    held = Counter((f.key, place(f)) for f in other)
    kept: list[Found[D]] = []
    rest: list[Found[D]] = []
    for f in found:
        at = (f.key, place(f))
        if held[at] > 0:
            held[at] -= 1
            kept.append(f)
        else:
            rest.append(f)
    return rest + kept if last else kept + rest


def moved(found: list[Found[D]], renamed: Mapping[str, str]) -> list[Found[D]]:
    """`found` with the keys of renamed files' diagnostics under their new paths."""
    out: list[Found[D]] = []
    for f in found:
        path, severity, code, message, snippet = f.key
        new = renamed.get(path)
        out.append(
            f if new is None else Found(f.diagnostic, (new, severity, code, message, snippet))
        )
    return out


def _counts(samples: list[list[Found[D]]]) -> tuple[Counter[Key], Counter[Key]]:
    """Per key, the most and the fewest times one of `samples` has it."""
    counted = [Counter(f.key for f in sample) for sample in samples]
    most, least = Counter(counted[0]), Counter(counted[0])
    for other in counted[1:]:
        most |= other
        least &= other
    return most, least
