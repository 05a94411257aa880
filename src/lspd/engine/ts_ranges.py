"""Which TypeScript 7 releases a `typesVersions` range matches: none (`<5.4`, kysely's range
for an outdated TypeScript), every one (`*`, `>=4.8`) or some (`<7.1`). TypeScript reads
these keys with its own small semver: comparators (`<`, `<=`, `>`, `>=`, `=`), partial
versions (`5.4` is 5.4.x), `~`, `^`, `x` wildcards, hyphen ranges and `||` between sets.
A range it cannot read here is taken as matching some (its maps are followed: more files
asked, never fewer).
"""

from __future__ import annotations

import re
from enum import Enum

Version = tuple[int, int, int]

_SEVEN: tuple[Version, Version] = ((7, 0, 0), (8, 0, 0))  # [from, below)
_LOWEST: Version = (0, 0, 0)
_HIGHEST: Version = (10**9, 0, 0)
# an operator, then a version of one to three parts, each a number or a wildcard
_COMPARATOR = re.compile(r"(<=|>=|<|>|=|~|\^)?v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?")
_PRERELEASE = re.compile(r"[-+][0-9A-Za-z.-]*$")


class Sevens(Enum):
    """How many TypeScript 7 releases a range matches."""

    NONE = "none"
    SOME = "some"
    EVERY = "every"


def sevens(range_text: str) -> Sevens:
    """How many TypeScript 7 releases `range_text` matches (one of its `||` sets is enough)."""
    found = {_set_sevens(part.strip()) for part in range_text.split("||")}
    if Sevens.EVERY in found:
        return Sevens.EVERY
    return Sevens.NONE if found == {Sevens.NONE} else Sevens.SOME


def _set_sevens(text: str) -> Sevens:
    """How many TypeScript 7 releases one set of comparators matches (all of them at once)."""
    if " - " in text:  # a hyphen range: `3.1 - 4.0` is >=3.1.0 <4.1.0
        low, _, high = text.partition(" - ")
        text = f">={low.strip()} <={high.strip()}"
    start, below = _LOWEST, _HIGHEST
    for word in text.split():
        bounds = _bounds(_PRERELEASE.sub("", word))
        if bounds is None:
            return Sevens.SOME
        start, below = max(start, bounds[0]), min(below, bounds[1])
    first, after = _SEVEN
    if start >= below or below <= first or start >= after:
        return Sevens.NONE
    return Sevens.EVERY if start <= first and below >= after else Sevens.SOME


def _bounds(word: str) -> tuple[Version, Version] | None:
    """The versions one comparator matches, as [from, below); None where it is unread."""
    match = _COMPARATOR.fullmatch(word)
    if match is None:
        return None
    operator = match[1] or "="
    parts: list[int] = []
    for part in match.groups()[1:]:  # the numbers before a wildcard or the end (`5.x` is 5)
        if part is None or not part.isdigit():
            break
        parts.append(int(part))
    if not parts:  # `*`, `x`: every version
        return (_LOWEST, _HIGHEST) if operator in ("=", "~", "^", ">=", "<=") else None
    low = _version(parts)
    past = _next(parts)  # the first version after every one `parts` names
    if operator == "=":
        return low, past
    if operator == ">=":
        return low, _HIGHEST
    if operator == ">":
        return past, _HIGHEST
    if operator == "<":
        return _LOWEST, low
    if operator == "<=":
        return _LOWEST, past
    if operator == "~":
        return low, _next(parts[:2])
    # `^`: up to the next change of the first part that is not zero
    nonzero = next((i for i, p in enumerate(parts) if p), len(parts) - 1)
    return low, _next(parts[: nonzero + 1])


def _version(parts: list[int]) -> Version:
    full = [*parts, 0, 0][:3]
    return full[0], full[1], full[2]


def _next(parts: list[int]) -> Version:
    """The first version past every one whose leading parts are `parts` (`5.4` -> 5.5.0)."""
    return _version([*parts[:-1], parts[-1] + 1])
