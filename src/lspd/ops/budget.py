"""Keeping answers small and honest: the compact wire form, its budget, and paging.

The wire form (`compact`) is the model's JSON without the fields that hold their default
(nulls, empty lists, `false`, offset 0): the output schema states every default, so an
omitted field still says what it is. MCP sends it as `structuredContent` and, as compact
JSON (`compact_json`), as the text block; the CLI's `--json` prints the same bytes.

Paging, for every list an operation returns (`page`):

    return page(len(items), offset, limit, lambda w: Result(
        items=items[w.offset : w.end], total=w.total,
        truncated=w.truncated, next_offset=w.next_offset))

`limit` is honoured up to `maximum`; fewer items come back only when the answer would pass
`BUDGET_CHARS`, and then `next_offset` says where the rest starts. A larger `limit` never
returns fewer items (the count is min(limit, maximum, what is left, what fits)), and pages
taken by following `next_offset` hold every item exactly once. Given each item's size
(`sizes`), the count that fits is computed from them (`fitting`) and then confirmed with
one or two serializations instead of one per step of a search: a whole-workspace page of
thousands of diagnostics is measured once per check, not once per page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from lspd.errors import InvalidInput

# Claude Code cuts or refuses results over ~25k tokens; stay well below 20,000 characters.
BUDGET_CHARS = 16_000
MAX_LIMIT = 1000  # items of one page, whatever `limit` asks

M = TypeVar("M", bound=BaseModel)


def compact(model: BaseModel) -> dict[str, Any]:
    """The model as JSON data without the fields that hold their default."""
    data: dict[str, Any] = model.model_dump(mode="json", exclude_defaults=True)
    return data


def compact_json(data: BaseModel | dict[str, Any]) -> str:
    """Compact JSON text (no indentation, no ASCII escapes) of a model or its wire form."""
    if isinstance(data, BaseModel):
        data = compact(data)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def size(model: BaseModel) -> int:
    """The characters of the model's compact JSON, as an agent reads it."""
    return len(compact_json(model))


def fits(model: BaseModel) -> bool:
    """Whether the model fits the answer budget."""
    return size(model) <= BUDGET_CHARS


@dataclass(frozen=True)
class Window:
    """One page of a list: `count` items from `offset`, of `total`."""

    offset: int
    count: int
    total: int

    @property
    def end(self) -> int:
        """Index after the page's last item."""
        return self.offset + self.count

    @property
    def next_offset(self) -> int | None:
        """Where the next page starts; None on the last page."""
        return self.end if self.end < self.total else None

    @property
    def truncated(self) -> bool:
        """True when items remain after this page."""
        return self.end < self.total

    @property
    def paging(self) -> dict[str, Any]:
        """The paging fields of every list answer (`total`, `truncated`, `next_offset`)."""
        return {"total": self.total, "truncated": self.truncated, "next_offset": self.next_offset}


def check_paging(offset: object, limit: object, total: int | None = None) -> None:
    """`offset` ≥ 0 (not past the end when `total` is known) and `limit` ≥ 1."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInput(f"`limit` must be a positive integer, not {limit!r}")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InvalidInput(f"`offset` must be 0 or a positive integer, not {offset!r}")
    if total is not None and offset > total and offset > 0:
        raise InvalidInput(
            f"`offset` {offset} is past the end: there are {total} items; send an offset "
            f"below {total}, or 0 to start again"
        )


def fitting(sizes: Sequence[int], room: int) -> int:
    """How many items, in order, fit in `room` characters, each with its separating comma."""
    count = 0
    for item in sizes:
        room -= item + 1
        if room < 0:
            break
        count += 1
    return count


def item_sizes(items: Sequence[BaseModel]) -> list[int]:
    """The characters each item adds to an answer's list."""
    return [size(item) for item in items]


def page(
    total: int,
    offset: int,
    limit: int,
    build: Callable[[Window], M],
    maximum: int = MAX_LIMIT,
    sizes: Sequence[int] | None = None,
) -> M:
    """The largest page from `offset` that honours `limit` and `maximum` and fits the
    budget (at least one item, to make progress), built by `build`.

    `sizes`, when given, are the sizes of all `total` items (`item_sizes`): the count that
    fits is estimated from them, then confirmed. Either way the page holds the most items
    that fit, so its count never falls as `limit` rises."""
    check_paging(offset, limit, total)
    count = min(limit, maximum, total - offset)
    answer = build(Window(offset, count, total))
    if count <= 1 or fits(answer):
        return answer
    low, high = 1, count - 1  # the most items that fit lies in [low, high]
    if sizes is not None:
        room = BUDGET_CHARS - size(build(Window(offset, 0, total)))
        guess = min(high, max(1, fitting(sizes[offset : offset + count], room)))
        if fits(build(Window(offset, guess, total))):
            low = guess
            if guess == high or not fits(build(Window(offset, guess + 1, total))):
                return build(Window(offset, guess, total))
        else:
            high = guess - 1
    while low < high:
        middle = (low + high + 1) // 2
        if fits(build(Window(offset, middle, total))):
            low = middle
        else:
            high = middle - 1
    return build(Window(offset, low, total))
